import { useMutation } from '@tanstack/react-query';
import { MSG, type MessageResponse, type PasswordResetRequest } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/auth/password-reset: emails a reset link if the address has an account (same answer either way). */
function requestPasswordReset(email: string): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('/_api/auth/password-reset', {
    body: { email } satisfies PasswordResetRequest,
    mfaRetry: false,
    fallbackMessage: MSG.resetRequestFailed,
  });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset, meta: { handlesError: true } });
}
