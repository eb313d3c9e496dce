/**
 * The session side of the access guard (features/access): the one place where a request's cookie becomes a
 * signed-in user. A route's declared `who` decides what is needed:
 * - 'signed-in': a live session of an active user who has set up the second factor if the organization asks
 *   for it (the setup wall); the call counts as activity and extends the idle limit;
 * - 'setup-wall-ok': the same, but a user who still has to set up the second factor passes too (the few calls
 *   the setup wall itself needs);
 * - 'session-status': like 'setup-wall-ok', but reading the session is not activity (the client polls it);
 * - 'optional': the live session if there is one; nothing is refused and nothing extended.
 * No cookie answers 401 UNAUTHENTICATED; a cookie without a live session answers 401 SESSION_NOT_FOUND and
 * clears the cookie; the setup wall answers 403.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { MSG } from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { forbidden, unauthenticated } from '../../shared/errors.js';
import { hashToken } from '../../shared/tokens.js';
import { mfaSetupRequired } from '../users/index.js';
import { extendSessionIdle, findLiveSession, type AuthContext, type SessionContext } from './sessions.repository.js';

export type SessionNeed = 'signed-in' | 'setup-wall-ok' | 'session-status' | 'optional';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

export const SESSION_COOKIE = 'sr_session';
export const PENDING_COOKIE = 'sr_pending';

export function cookieOptions(ctx: AppContext, maxAgeSeconds: number, path = '/') {
  return { path, httpOnly: true, sameSite: 'lax' as const, secure: ctx.config.secureCookies, maxAge: maxAgeSeconds };
}

export function setSessionCookie(ctx: AppContext, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(ctx, ctx.config.session.absoluteHours * 3600));
}

export function clearSessionCookie(ctx: AppContext, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: ctx.config.secureCookies });
}

/** The live session behind a cookie token, with its user and organization, or null. */
function resolveSession(ctx: AppContext, token: string): Promise<SessionContext | null> {
  return findLiveSession(ctx.db, hashToken(token), new Date());
}

/** Activity extends the idle limit, never past the absolute one. Written at most every 15 s per session. */
async function touch(ctx: AppContext, auth: SessionContext): Promise<void> {
  if (Date.now() - auth.session.lastSeenAt.getTime() < 15_000) return;
  const idle = new Date(Math.min(Date.now() + ctx.config.session.idleMinutes * 60_000, auth.session.absoluteExpiresAt.getTime()));
  await extendSessionIdle(ctx.db, auth.session.id, idle, new Date());
  auth.session.idleExpiresAt = idle;
  auth.session.lastSeenAt = new Date();
}

/** The session a route's `need` asks for: null only for 'optional' without a live session; otherwise refused. */
export async function sessionFor(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  need: SessionNeed,
): Promise<SessionContext | null> {
  const token = request.cookies[SESSION_COOKIE];
  if (need === 'optional') return token ? await resolveSession(ctx, token) : null;
  if (!token) throw unauthenticated(MSG.notAuthenticated, 'UNAUTHENTICATED');
  const auth = await resolveSession(ctx, token);
  if (!auth) {
    clearSessionCookie(ctx, reply);
    throw unauthenticated(MSG.sessionNotFound, 'SESSION_NOT_FOUND');
  }
  if (need === 'signed-in' && mfaSetupRequired(auth.user, auth.org)) {
    throw forbidden(MSG.mfaSetupRequired);
  }
  if (need !== 'session-status') await touch(ctx, auth);
  return auth;
}

/** The signed-in user of a guarded route. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}
