import { MSG } from '@strongroom/contracts';
import { appendAudit } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { consume, type ThrottleRule } from '../../shared/throttle.js';
import type { AuthContext } from '../sessions/sessions.service.js';
import { auditActor } from '../users/users.service.js';

// A signed-in client may report events, but not flood the audit log with them.
const REPORT_RULE: ThrottleRule = { limit: 120, windowSeconds: 60, lockSeconds: 60, message: MSG.tooManyRequests };

type Report = { action: string; targetId?: string; details?: Record<string, unknown> };

/**
 * Security events and forensic notes reported by the client go to the audit log, marked as reported by
 * the client so that nobody mistakes them for events the server witnessed.
 */
export async function logClientEvent(ctx: AppContext, auth: AuthContext, kind: 'security_event' | 'forensic_log', input: Report, meta: RequestMeta) {
  await consume(ctx.db, `report:${auth.user.id}`, REPORT_RULE);
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
