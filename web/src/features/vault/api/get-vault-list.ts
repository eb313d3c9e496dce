import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { VAULT_MSG, type VaultListQuery, type VaultListResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import type { WithDates } from '@/lib/dates';
import { vaultQueryKey } from '@/lib/query-keys';
import { VAULT_STALE_MS } from '../lib/vault-format';

/** The page always sends every parameter; the server's defaults apply only to other clients. */
export type VaultListParams = VaultListQuery;

/** GET /_api/vault/list: one page of the organization's vaulted matters, sorted and filtered by the server. */
function getVaultList(params: VaultListParams, signal?: AbortSignal): Promise<WithDates<VaultListResponse>> {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') qs.set(k, String(v));
  return apiRequest<VaultListResponse>(`/_api/vault/list?${qs.toString()}`, { signal, fallbackMessage: VAULT_MSG.fetchListFailed });
}

export function useVaultList(params: VaultListParams, enabled = true) {
  return useQuery({
    queryKey: [...vaultQueryKey, 'list', params],
    queryFn: ({ signal }) => getVaultList(params, signal),
    placeholderData: keepPreviousData,
    staleTime: VAULT_STALE_MS,
    enabled,
  });
}
