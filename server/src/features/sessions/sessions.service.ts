import type { FastifyReply, FastifyRequest } from 'fastify';
import { MSG } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import type { AppContext } from '../../shared/context.js';
import { AppError, unauthenticated } from '../../shared/errors.js';
import { hashToken, newToken } from '../../shared/tokens.js';
import type { OrganizationRow, UserRow } from '../users/users.repository.js';
import { mfaSetupRequired } from '../users/users.service.js';

export const SESSION_COOKIE = 'sr_session';
export const PENDING_COOKIE = 'sr_pending';

export type SessionRow = {
  id: string;
  userId: number;
  organizationId: string;
  idleExpiresAt: Date;
  absoluteExpiresAt: Date;
  lastSeenAt: Date;
};

export type AuthContext = { session: SessionRow; user: UserRow; org: OrganizationRow };

declare module 'fastify' {
  interface FastifyRequest {
    auth?: AuthContext;
  }
}

export function cookieOptions(ctx: AppContext, maxAgeSeconds: number, path = '/') {
  return { path, httpOnly: true, sameSite: 'lax' as const, secure: ctx.config.secureCookies, maxAge: maxAgeSeconds };
}

/** A new session for a user who passed both factors. The token goes to the cookie; only its hash is kept. */
export async function createSession(
  ctx: AppContext,
  trx: Executor,
  user: UserRow,
  meta: { ip: string; userAgent: string | null },
): Promise<{ token: string; session: SessionRow }> {
  const token = newToken();
  const now = Date.now();
  const absolute = new Date(now + ctx.config.session.absoluteHours * 3600_000);
  const idle = new Date(Math.min(now + ctx.config.session.idleMinutes * 60_000, absolute.getTime()));
  const session = await trx
    .insertInto('sessions')
    .values({
      tokenHash: hashToken(token),
      userId: user.id,
      organizationId: user.organizationId,
      idleExpiresAt: idle,
      absoluteExpiresAt: absolute,
      revokedAt: null,
      revokedReason: null,
      ipAddress: meta.ip,
      userAgent: meta.userAgent?.slice(0, 500) ?? null,
    })
    .returning(['id', 'userId', 'organizationId', 'idleExpiresAt', 'absoluteExpiresAt', 'lastSeenAt'])
    .executeTakeFirstOrThrow();
  return { token, session };
}

export function setSessionCookie(ctx: AppContext, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(ctx, ctx.config.session.absoluteHours * 3600));
}

export function clearSessionCookie(ctx: AppContext, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: ctx.config.secureCookies });
}

/** Ends every live session of a user (password change or reset, deactivation). */
export async function revokeUserSessions(trx: Executor, userId: number, reason: string, exceptSessionId?: string): Promise<number> {
  let q = trx.updateTable('sessions').set({ revokedAt: new Date(), revokedReason: reason }).where('userId', '=', userId).where('revokedAt', 'is', null);
  if (exceptSessionId) q = q.where('id', '!=', exceptSessionId);
  const res = await q.executeTakeFirst();
  return Number(res.numUpdatedRows);
}

export async function revokeSession(trx: Executor, sessionId: string, reason: string): Promise<void> {
  await trx.updateTable('sessions').set({ revokedAt: new Date(), revokedReason: reason }).where('id', '=', sessionId).where('revokedAt', 'is', null).execute();
}

/** The live session behind a cookie token, with its user and organization, or null. */
export async function resolveSession(ctx: AppContext, token: string): Promise<AuthContext | null> {
  const now = new Date();
  // One query for the session, its user and the organization: this runs on every authenticated call.
  const row = await ctx.db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.userId')
    .innerJoin('organizations', 'organizations.id', 'users.organizationId')
    .selectAll('users')
    .select([
      'sessions.id as sessionId',
      'sessions.idleExpiresAt',
      'sessions.absoluteExpiresAt',
      'sessions.lastSeenAt',
      'sessions.organizationId as sessionOrganizationId',
      'organizations.name as orgName',
      'organizations.primaryContactName as orgPrimaryContactName',
      'organizations.primaryContactEmail as orgPrimaryContactEmail',
      'organizations.primaryContactPhone as orgPrimaryContactPhone',
      'organizations.mfaRequired as orgMfaRequired',
      'organizations.defaultRetentionYears as orgDefaultRetentionYears',
      'organizations.createdAt as orgCreatedAt',
      'organizations.updatedAt as orgUpdatedAt',
    ])
    .where('sessions.tokenHash', '=', hashToken(token))
    .where('sessions.revokedAt', 'is', null)
    .where('sessions.idleExpiresAt', '>', now)
    .where('sessions.absoluteExpiresAt', '>', now)
    .where('users.isActive', '=', true)
    .executeTakeFirst();
  if (!row) return null;
  const {
    sessionId, idleExpiresAt, absoluteExpiresAt, lastSeenAt, sessionOrganizationId,
    orgName, orgPrimaryContactName, orgPrimaryContactEmail, orgPrimaryContactPhone, orgMfaRequired,
    orgDefaultRetentionYears, orgCreatedAt, orgUpdatedAt, ...user
  } = row;
  // A user moved between organizations would keep no session from the old one.
  if (sessionOrganizationId !== user.organizationId) return null;
  const org: OrganizationRow = {
    id: user.organizationId,
    name: orgName,
    primaryContactName: orgPrimaryContactName,
    primaryContactEmail: orgPrimaryContactEmail,
    primaryContactPhone: orgPrimaryContactPhone,
    mfaRequired: orgMfaRequired,
    defaultRetentionYears: orgDefaultRetentionYears,
    createdAt: orgCreatedAt,
    updatedAt: orgUpdatedAt,
  };
  return {
    session: { id: sessionId, userId: user.id, organizationId: user.organizationId, idleExpiresAt, absoluteExpiresAt, lastSeenAt },
    user,
    org,
  };
}

/** Activity extends the idle limit, never past the absolute one. Written at most every 15 s per session. */
async function touch(ctx: AppContext, auth: AuthContext): Promise<void> {
  if (Date.now() - auth.session.lastSeenAt.getTime() < 15_000) return;
  const idle = new Date(Math.min(Date.now() + ctx.config.session.idleMinutes * 60_000, auth.session.absoluteExpiresAt.getTime()));
  await ctx.db.updateTable('sessions').set({ idleExpiresAt: idle, lastSeenAt: new Date() }).where('id', '=', auth.session.id).execute();
  auth.session.idleExpiresAt = idle;
  auth.session.lastSeenAt = new Date();
}

export function sessionExpiresAt(s: SessionRow): Date {
  return s.idleExpiresAt < s.absoluteExpiresAt ? s.idleExpiresAt : s.absoluteExpiresAt;
}

/**
 * The session guard. `allowMfaSetup` lets a user who still has to set up MFA reach the few calls the setup
 * wall needs; everything else waits until the second factor is enrolled.
 */
export function requireSession(ctx: AppContext, opts: { allowMfaSetup?: boolean; extendIdle?: boolean } = {}) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const token = request.cookies[SESSION_COOKIE];
    if (!token) throw unauthenticated(MSG.notAuthenticated, 'UNAUTHENTICATED');
    const auth = await resolveSession(ctx, token);
    if (!auth) {
      clearSessionCookie(ctx, reply);
      throw unauthenticated(MSG.sessionNotFound, 'SESSION_NOT_FOUND');
    }
    if (!opts.allowMfaSetup && mfaSetupRequired(auth.user, auth.org)) {
      throw new AppError(403, 'Set up multi-factor authentication to continue.', 'PERMISSION_ERROR');
    }
    if (opts.extendIdle !== false) await touch(ctx, auth);
    request.auth = auth;
  };
}

/** The authenticated context of a guarded route. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}
