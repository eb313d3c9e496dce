/**
 * Asking for a governed action. When a route's declaration names an action the organization's rules put behind a
 * second approver, the access guard hands its service this step-up instead of the plain one. The service runs as
 * it always does; when it reaches the change (`stepUp.run`), the change is made inside a savepoint, exactly as it
 * would be made, and rolled back to it: whatever the action refuses is refused now, with its own message, and a
 * request that could not run is never recorded. What remains in the transaction is the requester's code (spent)
 * and the request with its preview and audit entry. The call then answers 202 and nothing else of it runs.
 */
import { APPROVAL_MSG, APPROVAL_REQUEST_ACTIONS, type ApprovalAction, type ApprovalRequestAction } from '@strongroom/contracts';
import { ApprovalPending } from '../../shared/approval-pending.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import type { GovernedDeclaration, StepUp } from '../../shared/route-access.js';
import type { SessionContext } from '../sessions/index.js';
import { insertApprovalRequest, readApprovalPolicy, rollbackToSavepoint, savepoint, type ApprovalPolicy } from './approvals.repository.js';
import { queueApprovalMail } from './approval-mail.jobs.js';
import { governedActionOf, type GovernedAction, type GovernedEffect } from './governed/index.js';

const HOUR_MS = 3_600_000;

/** Whether the rules put an action behind a second approver; the rules themselves are, once any rule is on. */
function governs(policy: ApprovalPolicy, action: ApprovalRequestAction): boolean {
  if (action === 'CHANGE_APPROVAL_POLICY') return policy.actions.length > 0;
  return policy.actions.includes(action as ApprovalAction);
}

/** The body as recorded: everything the call was given except the second-factor code. */
function recordedParameters(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object') return {};
  const { mfaToken: _code, ...rest } = body as Record<string, unknown>;
  return rest;
}

/** A governed call as the access guard passes it: its validated input, route, origin and approval-reason header. */
export type GovernedCall = { body: unknown; query: unknown; path: string; meta: RequestMeta; reasonHeader: string | undefined };

/** The requester's reason: the call's own `reason` field, else the approval-reason header. */
function reasonOf(call: GovernedCall): string | null {
  const own = (call.body as { reason?: unknown } | undefined)?.reason;
  if (typeof own === 'string' && own.trim() !== '') return own.trim().slice(0, 2000);
  const header = call.reasonHeader;
  if (header === undefined || header.trim() === '') return null;
  try {
    return decodeURIComponent(header).trim().slice(0, 2000);
  } catch {
    return header.trim().slice(0, 2000);
  }
}

/**
 * The step-up a governed route's service receives: the plain one where no rule applies, else one whose `run`
 * records a request instead of making the change. Declarations are tried in order; the first whose action the
 * rules name, whose predicate holds and whose preview finds something to approve, governs the call.
 */
export async function governedStepUp(
  ctx: AppContext,
  call: GovernedCall,
  session: SessionContext,
  declared: GovernedDeclaration | readonly GovernedDeclaration[],
  inner: StepUp,
): Promise<StepUp> {
  const input = { body: call.body, query: call.query, user: session.user };
  const { path, meta } = call;
  const candidates = (Array.isArray(declared) ? declared : [declared]) as readonly GovernedDeclaration[];
  const applicable = candidates.filter((d) => !d.when || d.when(input));
  if (applicable.length === 0) return inner;
  const policy = await readApprovalPolicy(ctx.db, session.user.organizationId);
  const entries = applicable
    .filter((d) => governs(policy, d.action))
    .map((d) => governedActionOf(d.action, path))
    .filter((g): g is GovernedAction => g !== undefined);
  if (entries.length === 0) return inner;
  return {
    ...inner,
    run: async (action) => {
      const outcome = await inner.run(async (trx, via) => {
        const auth = { ...session, stepUp: inner };
        let found: { entry: GovernedAction; effect: GovernedEffect } | null = null;
        for (const entry of entries) {
          const effect = await entry.preview({ ctx, trx, auth, body: call.body, query: call.query });
          if (effect) {
            found = { entry, effect };
            break;
          }
        }
        // Nothing here needs a second approver (a file, a small folder, a member who is not an administrator).
        if (!found) return { ran: true as const, result: await action(trx, via) };
        await savepoint(trx, 'governed_check');
        await action(trx, via);
        await rollbackToSavepoint(trx, 'governed_check');
        const expiresAt = new Date(Date.now() + policy.expiryHours * HOUR_MS);
        const saved = await insertApprovalRequest(trx, {
          organizationId: session.user.organizationId,
          action: found.entry.action,
          requestedBy: session.user.id,
          requestIp: meta.ip,
          reason: reasonOf(call),
          method: found.entry.route.method,
          path,
          parameters: recordedParameters(call.body),
          preview: found.effect.preview,
          touches: found.effect.touches,
          expiresAt,
        });
        await auditFor(session.user, meta)(
          trx,
          'APPROVAL_REQUESTED',
          { table: 'approval_requests', id: saved.id },
          {
            requestId: saved.id,
            action: found.entry.action,
            title: found.effect.preview.title,
            reason: reasonOf(call),
            expiresAt: expiresAt.toISOString(),
            touches: found.effect.touches,
          },
        );
        await queueApprovalMail(ctx, trx, { requestId: saved.id, organizationId: session.user.organizationId, event: 'requested' });
        return { ran: false as const, id: saved.id, expiresAt: saved.expiresAt, preview: found.effect.preview };
      });
      if (outcome.ran) return outcome.result;
      throw new ApprovalPending({
        approvalRequired: true,
        code: 'APPROVAL_REQUIRED',
        message: APPROVAL_MSG.waiting,
        requestId: outcome.id,
        expiresAt: outcome.expiresAt.toISOString(),
        preview: outcome.preview,
      });
    },
  };
}

/** Whether a stored action name is one this installation knows (a request from a newer version is left alone). */
export const isRequestAction = (a: string): a is ApprovalRequestAction => (APPROVAL_REQUEST_ACTIONS as readonly string[]).includes(a);
