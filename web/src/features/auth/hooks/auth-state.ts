import { MSG, type SessionUser } from '@strongroom/contracts';
import { isApiError } from '@/lib/api-error';
import type { SessionData, SessionTimes } from '../api/get-session';
import { sessionErrorMessage } from '../session-errors';

/**
 * Why nobody is signed in:
 * - signed-out: no session (never signed in, logged out, or it expired);
 * - invalid-account: the session's user lacks a profile or an organization (back to /login with the message);
 * - version-mismatch: this client is too old or too new for the server (refresh needed);
 * - unavailable: the session could not be checked (network, timeout, server error): retry.
 */
type UnauthenticatedReason = 'signed-out' | 'invalid-account' | 'version-mismatch' | 'unavailable';

export type AuthState =
  | { status: 'loading' }
  | { status: 'unauthenticated'; reason: UnauthenticatedReason; message?: string }
  | { status: 'authenticated'; user: SessionUser; session: SessionTimes | null };

type SessionQueryView = {
  isPending: boolean;
  data: SessionData | undefined;
  error: unknown;
};

/** Loading, then unauthenticated (with an optional message) or authenticated. */
export function deriveAuthState(query: SessionQueryView): AuthState {
  const { error, data } = query;
  if (error && isApiError(error)) {
    switch (error.code) {
      case 'SESSION_NOT_FOUND':
      case 'UNAUTHENTICATED':
        return { status: 'unauthenticated', reason: 'signed-out', message: sessionErrorMessage(error) };
      case 'INVALID_PROFILE':
      case 'ORGANIZATION_MISSING':
        return { status: 'unauthenticated', reason: 'invalid-account', message: sessionErrorMessage(error) };
      case 'API_VERSION_MISMATCH':
        return { status: 'unauthenticated', reason: 'version-mismatch', message: sessionErrorMessage(error) };
      default:
        if (error.status === 401 || error.status === 403) {
          return { status: 'unauthenticated', reason: 'signed-out', message: sessionErrorMessage(error) };
        }
    }
  }
  // A failed refetch (network blip) keeps the last known session rather than signing the user out.
  if (data) {
    const { user } = data;
    if (!user.organizationId || !user.profileId) {
      return {
        status: 'unauthenticated',
        reason: 'invalid-account',
        message: !user.profileId ? MSG.invalidProfile : MSG.organizationMissing,
      };
    }
    return { status: 'authenticated', user, session: data.session };
  }
  if (data === null) return { status: 'unauthenticated', reason: 'signed-out' };
  if (error) return { status: 'unauthenticated', reason: 'unavailable', message: sessionErrorMessage(error) };
  return { status: 'loading' };
}
