import { useMutation } from '@tanstack/react-query';
import { MSG, type MfaVerifyResponse, type MfaVerifyTotpRequest } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/auth/mfa-verify-totp: an authenticator code; success signs the user in. */
function verifyTotp(body: MfaVerifyTotpRequest): Promise<MfaVerifyResponse> {
  return apiRequest<MfaVerifyResponse>('/_api/auth/mfa-verify-totp', { body, mfaRetry: false, fallbackMessage: MSG.totpVerifyFailed });
}

export function useVerifyTotp() {
  return useMutation({ mutationFn: verifyTotp, meta: { handlesError: true } });
}
