import type { VerifySystemMfaRequest, VerifySystemMfaResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/auth/verifySystemMfa: trades a code for a 30-minute system MFA token. */
export function verifySystemMfa(body: VerifySystemMfaRequest): Promise<VerifySystemMfaResponse> {
  return apiRequest<VerifySystemMfaResponse>('/_api/auth/verifySystemMfa', { body, mfaRetry: false });
}
