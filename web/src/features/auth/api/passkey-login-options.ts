import type { PasskeyLoginOptionsRequest, PasskeyOptionsResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/auth/passkey-login-options: a challenge naming no one (the browser offers its passkeys). */
export function passkeyLoginOptions(): Promise<PasskeyOptionsResponse> {
  return apiRequest<PasskeyOptionsResponse>('/_api/auth/passkey-login-options', {
    body: {} satisfies PasskeyLoginOptionsRequest,
    mfaRetry: false,
  });
}
