import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GuestGrantRequest, GuestGrantResponse, GuestGrantsResponse, MatterListResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { guestGrantsQueryKey, teamQueryKey } from '../lib/team-query-keys';
import { teamRequest } from './team-request';

/** GET /_api/settings/guest-access?userId=: the matters shared with a guest. */
function getGuestGrants(userId: string, signal?: AbortSignal): Promise<GuestGrantsResponse> {
  return apiRequest<GuestGrantsResponse>(`/_api/settings/guest-access?userId=${encodeURIComponent(userId)}`, { signal });
}

export function useGuestGrants(userId: string) {
  return useQuery(
    queryOptions({ queryKey: guestGrantsQueryKey(userId), queryFn: ({ signal }) => getGuestGrants(userId, signal), staleTime: 0 }),
  );
}

/** The matters an administrator may pick from when sharing one (GET /_api/matters/list, searched by name or number). */
export function useMatterChoices(search: string) {
  const trimmed = search.trim();
  return useQuery({
    queryKey: ['team', 'matter-choices', trimmed],
    queryFn: ({ signal }) =>
      apiRequest<MatterListResponse>(
        `/_api/matters/list?${new URLSearchParams({ ...(trimmed ? { search: trimmed } : {}), pageSize: '8' })}`,
        {
          signal,
        },
      ),
    staleTime: 30_000,
  });
}

function useGrantChange(path: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: GuestGrantRequest) => teamRequest<GuestGrantResponse>(path, body),
    meta: { handlesError: true },
    onSuccess: (res, body) => queryClient.setQueryData<GuestGrantsResponse>(guestGrantsQueryKey(body.userId), { grants: res.grants }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamQueryKey }),
  });
}

/** POST /_api/settings/guest-access/grant: the guest may read the matter from now on. */
export const useGrantGuestAccess = () => useGrantChange('/_api/settings/guest-access/grant');
/** POST /_api/settings/guest-access/revoke */
export const useRevokeGuestAccess = () => useGrantChange('/_api/settings/guest-access/revoke');
