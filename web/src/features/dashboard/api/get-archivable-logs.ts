import { useMutation } from '@tanstack/react-query';
import { ARCHIVAL_MSG, type ArchivalStatsResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { runWithSystemMfa } from '@/lib/system-mfa';

/**
 * GET /_api/system/archival-stats, read only when the administrator presses the button: the statistics may ask
 * for a step-up code (VIEW_ARCHIVAL_STATS), and the dashboard never greets anyone with a prompt.
 */
function getArchivalStats(): Promise<ArchivalStatsResponse> {
  return runWithSystemMfa('VIEW_ARCHIVAL_STATS', (token) =>
    apiRequest<ArchivalStatsResponse>('/_api/system/archival-stats', {
      headers: { 'x-mfa-token': token },
      mfaRetry: false,
      fallbackMessage: ARCHIVAL_MSG.httpError,
    }),
  );
}

export function useArchivableLogs() {
  return useMutation({ mutationFn: getArchivalStats, meta: { handlesError: true } });
}
