import { useMutation } from '@tanstack/react-query';
import { MSG, type MfaEmailRequest, type MfaEmailResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/**
 * POST /_api/auth/mfa-email: emails a code. During sign-in it is the sign-in code; with a session (userId =
 * the session's user) it is a code for a sensitive action or the system MFA prompt.
 */
function sendMfaEmail(userId: number): Promise<MfaEmailResponse> {
  return apiRequest<MfaEmailResponse>('/_api/auth/mfa-email', {
    body: { userId } satisfies MfaEmailRequest,
    mfaRetry: false,
    fallbackMessage: MSG.emailSendFailed,
  });
}

export function useSendMfaEmail() {
  return useMutation({ mutationFn: sendMfaEmail, meta: { handlesError: true } });
}
