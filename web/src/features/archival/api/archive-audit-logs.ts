import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ARCHIVAL_MSG, type ArchiveAuditLogsResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { archivalQueryKey } from './get-archival-stats';

/**
 * POST /_api/system/archive-audit-logs: a dry run counts what would move, otherwise logs older than 180 days
 * are archived. Needs a system MFA code (the MFA prompt asks for it and the call goes again with it).
 */
function archiveAuditLogs(dryRun: boolean): Promise<ArchiveAuditLogsResponse> {
  return apiRequest<ArchiveAuditLogsResponse>('/_api/system/archive-audit-logs', {
    body: { dryRun },
    // A failure without a JSON error text (a proxy's page, a bare status) names the status.
    fallbackMessage: ARCHIVAL_MSG.httpError,
    timeoutMs: 120_000,
  });
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
