import { apiRequest } from '@/lib/api-client';

/** POST /_api/auth/logout: ends the session and clears its cookie. */
export function logout(): Promise<{ success: boolean }> {
  return apiRequest<{ success: boolean }>('/_api/auth/logout', { method: 'POST', body: {}, mfaRetry: false });
}
