import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { AUDIT_LOG_LIMITS, AUDIT_LOG_MSG, type AuditLogListResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { auditQueryString, type AuditFilters, type AuditSort } from '../lib/audit-filters';

export const auditLogsQueryKey = ['audit-logs'] as const;

/** GET /_api/audit-logs/list: one page (50 rows) of the organization's log the caller may see. */
function getAuditLogs(filters: AuditFilters, sort: AuditSort, page: number, signal?: AbortSignal): Promise<AuditLogListResponse> {
  const qs = auditQueryString(filters, sort, { page, limit: AUDIT_LOG_LIMITS.pageSizeDefault });
  return apiRequest<AuditLogListResponse>(`/_api/audit-logs/list?${qs}`, { signal, fallbackMessage: AUDIT_LOG_MSG.fetchFailed });
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
