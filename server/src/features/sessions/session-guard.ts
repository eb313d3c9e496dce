/**
 * The session guard: the one place where a request's cookie becomes a signed-in user. Routes declare what they
 * need in their config (`config: { auth: 'signed-in' }`); the guard resolves the session before the handler runs
 * and puts it on `request.auth`:
 * - 'signed-in': a live session of an active user who has set up the second factor if the organization asks
 *   for it (the setup wall); the call counts as activity and extends the idle limit;
 * - 'setup-wall-ok': the same, but a user who still has to set up the second factor passes too (the few calls
 *   the setup wall itself needs);
 * - 'session-status': like 'setup-wall-ok', but reading the session is not activity (the client polls it);
 * - 'optional': `request.auth` is the live session if there is one; nothing is refused and nothing extended.
 * No cookie answers 401 UNAUTHENTICATED; a cookie without a live session answers 401 SESSION_NOT_FOUND and
 * clears the cookie; the setup wall answers 403.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MSG } from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { forbidden, unauthenticated } from '../../shared/errors.js';
import { hashToken } from '../../shared/tokens.js';
import { mfaSetupRequired } from '../users/users.service.js';
import { extendSessionIdle, findLiveSession, type AuthContext } from './sessions.repository.js';

type RouteAuth = 'signed-in' | 'setup-wall-ok' | 'session-status' | 'optional';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    auth?: RouteAuth;
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
function resolveSession(ctx: AppContext, token: string): Promise<AuthContext | null> {
  return findLiveSession(ctx.db, hashToken(token), new Date());
}

/** Activity extends the idle limit, never past the absolute one. Written at most every 15 s per session. */
async function touch(ctx: AppContext, auth: AuthContext): Promise<void> {
  if (Date.now() - auth.session.lastSeenAt.getTime() < 15_000) return;
  const idle = new Date(Math.min(Date.now() + ctx.config.session.idleMinutes * 60_000, auth.session.absoluteExpiresAt.getTime()));
  await extendSessionIdle(ctx.db, auth.session.id, idle, new Date());
  auth.session.idleExpiresAt = idle;
  auth.session.lastSeenAt = new Date();
}

async function guard(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, need: RouteAuth): Promise<void> {
  const token = request.cookies[SESSION_COOKIE];
  if (need === 'optional') {
    request.auth = token ? await resolveSession(ctx, token) : null;
    return;
  }
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
  request.auth = auth;
}

/**
 * Installs the guard on the app, before any route is registered: `request.auth` starts out null, and every route
 * whose config names an `auth` need is guarded before its handler (after its input was validated, so a malformed
 * call is a 400 whoever sends it).
 */
export function registerSessionGuard(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('auth', null);
  app.addHook('preHandler', async (request, reply) => {
    const need = request.routeOptions.config.auth;
    if (need) await guard(ctx, request, reply, need);
  });
}

/** The signed-in user of a guarded route. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}
