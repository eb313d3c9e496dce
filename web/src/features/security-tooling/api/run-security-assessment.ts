import type { SecurityAssessmentRequest, SecurityAssessmentResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/security/security-assessment: combines scans into one risk level. */
export function runSecurityAssessment(body: SecurityAssessmentRequest): Promise<SecurityAssessmentResponse> {
  return apiRequest<SecurityAssessmentResponse>('/_api/security/security-assessment', { body });
}
