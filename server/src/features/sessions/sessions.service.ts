import type { Executor } from '../../platform/db/database.js';
import type { SessionVia } from '../../platform/db/schema.js';
import type { AppContext } from '../../shared/context.js';
import { hashToken, newToken } from '../../shared/tokens.js';
import type { UserRow } from '../users/index.js';
import * as sessions from './sessions.repository.js';
import type { SessionRow } from './sessions.repository.js';

export type { AuthContext, SessionContext, SessionRow } from './sessions.repository.js';

/** A new session for a user who passed both factors. The token goes to the cookie; only its hash is kept. */
export async function createSession(
  ctx: AppContext,
  trx: Executor,
  user: UserRow,
  meta: { ip: string; userAgent: string | null },
  via: SessionVia = 'password',
): Promise<{ token: string; session: SessionRow }> {
  const token = newToken();
  const now = Date.now();
  const absolute = new Date(now + ctx.config.session.absoluteHours * 3600_000);
  const idle = new Date(Math.min(now + ctx.config.session.idleMinutes * 60_000, absolute.getTime()));
  const session = await sessions.insertSession(trx, {
    tokenHash: hashToken(token),
    userId: user.id,
    organizationId: user.organizationId,
    idleExpiresAt: idle,
    absoluteExpiresAt: absolute,
    ipAddress: meta.ip,
    userAgent: meta.userAgent?.slice(0, 500) ?? null,
    via,
  });
  return { token, session };
}

/**
 * Ends the live sessions that members (not administrators) of an organization opened with their password, when
 * the organization switches Require SSO on: from then on they come back through the provider. Answers how many.
 */
export function revokeMembersPasswordSessions(trx: Executor, organizationId: string, reason: string): Promise<number> {
  return sessions.revokeMembersPasswordSessions(trx, organizationId, reason);
}

/** Ends every live session of a user (password change or reset, deactivation); answers how many. */
export function revokeUserSessions(trx: Executor, userId: number, reason: string, exceptSessionId?: string): Promise<number> {
  return sessions.revokeUserSessions(trx, userId, reason, exceptSessionId);
}

export function revokeSession(trx: Executor, sessionId: string, reason: string): Promise<void> {
  return sessions.revokeSession(trx, sessionId, reason);
}

export function sessionExpiresAt(s: SessionRow): Date {
  return s.idleExpiresAt < s.absoluteExpiresAt ? s.idleExpiresAt : s.absoluteExpiresAt;
}
