import { queryOptions, useQuery } from '@tanstack/react-query';
import { MATTER_MSG, type MatterDetailResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import type { WithDates } from '@/lib/dates';
import { CACHE_TIMES } from '@/lib/query-client';
import { matterDetailQueryKey } from '@/lib/query-keys';

export function getMatterDetail(matterId: string, signal?: AbortSignal): Promise<WithDates<MatterDetailResponse>> {
  return apiRequest<MatterDetailResponse>(`/_api/matters/detail?matterId=${encodeURIComponent(matterId)}`, {
    signal,
    fallbackMessage: MATTER_MSG.fetchDetailFailed,
  });
}

export function matterDetailQueryOptions(matterId: string) {
  return queryOptions({
    queryKey: matterDetailQueryKey(matterId),
    queryFn: ({ signal }) => getMatterDetail(matterId, signal),
    staleTime: CACHE_TIMES.matterDetailStaleMs,
  });
}

export function useMatterDetail(matterId: string | null) {
  return useQuery({ ...matterDetailQueryOptions(matterId ?? ''), enabled: matterId !== null });
}
