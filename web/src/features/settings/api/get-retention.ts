import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RetentionSettingsResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { retentionQueryKey } from './keys';

/** GET /_api/settings/retention: the default retention and the vault configuration as the server really runs it. */
function getRetention(signal?: AbortSignal): Promise<RetentionSettingsResponse> {
  return apiRequest<RetentionSettingsResponse>('/_api/settings/retention', { signal });
}

export function useRetentionSettings() {
  return useQuery(queryOptions({ queryKey: retentionQueryKey, queryFn: ({ signal }) => getRetention(signal), staleTime: 0 }));
}
