import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteUserRequest, InviteUserResponse } from '@strongroom/contracts';
import { teamQueryKey } from '../lib/team-query-keys';
import { teamRequest } from './team-request';

/**
 * POST /_api/settings/users/invite. With MFA_USER_MANAGEMENT on it demands a fresh code: the MFA prompt asks for
 * it and the same invitation goes again with it. An address already invited or already a member is refused
 * before any code is asked for, and shown in the invite dialog.
 */
function inviteUser(body: InviteUserRequest): Promise<InviteUserResponse> {
  return teamRequest<InviteUserResponse>('/_api/settings/users/invite', body);
}

export function useInviteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteUser,
    meta: { handlesError: true },
    // The pending invitations of the Team tab show the new one.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: teamQueryKey }),
  });
}
