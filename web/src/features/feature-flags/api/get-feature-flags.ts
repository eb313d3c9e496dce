import { queryOptions, useQuery } from '@tanstack/react-query';
import type { FeatureFlagsResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { isApiError } from '@/lib/api-error';

export const featureFlagsQueryKey = ['settings', 'feature-flags'] as const;

/** GET /_api/settings/feature-flags (admins): the six flags with their descriptions. */
function getFeatureFlags(signal?: AbortSignal): Promise<FeatureFlagsResponse> {
  return apiRequest<FeatureFlagsResponse>('/_api/settings/feature-flags', { signal });
}

/** Retried up to 2 times, except when the answer says the user is not signed in or not allowed. */
function shouldRetryFeatureFlags(failureCount: number, error: unknown): boolean {
  if (error instanceof Error && error.message.includes('Authentication required')) return false;
  if (isApiError(error) && (error.status === 401 || error.status === 403)) return false;
  return failureCount < 2;
}

function featureFlagsQueryOptions() {
  return queryOptions({
    queryKey: featureFlagsQueryKey,
    queryFn: ({ signal }) => getFeatureFlags(signal),
    // Settings are always read fresh: another admin may have changed them.
    staleTime: 0,
    retry: shouldRetryFeatureFlags,
  });
}

export function useFeatureFlags() {
  return useQuery(featureFlagsQueryOptions());
}
