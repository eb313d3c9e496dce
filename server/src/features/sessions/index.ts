// What other features use of sessions: the service (create, revoke, expiry) and the guard's HTTP side (cookies,
// `authOf`, route auth needs).
export { createSession, revokeSession, revokeUserSessions, sessionExpiresAt, type AuthContext, type SessionRow } from './sessions.service.js';
export {
  authOf,
  clearSessionCookie,
  cookieOptions,
  PENDING_COOKIE,
  registerSessionGuard,
  SESSION_COOKIE,
  setSessionCookie,
  type RouteAuth,
} from './session-guard.js';
