import { useQuery } from '@tanstack/react-query';
import { DASHBOARD_MSG, type DashboardActivityResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { DASHBOARD_QUERY, dashboardQueryKey } from '../lib/dashboard-query';

/** GET /_api/dashboard/activity: the newest entries the user may see. */
function getDashboardActivity(signal?: AbortSignal): Promise<DashboardActivityResponse> {
  return apiRequest<DashboardActivityResponse>('/_api/dashboard/activity', { signal, fallbackMessage: DASHBOARD_MSG.recentActivityFailed });
}

export function useDashboardActivity() {
  return useQuery({
    queryKey: [...dashboardQueryKey, 'activity'],
    queryFn: ({ signal }) => getDashboardActivity(signal),
    ...DASHBOARD_QUERY,
  });
}
