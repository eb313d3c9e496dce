import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { MSG, type invitationAcceptRequest } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

export type InvitationAcceptRequest = z.infer<typeof invitationAcceptRequest>;

/** POST /_api/auth/invitation-accept: creates the account and joins the organization. */
export function acceptInvitation(body: InvitationAcceptRequest): Promise<{ success: boolean; message: string }> {
  return apiRequest('/_api/auth/invitation-accept', { body, mfaRetry: false, fallbackMessage: MSG.invitationAcceptFailed });
}

export function useAcceptInvitation() {
  return useMutation({ mutationFn: acceptInvitation, meta: { handlesError: true } });
}
