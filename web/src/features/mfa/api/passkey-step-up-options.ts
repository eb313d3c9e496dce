import type { PasskeyOptionsResponse, PasskeyStepUpOptionsRequest } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/auth/passkey-step-up-options: a challenge bound to this session and operation. */
export function passkeyStepUpOptions(body: PasskeyStepUpOptionsRequest): Promise<PasskeyOptionsResponse> {
  return apiRequest<PasskeyOptionsResponse>('/_api/auth/passkey-step-up-options', { body, mfaRetry: false });
}
