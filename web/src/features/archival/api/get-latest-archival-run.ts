import { useQuery } from '@tanstack/react-query';
import { ARCHIVAL_LIMITS, ARCHIVAL_MSG, MSG, type ArchivalRun, type LatestArchivalRunResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { getSystemMfaToken } from '@/lib/system-mfa';
import { archivalQueryKey } from './get-archival-stats';

const latestRunQueryKey = [...archivalQueryKey, 'latest-run'] as const;

/** Whether a run is still under way (its progress is read again). */
export const runActive = (run: ArchivalRun | null | undefined) => run?.state === 'queued' || run?.state === 'running';

/**
 * GET /_api/system/archival-runs/latest: the latest archival and its progress. It is of the archival's class
 * (MFA_SYSTEM_OPERATIONS): it reads with the token that started the run, and never asks for a code itself.
 */
function getLatestArchivalRun(signal?: AbortSignal): Promise<LatestArchivalRunResponse> {
  const token = getSystemMfaToken('MFA_SYSTEM_OPERATIONS');
  if (!token) return Promise.reject(new ApiError({ status: 401, code: 'MFA_REQUIRED', message: MSG.mfaRequired, mfaRequired: true }));
  return apiRequest<LatestArchivalRunResponse>('/_api/system/archival-runs/latest', {
    signal,
    headers: { 'x-mfa-token': token },
    mfaRetry: false,
    fallbackMessage: ARCHIVAL_MSG.httpError,
  });
}

/** The latest run, read every second while it is queued or running. */
export function useLatestArchivalRun(enabled: boolean) {
  return useQuery({
    queryKey: latestRunQueryKey,
    queryFn: ({ signal }) => getLatestArchivalRun(signal),
    enabled,
    retry: false,
    refetchOnWindowFocus: false,
    refetchInterval: (query) => (runActive(query.state.data?.run) ? ARCHIVAL_LIMITS.runPollMs : false),
  });
}
