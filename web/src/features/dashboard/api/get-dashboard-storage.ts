import { useQuery } from '@tanstack/react-query';
import { DASHBOARD_MSG, type DashboardStorageResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { DASHBOARD_QUERY, dashboardQueryKey } from '../lib/dashboard-query';

/** GET /_api/dashboard/storage (administrators). */
function getDashboardStorage(signal?: AbortSignal): Promise<DashboardStorageResponse> {
  return apiRequest<DashboardStorageResponse>('/_api/dashboard/storage', { signal, fallbackMessage: DASHBOARD_MSG.storageDataFailed });
}

export function useDashboardStorage() {
  return useQuery({
    queryKey: [...dashboardQueryKey, 'storage'],
    queryFn: ({ signal }) => getDashboardStorage(signal),
    ...DASHBOARD_QUERY,
  });
}
