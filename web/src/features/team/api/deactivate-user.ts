import { useMutation, useQueryClient } from '@tanstack/react-query';
import { TEAM_MSG, type UserChangeResponse, type UserStatusRequest } from '@strongroom/contracts';
import { teamQueryKey } from '../lib/team-query-keys';
import { teamRequest } from './team-request';

/** POST /_api/settings/users/deactivate: ends every session of the user at once and blocks their sign-in. */
function deactivateUser(body: UserStatusRequest): Promise<UserChangeResponse> {
  return teamRequest<UserChangeResponse>('/_api/settings/users/deactivate', body, TEAM_MSG.deactivateFailed);
}

export function useDeactivateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deactivateUser,
    meta: { handlesError: true },
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamQueryKey }),
  });
}
