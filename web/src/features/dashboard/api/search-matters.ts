import { useQuery } from '@tanstack/react-query';
import { DASHBOARD_LIMITS, DASHBOARD_MSG, type MatterListResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { matterListQueryKey } from '@/lib/query-keys';
import { DASHBOARD_QUERY } from '../lib/dashboard-query';

/** GET /_api/matters/list for Select Matter: 10 matters matching the text, by name A to Z. */
function searchMatters(search: string, signal?: AbortSignal) {
  const qs = new URLSearchParams({
    page: '1',
    pageSize: String(DASHBOARD_LIMITS.searchResults),
    search,
    sortBy: 'matter_name',
    sortDirection: 'asc',
  });
  return apiRequest<MatterListResponse>(`/_api/matters/list?${qs.toString()}`, { signal, fallbackMessage: DASHBOARD_MSG.searchFailed });
}

/** Searches once the text is longer than 1 character (the caller debounces it). */
export function useMatterSearch(search: string) {
  const enabled = search.trim().length >= DASHBOARD_LIMITS.searchMinChars;
  return useQuery({
    queryKey: [...matterListQueryKey, 'dashboard-search', search.trim()],
    queryFn: ({ signal }) => searchMatters(search.trim(), signal),
    enabled,
    ...DASHBOARD_QUERY,
  });
}
