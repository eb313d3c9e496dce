import { useMutation } from '@tanstack/react-query';
import { MSG, type MfaEmailRequest, type MfaEmailResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/auth/mfa-email with the signed-in user's id: an emailed code that proves the current (email) method. */
function sendEmailCode(userId: number): Promise<MfaEmailResponse> {
  return apiRequest<MfaEmailResponse>('/_api/auth/mfa-email', {
    body: { userId } satisfies MfaEmailRequest,
    mfaRetry: false,
    fallbackMessage: MSG.emailSendFailed,
  });
}

export function useSendEmailCode() {
  return useMutation({ mutationFn: sendEmailCode, meta: { handlesError: true } });
}
