import { useMutation } from '@tanstack/react-query';
import { PASSKEY_MSG, type MfaVerifyPasskeyRequest, type MfaVerifyResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { assertPasskey } from '@/lib/webauthn';
import { passkeyChallenge } from './passkey-challenge';

/** POST /_api/auth/mfa-verify-passkey: a passkey's assertion completes the pending sign-in. */
function verifyPasskey(body: MfaVerifyPasskeyRequest): Promise<MfaVerifyResponse> {
  return apiRequest<MfaVerifyResponse>('/_api/auth/mfa-verify-passkey', {
    body,
    mfaRetry: false,
    fallbackMessage: PASSKEY_MSG.verificationFailed,
  });
}

/** The passkey as the second factor: the options, the browser's prompt, then the answer. */
export function useVerifyPasskey() {
  return useMutation({
    mutationFn: async (userId: number) => verifyPasskey({ userId, response: await assertPasskey(await passkeyChallenge({ userId })) }),
    meta: { handlesError: true },
  });
}
