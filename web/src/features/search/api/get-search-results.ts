import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { SEARCH_LIMITS, SEARCH_MSG, type SearchResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import type { WithDates } from '@/lib/dates';
import { mattersQueryKey } from '@/lib/query-keys';

function getSearchResults(q: string, signal?: AbortSignal): Promise<WithDates<SearchResponse>> {
  const qs = new URLSearchParams({ q, limit: String(SEARCH_LIMITS.limitDefault) });
  return apiRequest<SearchResponse>(`/_api/search?${qs.toString()}`, { signal, fallbackMessage: SEARCH_MSG.failed });
}

/**
 * Under the matters key: a change to a matter, a folder or a file (which refreshes that key) refreshes open search
 * results too. Asked only from SEARCH_LIMITS.queryMin characters, as the server requires.
 */
export function useSearchResults(q: string) {
  return useQuery(
    queryOptions({
      queryKey: [...mattersQueryKey, 'search', q],
      queryFn: ({ signal }) => getSearchResults(q, signal),
      enabled: q.length >= SEARCH_LIMITS.queryMin,
      placeholderData: keepPreviousData,
      staleTime: 30_000,
    }),
  );
}
