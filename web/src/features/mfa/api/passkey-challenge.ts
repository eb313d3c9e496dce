import type { PasskeyChallengeRequest, PasskeyOptionsResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/auth/passkey-challenge: the options of a pending sign-in's passkey step. */
export function passkeyChallenge(body: PasskeyChallengeRequest): Promise<PasskeyOptionsResponse> {
  return apiRequest<PasskeyOptionsResponse>('/_api/auth/passkey-challenge', { body, mfaRetry: false });
}
