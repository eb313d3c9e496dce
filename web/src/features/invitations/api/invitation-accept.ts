import { useMutation } from '@tanstack/react-query';
import { MSG, type InvitationAcceptRequest, type MessageResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/auth/invitation-accept: creates the account and joins the organization. */
function acceptInvitation(body: InvitationAcceptRequest): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('/_api/auth/invitation-accept', {
    body,
    mfaRetry: false,
    fallbackMessage: MSG.invitationAcceptFailed,
  });
}

export function useAcceptInvitation() {
  return useMutation({ mutationFn: acceptInvitation, meta: { handlesError: true } });
}
