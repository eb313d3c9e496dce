import { sql } from 'kysely';
import { MSG } from '@strongroom/contracts';
import { requireMemberRole } from '../../shared/access.js';
import { appendAudit } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { tooManyRequests } from '../../shared/errors.js';
import type { Executor } from '../../platform/db/database.js';
import type { AuthContext } from '../sessions/sessions.service.js';
import { auditActor } from '../users/users.service.js';

/** Reports one user may file per window: enough for a client's own events, too few to flood the audit log. */
export const REPORT_LIMIT = { perWindow: 20, windowSeconds: 60 } as const;

type Report = { action: string; targetId?: string; details?: Record<string, unknown> };

/**
 * Takes one report from the user's allowance in a single statement: the counter row is created or bumped (a new
 * window starts once the old one is over) and read back under its row lock, so concurrent reports each see a
 * distinct count and no more than the limit get through. Answers 429 with the seconds left in the window.
 */
async function reserveReport(db: Executor, userId: number): Promise<void> {
  const window = REPORT_LIMIT.windowSeconds;
  const row = await db
    .insertInto('authThrottle')
    .values({ key: `client-report:${userId}`, failures: 1, windowStartedAt: sql<Date>`now()`, lockedUntil: null })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql<number>`case when auth_throttle.window_started_at <= now() - make_interval(secs => ${window}) then 1 else auth_throttle.failures + 1 end`,
        windowStartedAt: sql<Date>`case when auth_throttle.window_started_at <= now() - make_interval(secs => ${window}) then now() else auth_throttle.window_started_at end`,
      }),
    )
    .returning(['failures', sql<number>`greatest(1, ceil(extract(epoch from window_started_at + make_interval(secs => ${window}) - now())))::int`.as('retryAfter')])
    .executeTakeFirstOrThrow();
  if (row.failures > REPORT_LIMIT.perWindow) throw tooManyRequests(MSG.tooManyRequests, Number(row.retryAfter));
}

/**
 * Security events and forensic notes reported by the client go to the audit log, marked as reported by the client
 * so that nobody mistakes them for events the server witnessed. Only members (admins and users) past the MFA setup
 * wall may report; each report is bounded by the contract (details 16 KB, 8 levels) and by REPORT_LIMIT.
 */
export async function logClientEvent(ctx: AppContext, auth: AuthContext, kind: 'security_event' | 'forensic_log', input: Report, meta: RequestMeta) {
  requireMemberRole(auth.user);
  await reserveReport(ctx.db, auth.user.id);
  const action = kind === 'forensic_log' ? input.action.trim().toUpperCase().replace(/[^A-Z0-9_]+/g, '_').slice(0, 100) : input.action;
  const entry = await ctx.db.transaction().execute((trx) =>
    appendAudit(trx, {
      organizationId: auth.user.organizationId,
      actor: auditActor(auth.user),
      action: kind === 'forensic_log' ? `FORENSIC_${action}` : action,
      targetTable: kind,
      targetId: input.targetId ?? null,
      details: { ...(input.details ?? {}), reportedBy: 'client', ...(meta.userAgent ? { userAgent: meta.userAgent } : {}) },
      ipAddress: meta.ip,
    }),
  );
  return { success: true as const, id: entry.id };
}
