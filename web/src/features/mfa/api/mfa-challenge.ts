import { queryOptions, useQuery } from '@tanstack/react-query';
import { MSG, type MfaChallengeRequest, type MfaChallengeResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/auth/mfa-challenge: starts the second factor for the user who just passed the password step. */
function startMfaChallenge(userId: number): Promise<MfaChallengeResponse> {
  return apiRequest<MfaChallengeResponse>('/_api/auth/mfa-challenge', {
    body: { userId } satisfies MfaChallengeRequest,
    mfaRetry: false,
    fallbackMessage: MSG.challengeFailed,
  });
}

/**
 * A query (not a mutation) so a remount never starts a second challenge; Try Again refetches. No abort
 * signal: an unmount must not cancel a challenge the server has already started (React's strict mode would
 * then start a second one).
 */
function mfaChallengeQueryOptions(userId: number) {
  return queryOptions({
    queryKey: ['mfa-challenge', userId],
    queryFn: () => startMfaChallenge(userId),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

export function useMfaChallenge(userId: number) {
  return useQuery(mfaChallengeQueryOptions(userId));
}
