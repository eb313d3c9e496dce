import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TeamListResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { teamQueryKey } from '../lib/team-query-keys';

/** GET /_api/settings/users: the team, the pending invitations and what the viewer may do with them. */
function getTeam(signal?: AbortSignal): Promise<TeamListResponse> {
  return apiRequest<TeamListResponse>('/_api/settings/users', { signal });
}

export function teamQueryOptions() {
  // Settings are always read fresh: another administrator may have changed the team meanwhile.
  return queryOptions({ queryKey: teamQueryKey, queryFn: ({ signal }) => getTeam(signal), staleTime: 0 });
}

export function useTeam() {
  return useQuery(teamQueryOptions());
}
