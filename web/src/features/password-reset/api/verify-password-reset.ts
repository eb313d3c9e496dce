import { useMutation } from '@tanstack/react-query';
import { MSG } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/auth/password-reset-verify: sets the new password with the emailed token. */
export function verifyPasswordReset(body: { token: string; newPassword: string }): Promise<{ success: boolean; message: string }> {
  return apiRequest('/_api/auth/password-reset-verify', { body, mfaRetry: false, fallbackMessage: MSG.resetFailed });
}

export function useVerifyPasswordReset() {
  return useMutation({ mutationFn: verifyPasswordReset, meta: { handlesError: true } });
}
