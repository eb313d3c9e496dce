import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RecoveryCodesResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { profileQueryKey } from './keys';

/**
 * POST /_api/settings/mfa/recovery-codes: a new set of recovery codes (the old set stops working). It always
 * needs a fresh code: the api client asks for it and sends the same request again.
 */
function regenerateRecoveryCodes(): Promise<RecoveryCodesResponse> {
  return apiRequest<RecoveryCodesResponse>('/_api/settings/mfa/recovery-codes', { body: {} });
}

export function useRegenerateRecoveryCodes() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: regenerateRecoveryCodes,
    meta: { handlesError: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileQueryKey }),
  });
}
