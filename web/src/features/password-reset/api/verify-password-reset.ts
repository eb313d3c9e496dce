import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/auth/password-reset-verify: sets the new password with the emailed token. */
export function verifyPasswordReset(body: { token: string; newPassword: string }): Promise<{ success: boolean; message: string }> {
  return apiRequest('/_api/auth/password-reset-verify', { body, mfaRetry: false });
}

export function useVerifyPasswordReset() {
  return useMutation({ mutationFn: verifyPasswordReset, meta: { handlesError: true } });
}
