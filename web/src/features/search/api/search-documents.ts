import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { DOCUMENT_SEARCH_MSG, type DocumentSearchResponse, type MatterListResponse, type TeamListResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { mattersQueryKey } from '@/lib/query-keys';
import type { DocumentSearchState } from '../lib/document-search-params';
import { searchQueryString } from '../lib/document-search-params';

/** Matters offered in the matter filter: the first ones by name, narrowed by the text typed. */
const MATTER_CHOICES = 100;

/**
 * GET /_api/search/documents with the page's filters. Under the matters key: an upload, a rename or a move (which
 * refresh that key) refreshes open results too. Asked only once there is a query: the server requires one.
 */
export function useDocumentSearch(state: DocumentSearchState, limit: number) {
  const qs = searchQueryString(state, limit);
  return useQuery({
    queryKey: [...mattersQueryKey, 'document-search', qs],
    queryFn: ({ signal }) =>
      apiRequest<DocumentSearchResponse>(`/_api/search/documents?${qs}`, { signal, fallbackMessage: DOCUMENT_SEARCH_MSG.failed }),
    enabled: state.q.trim() !== '',
    placeholderData: keepPreviousData,
    staleTime: 30_000,
    retry: false,
  });
}

/** The matters the filter offers, by name A to Z. */
export function useMatterChoices(search: string) {
  const qs = new URLSearchParams({ page: '1', pageSize: String(MATTER_CHOICES), sortBy: 'matter_name', sortDirection: 'asc' });
  if (search) qs.set('search', search);
  return useQuery({
    queryKey: [...mattersQueryKey, 'list', 'document-search-choices', search],
    queryFn: ({ signal }) => apiRequest<MatterListResponse>(`/_api/matters/list?${qs.toString()}`, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** The firm's people, for the uploader filter: asked only of those who may read the team list. */
export function useUploaderChoices(enabled: boolean) {
  return useQuery({
    queryKey: ['team', 'document-search-uploaders'],
    queryFn: ({ signal }) => apiRequest<TeamListResponse>('/_api/settings/users', { signal }),
    enabled,
    staleTime: 60_000,
    select: (data) => data.users.map((u) => ({ id: u.id, name: u.fullName })),
  });
}
