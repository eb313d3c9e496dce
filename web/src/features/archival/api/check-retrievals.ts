import type { CheckRetrievalsResponse } from '@strongroom/contracts';
import { ARCHIVAL_MSG } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/audit-logs/check-retrievals: which of the given retrievals have finished (cached) or failed. */
export function checkRetrievals(organizationId: string, logIds: string[]): Promise<CheckRetrievalsResponse> {
  return apiRequest<CheckRetrievalsResponse>('/_api/audit-logs/check-retrievals', {
    body: { organizationId, logIds },
    fallbackMessage: ARCHIVAL_MSG.checkFailedPlain,
  });
}
