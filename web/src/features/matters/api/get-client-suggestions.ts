import { queryOptions, useQuery } from '@tanstack/react-query';
import { MATTER_LIMITS, MATTER_MSG, type ClientSuggestionsResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { CACHE_TIMES } from '@/lib/query-client';

export function getClientSuggestions(query: string, signal?: AbortSignal): Promise<ClientSuggestionsResponse> {
  return apiRequest<ClientSuggestionsResponse>(`/_api/matters/clients/suggestions?query=${encodeURIComponent(query)}`, {
    signal,
    fallbackMessage: MATTER_MSG.fetchClientsFailed,
  });
}

/** Suggestions for a query are kept 5 minutes: names change rarely, and each keystroke would ask again. */
export function clientSuggestionsQueryOptions(query: string) {
  const q = query.trim();
  return queryOptions({
    queryKey: ['matters', 'client-suggestions', q],
    queryFn: ({ signal }) => getClientSuggestions(q, signal),
    staleTime: CACHE_TIMES.suggestionsStaleMs,
    gcTime: CACHE_TIMES.suggestionsGcMs,
  });
}

/** Fetched with an empty query or one of 2+ characters (the server refuses a 1-character query). */
export function useClientSuggestions(query: string, enabled = true) {
  const q = query.trim();
  return useQuery({
    ...clientSuggestionsQueryOptions(q),
    enabled: enabled && (q.length === 0 || q.length >= MATTER_LIMITS.suggestionMinQuery),
  });
}
