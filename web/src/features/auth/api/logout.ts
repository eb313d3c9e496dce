import type { LogoutResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/auth/logout: ends the session and clears its cookie. */
export function logout(): Promise<LogoutResponse> {
  return apiRequest<LogoutResponse>('/_api/auth/logout', { method: 'POST', body: {}, mfaRetry: false });
}
