import { queryOptions, useQuery } from '@tanstack/react-query';
import { LIMITS, MSG, type InvitationVerifyRequest, type InvitationVerifyResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/auth/invitation-verify: who invited whom, for the acceptance screen. */
function verifyInvitation(token: string, signal?: AbortSignal): Promise<InvitationVerifyResponse> {
  return apiRequest<InvitationVerifyResponse>('/_api/auth/invitation-verify', {
    body: { token } satisfies InvitationVerifyRequest,
    signal,
    mfaRetry: false,
    fallbackMessage: MSG.invitationVerifyFailed,
  });
}

/** Retried once, fresh forever, kept 30 minutes: an invitation link does not change while the page is open. */
function invitationQueryOptions(token: string) {
  return queryOptions({
    queryKey: ['invitation', token],
    queryFn: ({ signal }) => verifyInvitation(token, signal),
    retry: 1,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: LIMITS.invitationGcMs,
  });
}

export function useInvitation(token: string) {
  return useQuery({ ...invitationQueryOptions(token), enabled: token !== '' });
}
