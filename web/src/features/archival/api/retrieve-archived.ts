import type { RetrieveArchivedResponse } from '@strongroom/contracts';
import { ARCHIVAL_MSG } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/**
 * POST /_api/audit-logs/retrieve-archived: starts reading an archived entry back from cold storage, or answers
 * its cached details (kept 24 h) when they are there.
 */
export function retrieveArchived(logId: string, organizationId: string): Promise<RetrieveArchivedResponse> {
  return apiRequest<RetrieveArchivedResponse>('/_api/audit-logs/retrieve-archived', {
    body: { logId, organizationId },
    fallbackMessage: ARCHIVAL_MSG.retrieveFailed,
  });
}
