// What other features use of sessions; the repository stays private to this feature.

// Creating a session and the signed-in context every service takes (auth, every feature's services).
export { createSession, type AuthContext, type SessionContext } from './sessions.service.js';
// Ending sessions and their lifetime: sign-out, a password change or reset, a member deactivated (auth, team),
// Require SSO switched on (sso).
export { revokeMembersPasswordSessions, revokeSession, revokeUserSessions, sessionExpiresAt } from './sessions.service.js';
// The guard's HTTP side: cookies, the session a request carries, `authOf` (every feature's routes, the access guard).
export {
  authOf,
  clearSessionCookie,
  cookieOptions,
  PENDING_COOKIE,
  SESSION_COOKIE,
  sessionFor,
  setSessionCookie,
} from './session-guard.js';
