import { queryOptions, useQuery } from '@tanstack/react-query';
import { MATTER_LIMITS, type LawyerSuggestion } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

export function getLawyerSuggestions(query: string, signal?: AbortSignal): Promise<LawyerSuggestion[]> {
  return apiRequest<LawyerSuggestion[]>(`/_api/matters/lawyers/suggestions?query=${encodeURIComponent(query)}`, { signal });
}

/** Fetched with an empty query or one of 2+ characters (spec section 2). */
export function useLawyerSuggestions(query: string, enabled = true) {
  const q = query.trim();
  return useQuery({
    ...queryOptions({ queryKey: ['matters', 'lawyer-suggestions', q], queryFn: ({ signal }) => getLawyerSuggestions(q, signal), staleTime: 30_000 }),
    enabled: enabled && (q.length === 0 || q.length >= MATTER_LIMITS.suggestionMinQuery),
  });
}
