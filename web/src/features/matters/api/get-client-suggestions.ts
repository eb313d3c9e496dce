import { queryOptions, useQuery } from '@tanstack/react-query';
import { MATTER_LIMITS, type ClientSuggestion } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

export function getClientSuggestions(query: string, signal?: AbortSignal): Promise<ClientSuggestion[]> {
  return apiRequest<ClientSuggestion[]>(`/_api/matters/clients/suggestions?query=${encodeURIComponent(query)}`, { signal });
}

/** Fetched with an empty query or one of 2+ characters (spec section 2). */
export function useClientSuggestions(query: string, enabled = true) {
  const q = query.trim();
  return useQuery({
    ...queryOptions({ queryKey: ['matters', 'client-suggestions', q], queryFn: ({ signal }) => getClientSuggestions(q, signal), staleTime: 30_000 }),
    enabled: enabled && (q.length === 0 || q.length >= MATTER_LIMITS.suggestionMinQuery),
  });
}
