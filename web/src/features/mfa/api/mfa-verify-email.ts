import { useMutation } from '@tanstack/react-query';
import { MSG, type MfaVerifyEmailRequest, type MfaVerifyResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/auth/mfa-verify-email: an emailed code; success signs the user in. */
function verifyEmailCode(body: MfaVerifyEmailRequest): Promise<MfaVerifyResponse> {
  return apiRequest<MfaVerifyResponse>('/_api/auth/mfa-verify-email', { body, mfaRetry: false, fallbackMessage: MSG.verificationFailed });
}

export function useVerifyEmailCode() {
  return useMutation({ mutationFn: verifyEmailCode, meta: { handlesError: true } });
}
