import type { ComplianceReport } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/security/compliance-check: the organization against its active policies and real facts. */
export function runComplianceCheck(): Promise<ComplianceReport> {
  return apiRequest<ComplianceReport>('/_api/security/compliance-check', { body: {}, timeoutMs: 120_000 });
}
