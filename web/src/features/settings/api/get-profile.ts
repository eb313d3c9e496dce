import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ProfileResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { profileQueryKey } from './keys';

/** GET /_api/settings/profile: the signed-in user's own profile and second factor. */
function getProfile(signal?: AbortSignal): Promise<ProfileResponse> {
  return apiRequest<ProfileResponse>('/_api/settings/profile', { signal });
}

function profileQueryOptions() {
  return queryOptions({ queryKey: profileQueryKey, queryFn: ({ signal }) => getProfile(signal), staleTime: 0 });
}

export function useProfile() {
  return useQuery(profileQueryOptions());
}
