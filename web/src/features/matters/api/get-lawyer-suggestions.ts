import { queryOptions, useQuery } from '@tanstack/react-query';
import { MATTER_LIMITS, MATTER_MSG, type LawyerSuggestionsResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { CACHE_TIMES } from '@/lib/query-client';

export function getLawyerSuggestions(query: string, signal?: AbortSignal): Promise<LawyerSuggestionsResponse> {
  return apiRequest<LawyerSuggestionsResponse>(`/_api/matters/lawyers/suggestions?query=${encodeURIComponent(query)}`, {
    signal,
    fallbackMessage: MATTER_MSG.fetchLawyersFailed,
  });
}

/** Suggestions for a query are kept 5 minutes: names change rarely, and each keystroke would ask again. */
export function lawyerSuggestionsQueryOptions(query: string) {
  const q = query.trim();
  return queryOptions({
    queryKey: ['matters', 'lawyer-suggestions', q],
    queryFn: ({ signal }) => getLawyerSuggestions(q, signal),
    staleTime: CACHE_TIMES.suggestionsStaleMs,
    gcTime: CACHE_TIMES.suggestionsGcMs,
  });
}

/** Fetched with an empty query or one of 2+ characters (the server refuses a 1-character query). */
export function useLawyerSuggestions(query: string, enabled = true) {
  const q = query.trim();
  return useQuery({
    ...lawyerSuggestionsQueryOptions(q),
    enabled: enabled && (q.length === 0 || q.length >= MATTER_LIMITS.suggestionMinQuery),
  });
}
