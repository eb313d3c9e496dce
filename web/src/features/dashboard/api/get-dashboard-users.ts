import { useQuery } from '@tanstack/react-query';
import { DASHBOARD_MSG, type DashboardUsersResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { DASHBOARD_QUERY, dashboardQueryKey } from '../lib/dashboard-query';

/** GET /_api/dashboard/users (whoever manages or may invite users). */
function getDashboardUsers(signal?: AbortSignal): Promise<DashboardUsersResponse> {
  return apiRequest<DashboardUsersResponse>('/_api/dashboard/users', { signal, fallbackMessage: DASHBOARD_MSG.userDataFailed });
}

export function useDashboardUsers() {
  return useQuery({ queryKey: [...dashboardQueryKey, 'users'], queryFn: ({ signal }) => getDashboardUsers(signal), ...DASHBOARD_QUERY });
}
