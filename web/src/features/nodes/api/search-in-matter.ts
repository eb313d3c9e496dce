import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { SEARCH_LIMITS, SEARCH_MSG, type SearchResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import type { WithDates } from '@/lib/dates';
import { mattersQueryKey } from '@/lib/query-keys';

function searchInMatter(matterId: string, q: string, signal?: AbortSignal): Promise<WithDates<SearchResponse>> {
  const qs = new URLSearchParams({ q, matterId, limit: String(SEARCH_LIMITS.limitMax) });
  return apiRequest<SearchResponse>(`/_api/search?${qs.toString()}`, { signal, fallbackMessage: SEARCH_MSG.failed });
}

/**
 * The files and folders of one matter whose name matches, at any depth, with their paths. Under the matters key:
 * a change to a folder or a file (which refreshes that key) refreshes open results too. Asked only from
 * SEARCH_LIMITS.queryMin characters, as the server requires.
 */
export function useSearchInMatter(matterId: string, q: string) {
  return useQuery(
    queryOptions({
      queryKey: [...mattersQueryKey, 'search-in-matter', matterId, q],
      queryFn: ({ signal }) => searchInMatter(matterId, q, signal),
      enabled: q.length >= SEARCH_LIMITS.queryMin,
      placeholderData: keepPreviousData,
      staleTime: 30_000,
    }),
  );
}
