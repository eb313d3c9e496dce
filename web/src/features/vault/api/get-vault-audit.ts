import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { VAULT_LIMITS, VAULT_MSG, type VaultAuditResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { vaultQueryKey } from '@/lib/query-keys';
import { VAULT_STALE_MS } from '../lib/vault-format';

/** GET /_api/vault/audit: a vaulted matter's audit entries, newest first, 50 to a page. */
function getVaultAudit(matterId: string, page: number, signal?: AbortSignal): Promise<VaultAuditResponse> {
  const qs = new URLSearchParams({ matterId, page: String(page), pageSize: String(VAULT_LIMITS.auditPageSizeDefault) });
  return apiRequest<VaultAuditResponse>(`/_api/vault/audit?${qs.toString()}`, { signal, fallbackMessage: VAULT_MSG.fetchAuditFailed });
}

export function useVaultAudit(matterId: string, page: number, enabled: boolean) {
  return useQuery({
    queryKey: [...vaultQueryKey, 'audit', matterId, page],
    queryFn: ({ signal }) => getVaultAudit(matterId, page, signal),
    placeholderData: keepPreviousData,
    staleTime: VAULT_STALE_MS,
    enabled,
  });
}
