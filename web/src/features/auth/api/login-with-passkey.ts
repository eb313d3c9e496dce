import { useMutation } from '@tanstack/react-query';
import { PASSKEY_MSG, type LoginWithPasskeyRequest, type MfaVerifyResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { assertPasskey } from '@/lib/webauthn';
import { passkeyLoginOptions } from './passkey-login-options';

/** POST /_api/auth/login_with_passkey: a discoverable passkey alone, where the organization allows it. */
function loginWithPasskey(body: LoginWithPasskeyRequest): Promise<MfaVerifyResponse> {
  return apiRequest<MfaVerifyResponse>('/_api/auth/login_with_passkey', {
    body,
    mfaRetry: false,
    fallbackMessage: PASSKEY_MSG.verificationFailed,
  });
}

export function useLoginWithPasskey() {
  return useMutation({
    mutationFn: async () => loginWithPasskey({ response: await assertPasskey(await passkeyLoginOptions()) }),
    meta: { handlesError: true },
  });
}
