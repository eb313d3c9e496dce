import type { IntegrityCheckResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/security/integrity-check: verifies the organization's whole audit chain. */
export function runIntegrityCheck(): Promise<IntegrityCheckResponse> {
  return apiRequest<IntegrityCheckResponse>('/_api/security/integrity-check', { body: {}, timeoutMs: 120_000 });
}
