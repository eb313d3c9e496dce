import { useQuery } from '@tanstack/react-query';
import { DASHBOARD_MSG, type DashboardVaultStatusResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { DASHBOARD_QUERY, dashboardQueryKey } from '../lib/dashboard-query';

/** GET /_api/dashboard/vault-status (holders of canViewVaulted). */
function getDashboardVaultStatus(signal?: AbortSignal): Promise<DashboardVaultStatusResponse> {
  return apiRequest<DashboardVaultStatusResponse>('/_api/dashboard/vault-status', {
    signal,
    fallbackMessage: DASHBOARD_MSG.vaultStatusFailed,
  });
}

export function useDashboardVaultStatus() {
  return useQuery({
    queryKey: [...dashboardQueryKey, 'vault-status'],
    queryFn: ({ signal }) => getDashboardVaultStatus(signal),
    ...DASHBOARD_QUERY,
  });
}
