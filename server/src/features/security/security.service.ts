import { clientReportAction, MSG } from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { tooManyRequests } from '../../shared/errors.js';
import type { Executor } from '../../platform/db/database.js';
import type { AuthContext } from '../sessions/index.js';
import { countReport } from './security.repository.js';
import { countThrottleRefusal } from '../../platform/metrics.js';

/** Reports one user may file per window: enough for a client's own events, too few to flood the audit log. */
export const REPORT_LIMIT = { perWindow: 20, windowSeconds: 60 } as const;

type Report = { action: string; targetId?: string; details?: Record<string, unknown> };

/**
 * Takes one report from the user's allowance: concurrent reports each see a distinct count, so no more than the
 * limit get through. Answers 429 with the seconds left in the window.
 */
async function reserveReport(db: Executor, userId: number): Promise<void> {
  const { count, retryAfter } = await countReport(db, userId, REPORT_LIMIT.windowSeconds);
  if (count > REPORT_LIMIT.perWindow) {
    countThrottleRefusal('client-reports');
    throw tooManyRequests(MSG.tooManyRequests, retryAfter);
  }
}

/**
 * Security events and forensic notes reported by the client go to the audit log as claims, never as events the
 * server witnessed: whatever name the browser sends, the entry's action is CLIENT_REPORTED_<NAME> (category Client
 * Reports), so a report named INTEGRITY_CHECK_PASSED or VAULT_MATTER is not found under the server's own action
 * and cannot pass for it. The name as sent is kept in details.reportedAction, beside reportedBy 'client', which
 * the report's own details cannot overwrite. Only members (admins and users) past the MFA setup wall may report;
 * each report is bounded by the contract (details 16 KB, 8 levels) and by REPORT_LIMIT.
 */
export async function logClientEvent(
  ctx: AppContext,
  auth: AuthContext,
  kind: 'security_event' | 'forensic_log',
  input: Report,
  meta: RequestMeta,
) {
  await reserveReport(ctx.db, auth.user.id);
  // A forensic note's name is free text: upper-cased, anything but letters, digits and underscores made '_'.
  const name =
    kind === 'forensic_log'
      ? input.action
          .trim()
          .toUpperCase()
          .replace(/[^A-Z0-9_]+/g, '_')
          .slice(0, 100)
      : input.action;
  const entry = await ctx.db.transaction().execute((trx) =>
    auditFor(auth.user, meta)(
      trx,
      clientReportAction(name),
      { table: kind, id: input.targetId ?? null },
      {
        ...(input.details ?? {}),
        reportedBy: 'client',
        reportedAction: input.action,
        ...(meta.userAgent ? { userAgent: meta.userAgent } : {}),
      },
    ),
  );
  return { success: true as const, id: entry.id };
}
