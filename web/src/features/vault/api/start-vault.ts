import { useMutation, useQueryClient } from '@tanstack/react-query';
import { VAULT_MSG, type VaultStartRequest, type VaultStartResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { matterDetailQueryKey, mattersQueryKey, vaultQueryKey } from '@/lib/query-keys';

/**
 * POST /_api/vault/start. Vaulting always needs a fresh second-factor code: the server answers 401 MFA_REQUIRED,
 * the api client asks for the code and sends the same request again with it (mfaToken in the body).
 */
function startVault(body: VaultStartRequest): Promise<VaultStartResponse> {
  return apiRequest<VaultStartResponse>('/_api/vault/start', { body, fallbackMessage: VAULT_MSG.vaultFailed });
}

export function useStartVault() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: startVault,
    meta: { handlesError: true, operation: 'vault' },
    onSuccess: (_answer, { matterId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: matterDetailQueryKey(matterId) }),
        queryClient.invalidateQueries({ queryKey: mattersQueryKey }),
        queryClient.invalidateQueries({ queryKey: vaultQueryKey }),
      ]),
  });
}
