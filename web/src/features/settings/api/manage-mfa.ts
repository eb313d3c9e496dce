import { useMutation, useQueryClient } from '@tanstack/react-query';
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
