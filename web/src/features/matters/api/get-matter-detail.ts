import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { MATTER_MSG, type MatterDetailResponse, type NodeTreeDto } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import type { WithDates } from '@/lib/dates';
import { CACHE_TIMES } from '@/lib/query-client';
import { matterDetailQueryKey } from '@/lib/query-keys';

/**
 * Which files the matter's tree carries: every file when absent; else every folder and only the files directly in
 * the folder named ('root' for the matter's root, 'none' for no file).
 */
export type FilesIn = 'root' | 'none' | (string & {});

export function getMatterDetail(matterId: string, signal?: AbortSignal, filesIn?: FilesIn): Promise<WithDates<MatterDetailResponse>> {
  const files = filesIn ? `&filesIn=${encodeURIComponent(filesIn)}` : '';
  return apiRequest<MatterDetailResponse>(`/_api/matters/detail?matterId=${encodeURIComponent(matterId)}${files}`, {
    signal,
    fallbackMessage: MATTER_MSG.fetchDetailFailed,
  });
}

export function matterDetailQueryOptions(matterId: string, filesIn?: FilesIn) {
  return queryOptions({
    queryKey: [...matterDetailQueryKey(matterId), filesIn ?? 'all'],
    queryFn: ({ signal }) => getMatterDetail(matterId, signal, filesIn),
    staleTime: CACHE_TIMES.matterDetailStaleMs,
  });
}

/** While a file's text waits to be read, the matter is asked again this often, so its badge changes on its own. */
const TEXT_PENDING_POLL_MS = 5_000;

function anyTextPending(nodes: readonly NodeTreeDto[]): boolean {
  return nodes.some((n) => (n.nodeType === 'file' && n.textState === 'pending') || anyTextPending(n.children));
}

/**
 * The matter with every folder and the files of one folder. Going to another folder keeps the answer in hand
 * (its folders are the same) until the new folder's files arrive; `isPlaceholderData` says they are on the way.
 * While a file of the open folder waits for its text to be read, the answer is asked for again every 5 s.
 */
export function useMatterDetail(matterId: string | null, filesIn?: FilesIn) {
  return useQuery({
    ...matterDetailQueryOptions(matterId ?? '', filesIn),
    enabled: matterId !== null,
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (anyTextPending(query.state.data?.nodes ?? []) ? TEXT_PENDING_POLL_MS : false),
  });
}
