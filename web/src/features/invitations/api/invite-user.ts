import { useMutation } from '@tanstack/react-query';
import type { InviteUserRequest, InviteUserResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/**
 * POST /_api/settings/users/invite. Usually demands a fresh MFA code (MFA_USER_MANAGEMENT): the api client
 * opens the MFA dialog and sends the same request again with it.
 */
function inviteUser(body: InviteUserRequest): Promise<InviteUserResponse> {
  return apiRequest<InviteUserResponse>('/_api/settings/users/invite', { body });
}

export function useInviteUser() {
  return useMutation({ mutationFn: inviteUser, meta: { handlesError: true } });
}
