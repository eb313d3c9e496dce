import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { API_VERSION, LIMITS, MSG, type SessionResponse, type SessionUser } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import type { WithDates } from '@/lib/dates';
import { ApiError, isApiError } from '@/lib/api-error';

export const sessionQueryKey = ['session'] as const;

/**
 * What the client knows of the session. null: nobody is signed in. `session` and `apiVersion` are null for a
 * moment after sign-in, when the verify answer gave only the user and the full session is being fetched.
 */
/** The session's times as the client holds them: its end dates are dates. */
export type SessionTimes = WithDates<SessionResponse>['session'];

export type SessionData = {
  user: SessionUser;
  session: SessionTimes | null;
  apiVersion: SessionResponse['apiVersion'] | null;
} | null;

/** Session errors that retrying cannot fix (a 401, an invalid profile, a missing organization, another API version). */
const NON_RETRYABLE_SESSION_CODES = [
  'SESSION_NOT_FOUND',
  'UNAUTHENTICATED',
  'INVALID_PROFILE',
  'ORGANIZATION_MISSING',
  'API_VERSION_MISMATCH',
] as const;

const MAX_SESSION_RETRIES = 2;

export function shouldRetrySession(failureCount: number, error: unknown): boolean {
  if (isApiError(error)) {
    if (error.status === 401 || error.status === 403) return false;
    if (error.code && (NON_RETRYABLE_SESSION_CODES as readonly string[]).includes(error.code)) return false;
  }
  return failureCount < MAX_SESSION_RETRIES;
}

/** GET /_api/auth/session with the API version header. No cookie at all (UNAUTHENTICATED) answers null. */
async function getSession(signal?: AbortSignal): Promise<SessionData> {
  try {
    return await apiRequest<SessionResponse>('/_api/auth/session', {
      headers: { 'X-API-Version': API_VERSION },
      signal,
      timeoutMessage: MSG.authTimeout,
      mfaRetry: false,
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401 && (error.code === 'UNAUTHENTICATED' || error.code === undefined)) {
      return null;
    }
    throw error;
  }
}

export function sessionQueryOptions() {
  return queryOptions({
    queryKey: sessionQueryKey,
    queryFn: ({ signal }) => getSession(signal),
    staleTime: LIMITS.sessionStaleMs,
    gcTime: LIMITS.sessionGcMs,
    retry: shouldRetrySession,
    // Always on focus, not only when stale, so the session-expiry countdown works from a real expiresAt.
    refetchOnWindowFocus: 'always',
    refetchOnReconnect: true,
  });
}

export function useSession() {
  return useQuery(sessionQueryOptions());
}

/** Replaces the cached session (null: signed out). */
export function setSessionData(queryClient: QueryClient, data: SessionData): void {
  queryClient.setQueryData(sessionQueryOptions().queryKey, data);
}
