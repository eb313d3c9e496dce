import { useMutation } from '@tanstack/react-query';
import { MSG, type MessageResponse, type PasswordResetVerifyRequest } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/auth/password-reset-verify: sets the new password with the emailed token. */
function verifyPasswordReset(body: PasswordResetVerifyRequest): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('/_api/auth/password-reset-verify', { body, mfaRetry: false, fallbackMessage: MSG.resetFailed });
}

export function useVerifyPasswordReset() {
  return useMutation({ mutationFn: verifyPasswordReset, meta: { handlesError: true } });
}
