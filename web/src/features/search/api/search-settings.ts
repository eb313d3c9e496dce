import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReindexRequest, ReindexResponse, SearchSettingsResponse, UpdateSearchSettingsRequest } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

const searchSettingsQueryKey = ['settings', 'search'] as const;
/** While a re-index runs, its progress is asked for this often. */
const REINDEX_POLL_MS = 3_000;

/** GET /_api/settings/search: the languages, the choices, the files by text state and the current re-index. */
export function useSearchSettings() {
  return useQuery({
    queryKey: searchSettingsQueryKey,
    queryFn: ({ signal }) => apiRequest<SearchSettingsResponse>('/_api/settings/search', { signal }),
    staleTime: 0,
    refetchInterval: (query) => (query.state.data?.reindex?.state === 'running' ? REINDEX_POLL_MS : false),
  });
}

/** POST /_api/settings/search (administrators). */
export function useUpdateSearchSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateSearchSettingsRequest) => apiRequest<SearchSettingsResponse>('/_api/settings/search', { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: searchSettingsQueryKey }),
  });
}

/** POST /_api/settings/search/reindex (administrators): starts rebuilding every file's text in the background. */
export function useStartReindex() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ReindexRequest) => apiRequest<ReindexResponse>('/_api/settings/search/reindex', { body }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: searchSettingsQueryKey }),
  });
}
