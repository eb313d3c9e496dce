import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InvitationActionRequest, InvitationActionResponse } from '@strongroom/contracts';
import { teamQueryKey } from '../lib/team-query-keys';
import { teamRequest } from './team-request';

/** POST /_api/settings/users/invitations/resend: a new link by email; the old one stops working. */
function resendInvitation(body: InvitationActionRequest): Promise<InvitationActionResponse> {
  return teamRequest<InvitationActionResponse>('/_api/settings/users/invitations/resend', body);
}

/** POST /_api/settings/users/invitations/revoke: the link stops working. */
function revokeInvitation(body: InvitationActionRequest): Promise<InvitationActionResponse> {
  return teamRequest<InvitationActionResponse>('/_api/settings/users/invitations/revoke', body);
}

export function useResendInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resendInvitation,
    meta: { handlesError: true },
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamQueryKey }),
  });
}

export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeInvitation,
    meta: { handlesError: true },
    onSettled: () => queryClient.invalidateQueries({ queryKey: teamQueryKey }),
  });
}
