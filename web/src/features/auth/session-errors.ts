import type { QueryClient } from '@tanstack/react-query';
import { toast } from '@/lib/toast';
import { API_VERSION, compareApiVersions, LIMITS, MSG } from '@strongroom/contracts';
import { isApiError } from '@/lib/api-error';
import { sessionQueryKey, setSessionData, type SessionData } from './api/get-session';

/** The text for a failed session call. */
export function sessionErrorMessage(error: unknown): string {
  if (!isApiError(error)) return MSG.authFailed;
  switch (error.code) {
    case 'SESSION_NOT_FOUND':
      return MSG.sessionNotFound;
    case 'UNAUTHENTICATED':
      return MSG.notAuthenticated;
    case 'INVALID_PROFILE':
      return MSG.invalidProfile;
    case 'ORGANIZATION_MISSING':
      return MSG.organizationMissing;
    case 'API_VERSION_MISMATCH':
      return MSG.apiVersionMismatch;
    case 'NETWORK_ERROR':
      return MSG.networkError;
    case 'TIMEOUT':
      return MSG.authTimeout;
    default:
      return MSG.authFailed;
  }
}

const VERSION_CRITICAL_TOAST_ID = 'version-critical';
export const SESSION_EXPIRED_TOAST_ID = 'session-expired';

/** Removes every cached answer except the session's own (its state drives the redirect to /login). */
function clearCachedData(queryClient: QueryClient): void {
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionQueryKey[0] });
}

/** Forgets the session: the protected gate then sends the visitor to /login. */
export function clearSession(queryClient: QueryClient): void {
  clearCachedData(queryClient);
  setSessionData(queryClient, null);
}

function showVersionCritical(): void {
  toast.error(MSG.versionCritical, {
    id: VERSION_CRITICAL_TOAST_ID,
    duration: Number.POSITIVE_INFINITY,
    closeButton: false,
    action: { label: 'Refresh', onClick: () => window.location.reload() },
  });
}

/** The effects of a failed session call. */
export function handleSessionError(error: unknown, queryClient: QueryClient): void {
  if (!isApiError(error)) return;
  switch (error.code) {
    case 'SESSION_NOT_FOUND':
      toast.error(MSG.sessionExpiredToast, { id: SESSION_EXPIRED_TOAST_ID });
      clearSession(queryClient);
      return;
    case 'API_VERSION_MISMATCH':
      clearCachedData(queryClient);
      showVersionCritical();
      return;
    default:
      // INVALID_PROFILE and ORGANIZATION_MISSING: the error stays on the query and the gate redirects to
      // /login with its message. Network errors and timeouts: the gate offers a retry.
      return;
  }
}

let deprecatedWarned = false;

/** A successful session answer may still say the client is outdated. */
export function handleSessionSuccess(data: SessionData): void {
  if (!data?.apiVersion) return;
  const status =
    data.apiVersion.status !== 'unknown' ? data.apiVersion.status : compareApiVersions(API_VERSION, data.apiVersion.server).status;
  if (status === 'deprecated' && !deprecatedWarned) {
    deprecatedWarned = true;
    toast.warning(MSG.versionDeprecated, { id: 'version-deprecated', duration: LIMITS.versionWarningMs });
  }
  if (status === 'mismatch' || status === 'unsupported') showVersionCritical();
}
