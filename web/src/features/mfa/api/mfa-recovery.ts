import { useMutation } from '@tanstack/react-query';
import { SETTINGS_MSG, type MfaRecoveryRequest, type MfaRecoveryResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/auth/mfa-recovery: a one-time recovery code instead of the authenticator's code; success signs the user in. */
function verifyRecoveryCode(body: MfaRecoveryRequest): Promise<MfaRecoveryResponse> {
  return apiRequest<MfaRecoveryResponse>('/_api/auth/mfa-recovery', {
    body,
    mfaRetry: false,
    fallbackMessage: SETTINGS_MSG.recoveryCodeInvalid,
  });
}

export function useVerifyRecoveryCode() {
  return useMutation({ mutationFn: verifyRecoveryCode, meta: { handlesError: true } });
}
