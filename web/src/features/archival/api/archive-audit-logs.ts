import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ARCHIVAL_MSG, type ArchiveAuditLogsResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { runWithSystemMfa } from '@/lib/system-mfa';
import { archivalQueryKey } from './get-archival-stats';

/**
 * POST /_api/system/archive-audit-logs: a dry run counts what would move, otherwise logs older than 180 days
 * are archived. Both need system MFA, kept as a 30-minute token: a dry run only counts, as the statistics do, so
 * it is of the statistics' class (VIEW_ARCHIVAL_STATS) and the code given to see them serves it without a second
 * prompt; a real archival is of the organization class (MFA_SYSTEM_OPERATIONS) and asks for its own code.
 */
function archiveAuditLogs(dryRun: boolean): Promise<ArchiveAuditLogsResponse> {
  return runWithSystemMfa(dryRun ? 'VIEW_ARCHIVAL_STATS' : 'MFA_SYSTEM_OPERATIONS', (token) =>
    apiRequest<ArchiveAuditLogsResponse>('/_api/system/archive-audit-logs', {
      body: { dryRun },
      headers: { 'x-mfa-token': token },
      mfaRetry: false,
      // A failure without a JSON error text (a proxy's page, a bare status) names the status.
      fallbackMessage: ARCHIVAL_MSG.httpError,
      timeoutMs: 120_000,
    }),
  );
}

/** Afterwards the audit list and the stats are read again (`auditLogsKey`: the list's query key). */
export function useArchiveAuditLogs(auditLogsKey: readonly unknown[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: archiveAuditLogs,
    meta: { handlesError: true },
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: archivalQueryKey }),
        queryClient.invalidateQueries({ queryKey: [...auditLogsKey] }),
      ]);
    },
  });
}
