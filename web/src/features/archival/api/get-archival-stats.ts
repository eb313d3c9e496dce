import { useQuery } from '@tanstack/react-query';
import { ARCHIVAL_LIMITS, ARCHIVAL_MSG, type ArchivalStatsResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { runWithSystemMfa } from '@/lib/system-mfa';

export const archivalQueryKey = ['archival'] as const;

/**
 * GET /_api/system/archival-stats (administrators). Reading the stats needs system MFA (VIEW_ARCHIVAL_STATS):
 * the prompt trades one code for a 30-minute token sent in the x-mfa-token header, so the half-hourly refresh
 * and the refresh after an archival do not ask again; a refused token asks once more.
 */
function getArchivalStats(signal?: AbortSignal): Promise<ArchivalStatsResponse> {
  return runWithSystemMfa('VIEW_ARCHIVAL_STATS', (token) =>
    apiRequest<ArchivalStatsResponse>('/_api/system/archival-stats', {
      signal,
      headers: { 'x-mfa-token': token },
      mfaRetry: false,
      fallbackMessage: ARCHIVAL_MSG.statsFailed,
    }),
  );
}

export function useArchivalStats(enabled: boolean) {
  return useQuery({
    queryKey: [...archivalQueryKey, 'stats'],
    queryFn: ({ signal }) => getArchivalStats(signal),
    enabled,
    staleTime: ARCHIVAL_LIMITS.statsStaleMs,
    refetchInterval: ARCHIVAL_LIMITS.statsRefetchMs,
    refetchOnWindowFocus: false,
  });
}
