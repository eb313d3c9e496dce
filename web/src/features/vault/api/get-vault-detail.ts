import { useQuery } from '@tanstack/react-query';
import { VAULT_MSG, type VaultDetailResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import type { WithDates } from '@/lib/dates';
import { vaultQueryKey } from '@/lib/query-keys';
import { VAULT_STALE_MS } from '../lib/vault-format';

/** GET /_api/vault/detail: a vaulted matter's facts, transfer state and its folders and files as a tree. */
function getVaultDetail(matterId: string, signal?: AbortSignal): Promise<WithDates<VaultDetailResponse>> {
  return apiRequest<VaultDetailResponse>(`/_api/vault/detail?matterId=${encodeURIComponent(matterId)}`, {
    signal,
    fallbackMessage: VAULT_MSG.fetchDetailFailed,
  });
}

export function useVaultDetail(matterId: string | null) {
  return useQuery({
    queryKey: [...vaultQueryKey, 'detail', matterId],
    queryFn: ({ signal }) => getVaultDetail(matterId!, signal),
    staleTime: VAULT_STALE_MS,
    enabled: matterId !== null,
    // While files are still on their way, the transfer state is read again now and then.
    refetchInterval: (query) => {
      const state = query.state.data?.matter.transferState;
      return state === 'pending' || state === 'transferring' ? 5_000 : false;
    },
  });
}
