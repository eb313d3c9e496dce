import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AUDIT_LOG_LIMITS, AUDIT_LOG_MSG, type AuditLogListResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { auditQueryString, type AuditFilters, type AuditSort } from '../lib/audit-filters';

export const auditLogsQueryKey = ['audit-logs'] as const;

/**
 * GET /_api/audit-logs/list: one page (50 rows) of the organization's log the caller may see. Each row's
 * createdAt stays the ISO text the server sent (the same value as timestamp), as the rows are typed and shown.
 */
async function getAuditLogs(filters: AuditFilters, sort: AuditSort, page: number, signal?: AbortSignal): Promise<AuditLogListResponse> {
  const qs = auditQueryString(filters, sort, { page, limit: AUDIT_LOG_LIMITS.pageSizeDefault });
  const answer = await apiRequest<AuditLogListResponse>(`/_api/audit-logs/list?${qs}`, {
    signal,
    fallbackMessage: AUDIT_LOG_MSG.fetchFailed,
  });
  return { ...answer, logs: answer.logs.map((log) => ({ ...log, createdAt: new Date(log.createdAt).toISOString() })) };
}

export function useAuditLogs(filters: AuditFilters, sort: AuditSort, page: number) {
  return useQuery({
    queryKey: [
      ...auditLogsQueryKey,
      'list',
      { ...filters, range: filters.range && [filters.range.from.getTime(), filters.range.to?.getTime()] },
      sort,
      page,
    ],
    queryFn: ({ signal }) => getAuditLogs(filters, sort, page, signal),
    placeholderData: keepPreviousData,
    staleTime: AUDIT_LOG_LIMITS.staleMs,
    refetchInterval: AUDIT_LOG_LIMITS.refetchMs,
  });
}
