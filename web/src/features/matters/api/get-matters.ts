import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { MATTER_MSG, type MatterListQuery, type MatterListResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import type { WithDates } from '@/lib/dates';
import { CACHE_TIMES } from '@/lib/query-client';
import { matterListQueryKey } from '@/lib/query-keys';

/**
 * The list call's query string, as the contracts define it (the pages build it from the filters); the exact
 * flags are sent only when set.
 */
export type MatterListParams = Omit<MatterListQuery, 'clientNameExact' | 'responsibleLawyerExact'> &
  Partial<Pick<MatterListQuery, 'clientNameExact' | 'responsibleLawyerExact'>>;

export function getMatters(params: MatterListParams, signal?: AbortSignal): Promise<WithDates<MatterListResponse>> {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '' && v !== false) qs.set(k, String(v));
  return apiRequest<MatterListResponse>(`/_api/matters/list?${qs.toString()}`, { signal, fallbackMessage: MATTER_MSG.fetchListFailed });
}

export function mattersQueryOptions(params: MatterListParams) {
  return queryOptions({
    queryKey: [...matterListQueryKey, params],
    queryFn: ({ signal }) => getMatters(params, signal),
    placeholderData: keepPreviousData,
    staleTime: CACHE_TIMES.matterListStaleMs,
  });
}

export function useMatters(params: MatterListParams) {
  return useQuery(mattersQueryOptions(params));
}
