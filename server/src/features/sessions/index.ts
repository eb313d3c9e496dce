// What other features use of sessions: creating one, the signed-in context, and the guard's HTTP side (cookies,
// `authOf`).
export { createSession, type AuthContext } from './sessions.service.js';
export {
  authOf,
  clearSessionCookie,
  cookieOptions,
  PENDING_COOKIE,
  registerSessionGuard,
  SESSION_COOKIE,
  setSessionCookie,
} from './session-guard.js';
