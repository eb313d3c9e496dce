import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { MfaManageRequest, MfaManageResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/settings/mfa-manage: generate a TOTP secret, switch to TOTP, or switch to email. */
function mfaManage(body: MfaManageRequest): Promise<MfaManageResponse> {
  return apiRequest<MfaManageResponse>('/_api/settings/mfa-manage', { body });
}

/**
 * The new authenticator secret and its QR image. A query so that a remount (or React's strict mode) shows
 * the secret the server kept, never a second one; 'Try again' refetches.
 */
export function totpSecretQueryOptions() {
  return queryOptions({
    queryKey: ['mfa-setup', 'totp-secret'],
    queryFn: () => mfaManage({ operation: 'generate_totp_secret' }),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    // Kept while the wall is open, so switching tabs does not replace a secret the user already scanned.
    gcTime: 15 * 60_000,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

export function useTotpSecret(enabled = true) {
  return useQuery({ ...totpSecretQueryOptions(), enabled });
}

export function useMfaManage() {
  return useMutation({ mutationFn: mfaManage, meta: { handlesError: true } });
}
