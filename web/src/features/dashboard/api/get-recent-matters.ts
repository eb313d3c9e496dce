import { useQuery } from '@tanstack/react-query';
import { DASHBOARD_LIMITS, DASHBOARD_MSG, type MatterListResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { matterListQueryKey } from '@/lib/query-keys';
import { DASHBOARD_QUERY } from '../lib/dashboard-query';

/**
 * GET /_api/matters/list, page 1 of 5, newest first: the Recent Matters widget. The server leaves vaulted
 * matters out for anyone without canViewVaulted. Kept under the matters list key, so a new matter refreshes it.
 */
function getRecentMatters(signal?: AbortSignal) {
  const qs = new URLSearchParams({ page: '1', pageSize: String(DASHBOARD_LIMITS.listSize), sortBy: 'created_at', sortDirection: 'desc' });
  return apiRequest<MatterListResponse>(`/_api/matters/list?${qs.toString()}`, {
    signal,
    fallbackMessage: DASHBOARD_MSG.recentMattersFailed,
  });
}

export function useRecentMatters() {
  return useQuery({
    queryKey: [...matterListQueryKey, 'dashboard-recent'],
    queryFn: ({ signal }) => getRecentMatters(signal),
    ...DASHBOARD_QUERY,
  });
}
