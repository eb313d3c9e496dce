import { useMutation } from '@tanstack/react-query';
import { MSG, type LoginRequest, type LoginResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/auth/login_with_password: the password step; sets the pending sign-in cookie. */
export function loginWithPassword(body: LoginRequest): Promise<LoginResponse> {
  return apiRequest<LoginResponse>('/_api/auth/login_with_password', { body, mfaRetry: false, fallbackMessage: MSG.loginFailed });
}

export function useLoginWithPassword() {
  return useMutation({ mutationFn: loginWithPassword, meta: { handlesError: true } });
}
