import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MfaManageRequest, MfaManageResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { profileQueryKey } from './keys';

/**
 * POST /_api/settings/mfa-manage from Settings: a new authenticator secret, or a switch of method proven by a
 * code of the current method (mfaToken). The code is part of the step, so an MFA_REQUIRED answer is not turned
 * into a second prompt.
 */
function manageMfa(body: MfaManageRequest): Promise<MfaManageResponse> {
  return apiRequest<MfaManageResponse>('/_api/settings/mfa-manage', { body, mfaRetry: false });
}

export const newTotpSecretQueryKey = ['settings', 'mfa', 'new-totp-secret'] as const;

/**
 * A new authenticator secret and its QR image (generate_totp_secret). A query, kept while the dialog is open, so
 * a re-render never asks the server for a second secret; it is dropped when the switch succeeds or the dialog goes.
 */
export function useNewTotpSecret() {
  return useQuery({
    queryKey: newTotpSecretQueryKey,
    queryFn: () => manageMfa({ operation: 'generate_totp_secret' }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

export function useManageMfa() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: manageMfa,
    meta: { handlesError: true },
    onSuccess: (answer) => {
      if (answer.mfaPrimaryMethod) void queryClient.invalidateQueries({ queryKey: profileQueryKey });
    },
  });
}
