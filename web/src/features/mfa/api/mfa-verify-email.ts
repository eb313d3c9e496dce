import { useMutation } from '@tanstack/react-query';
import { MSG, type MfaVerifyResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import type { MfaVerifyVariables } from './mfa-verify-totp';

/** POST /_api/auth/mfa-verify-email: an emailed code; success signs the user in. */
export function verifyEmailCode(body: MfaVerifyVariables): Promise<MfaVerifyResponse> {
  return apiRequest<MfaVerifyResponse>('/_api/auth/mfa-verify-email', { body, mfaRetry: false, fallbackMessage: MSG.verificationFailed });
}

export function useVerifyEmailCode() {
  return useMutation({ mutationFn: verifyEmailCode, meta: { handlesError: true } });
}
