import { useQuery } from '@tanstack/react-query';
import { ARCHIVAL_LIMITS, ARCHIVAL_MSG, MSG, type ArchivalStatsResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { ApiError, isMfaRequiredError } from '@/lib/api-error';
import { forgetSystemMfaToken, getSystemMfaToken } from '@/lib/system-mfa';

export const archivalQueryKey = ['archival'] as const;
const archivalStatsQueryKey = [...archivalQueryKey, 'stats'] as const;

/** What the stats query fails with while no code unlocks them: the panel shows 'Show statistics'. */
function statsLocked(): ApiError {
  return new ApiError({ status: 401, code: 'MFA_REQUIRED', message: MSG.mfaRequired, mfaRequired: true });
}

/**
 * GET /_api/system/archival-stats (administrators). Reading the stats needs system MFA (VIEW_ARCHIVAL_STATS),
 * a 30-minute token sent in the x-mfa-token header. The query itself never asks for a code: a page must not
 * greet anyone with a prompt, nor may the half-hourly refresh raise one. It reads with the token held; without
 * one, or when the server refuses it, it fails as locked and the panel offers 'Show statistics', whose press
 * asks for the code (the system MFA prompt) and reads again.
 */
function getArchivalStats(signal?: AbortSignal): Promise<ArchivalStatsResponse> {
  const token = getSystemMfaToken('VIEW_ARCHIVAL_STATS');
  if (!token) return Promise.reject(statsLocked());
  return apiRequest<ArchivalStatsResponse>('/_api/system/archival-stats', {
    signal,
    headers: { 'x-mfa-token': token },
    mfaRetry: false,
    // A failure without a JSON error text (a proxy's page, a bare status) names the status.
    fallbackMessage: ARCHIVAL_MSG.httpError,
  }).catch((error: unknown) => {
    if (isMfaRequiredError(error)) forgetSystemMfaToken('VIEW_ARCHIVAL_STATS');
    throw error;
  });
}

/** Whether a failed stats read only lacks a code (show the button), rather than a real failure. */
export function isStatsLocked(error: unknown): boolean {
  return isMfaRequiredError(error);
}

export function useArchivalStats(enabled: boolean) {
  return useQuery({
    queryKey: archivalStatsQueryKey,
    queryFn: ({ signal }) => getArchivalStats(signal),
    enabled,
    staleTime: ARCHIVAL_LIMITS.statsStaleMs,
    refetchInterval: ARCHIVAL_LIMITS.statsRefetchMs,
    refetchOnWindowFocus: false,
  });
}
