/**
 * Deciding and carrying out a request.
 *
 * A decision is made once: under the request's row lock, a request still pending and not past its time is
 * approved or rejected by an active administrator who is not its requester. An approval first computes the
 * preview again: if anything the request touches changed since it was asked for (a version, a hold, a membership),
 * the request is void and says what changed. The approval, its audit entry and the job that carries it out
 * commit together, so an approval whose process dies before the action runs is carried out by the job after a
 * restart.
 *
 * The action runs once: for its requester (as they are now: deactivated, or no longer allowed, voids it), through
 * the same service the route calls, with the recorded parameters; the change and the request's executed mark
 * commit in one transaction under the request's lock, so two approvers, an approver and the job, or a job retried
 * after a crash cannot run it twice. A refusal by the action itself (the matter was put on hold meanwhile) voids the
 * request with the action's own message.
 */
import { ACCESS_RULES, APPROVAL_MSG, type ApprovalDecideRequest, type ApprovalDecideResponse } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { failpoint } from '../../platform/failpoints.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { AppError, conflict, forbidden, notFound } from '../../shared/errors.js';
import type { StepUp } from '../../shared/route-access.js';
import { shareAuthenticator } from '../mfa/index.js';
import { findOrganization, findUserById } from '../users/index.js';
import type { AuthContext, SessionContext } from '../sessions/index.js';
import { lockApprovalRequest, setApprovalOutcome } from './approvals.repository.js';
import { queueApprovalMail } from './approval-mail.jobs.js';
import { approvalView } from './approvals.service.js';
import { isRequestAction } from './approval-requests.service.js';
import { governedActionOf } from './governed/index.js';

export const APPROVAL_EXECUTE_JOB = 'approval-execute';
export type ApprovalExecuteJob = { organizationId: string; requestId: string };

type Locked = NonNullable<Awaited<ReturnType<typeof lockApprovalRequest>>>;

const titleOf = (r: { preview: unknown }) => (r.preview as { title?: string }).title ?? '';

async function voidRequest(trx: Executor, r: Locked, why: string, by: AuthContext['user'] | null, meta: RequestMeta | null) {
  const voidReason = APPROVAL_MSG.voided(why);
  await setApprovalOutcome(trx, r.organizationId, r.id, {
    status: 'void',
    voidReason,
    decidedAt: new Date(),
    ...(by ? { decidedBy: by.id } : {}),
  });
  const origin = by ?? { organizationId: r.organizationId, actor: null };
  await auditFor(origin, meta)(
    trx,
    'APPROVAL_VOIDED',
    { table: 'approval_requests', id: r.id },
    { requestId: r.id, action: r.action, title: titleOf(r), voidReason },
  );
  return voidReason;
}

/** What changed among the things a request touches, in words; empty when nothing did. */
function changedTouches(before: Record<string, string>, now: Record<string, string> | null): string[] {
  if (now === null) return Object.keys(before);
  return Object.keys({ ...before, ...now }).filter((k) => before[k] !== now[k]);
}

/** The requester as a signed-in caller of the governed route, without a session of theirs (they may be away). */
async function requesterAuth(db: Executor, r: Locked, stepUp: StepUp): Promise<AuthContext | string> {
  const user = await findUserById(db, r.requestedBy);
  if (user?.organizationId !== r.organizationId || !user.isActive) return 'the requester’s account is no longer active.';
  const org = await findOrganization(db, r.organizationId);
  if (!org) return 'the organization no longer exists.';
  const now = new Date();
  const session: SessionContext['session'] = {
    id: `approval:${r.id}`,
    userId: user.id,
    organizationId: user.organizationId,
    idleExpiresAt: now,
    absoluteExpiresAt: now,
    lastSeenAt: now,
  };
  return { session, user, org, stepUp };
}

/**
 * POST /_api/approvals/decide. Approving runs behind the approver's fresh code (the route's step-up); rejecting
 * needs a reason. Answers the request as it is afterwards.
 */
export async function decideApproval(
  ctx: AppContext,
  auth: AuthContext,
  input: ApprovalDecideRequest,
  meta: RequestMeta,
): Promise<ApprovalDecideResponse> {
  const { user } = auth;
  const decided = await auth.stepUp.run(async (trx) => {
    const r = await lockApprovalRequest(trx, user.organizationId, input.requestId);
    if (!r) throw notFound(APPROVAL_MSG.notFound);
    if (r.requestedBy === user.id) throw forbidden(APPROVAL_MSG.ownRequest);
    if (r.status !== 'pending') throw conflict(APPROVAL_MSG.alreadyDecided(r.status), { reason: 'ALREADY_DECIDED' });
    if (r.expiresAt.getTime() <= Date.now()) {
      await expireOne(trx, r);
      return { kind: 'expired' as const };
    }
    const requester = await findUserById(trx, r.requestedBy);
    if (requester && (await shareAuthenticator(ctx, requester, user))) throw forbidden(APPROVAL_MSG.samePerson);
    const common = { requestId: r.id, action: r.action, title: titleOf(r), requesterName: requester?.fullName ?? null };
    if (input.decision === 'reject') {
      await setApprovalOutcome(trx, r.organizationId, r.id, {
        status: 'rejected',
        decidedBy: user.id,
        decidedAt: new Date(),
        decisionReason: input.reason ?? null,
      });
      await auditFor(user, meta)(trx, 'APPROVAL_REJECTED', { table: 'approval_requests', id: r.id }, { ...common, reason: input.reason });
      await queueApprovalMail(ctx, trx, { requestId: r.id, organizationId: r.organizationId, event: 'decided' });
      return { kind: 'rejected' as const };
    }
    const entry = isRequestAction(r.action) ? governedActionOf(r.action, r.path) : undefined;
    if (!entry) throw conflict(APPROVAL_MSG.voided('this installation cannot carry out the request.'), { reason: 'ALREADY_DECIDED' });
    const asRequester = await requesterAuth(trx, r, auth.stepUp);
    if (typeof asRequester === 'string') return { kind: 'void' as const, why: await voidRequest(trx, r, asRequester, user, meta) };
    const now = await entry.preview({ ctx, trx, auth: asRequester, body: r.parameters, query: {} });
    const changed = changedTouches(r.touches, now?.touches ?? null);
    if (changed.length > 0) {
      const what = changed.map((k) => `the ${k}`).join(' and ');
      return { kind: 'void' as const, why: await voidRequest(trx, r, `${what} changed since the request was made.`, user, meta) };
    }
    await setApprovalOutcome(trx, r.organizationId, r.id, {
      status: 'approved',
      decidedBy: user.id,
      decidedAt: new Date(),
      decisionReason: input.reason ?? null,
    });
    await auditFor(user, meta)(
      trx,
      'APPROVAL_GRANTED',
      { table: 'approval_requests', id: r.id },
      { ...common, approverName: user.fullName, reason: input.reason },
    );
    await ctx.jobs.enqueue<ApprovalExecuteJob>(trx, APPROVAL_EXECUTE_JOB, { organizationId: r.organizationId, requestId: r.id });
    await queueApprovalMail(ctx, trx, { requestId: r.id, organizationId: r.organizationId, event: 'decided' });
    return { kind: 'approved' as const };
  });
  if (decided.kind === 'expired') throw conflict(APPROVAL_MSG.expired, { reason: 'EXPIRED' });
  let message: string =
    decided.kind === 'rejected' ? APPROVAL_MSG.rejected : decided.kind === 'void' ? decided.why : APPROVAL_MSG.approvedPending;
  if (decided.kind === 'approved') {
    await failpoint(ctx, 'approvals.after-approve', { requestId: input.requestId });
    const result = await executeApproval(ctx, user.organizationId, input.requestId);
    message = result === 'void' ? ((await approvalView(ctx, auth, input.requestId)).voidReason ?? message) : APPROVAL_MSG.approvedDone;
  }
  return { success: true, message, request: await approvalView(ctx, auth, input.requestId) };
}

/** Marks a request past its time as expired, with its audit entry (inside the caller's transaction, under its lock). */
export async function expireOne(trx: Executor, r: { id: string; organizationId: string; action: string; preview: unknown }) {
  await setApprovalOutcome(trx, r.organizationId, r.id, { status: 'expired', decidedAt: new Date() });
  await auditFor({ organizationId: r.organizationId, actor: null })(
    trx,
    'APPROVAL_EXPIRED',
    { table: 'approval_requests', id: r.id },
    { requestId: r.id, action: r.action, title: titleOf(r) },
  );
}

class AlreadyCarriedOut extends Error {}

/**
 * Carries out an approved request once. Answers 'done' (now or by an earlier call), 'void' (the action refused
 * it), or 'not-approved'. A failure that is not the action's refusal (the database went away) is thrown: the
 * durable job tries again.
 */
export async function executeApproval(
  ctx: AppContext,
  organizationId: string,
  requestId: string,
): Promise<'done' | 'void' | 'not-approved'> {
  const r = await lockApprovalRequest(ctx.db, organizationId, requestId);
  if (r?.status !== 'approved') return 'not-approved';
  if (r.executedAt) return 'done';
  const entry = isRequestAction(r.action) ? governedActionOf(r.action, r.path) : undefined;
  if (!entry) return 'not-approved';
  const approver = r.decidedBy === null ? undefined : await findUserById(ctx.db, r.decidedBy);
  let marked = false;
  const stepUp: StepUp = {
    operation: null,
    required: false,
    freshCodeRequired: () => new AppError(409, APPROVAL_MSG.approvedPending, 'CONFLICT_ERROR'),
    run: (action) =>
      ctx.db.transaction().execute(async (trx) => {
        const locked = await lockApprovalRequest(trx, organizationId, requestId);
        if (locked?.status !== 'approved' || locked.executedAt) throw new AlreadyCarriedOut();
        const result = await action(trx, 'approval');
        await markCarriedOut(trx, locked, approver?.fullName ?? null);
        marked = true;
        return result;
      }),
  };
  const auth = await requesterAuth(ctx.db, r, stepUp);
  try {
    if (typeof auth === 'string') throw forbidden(auth);
    for (const rule of entry.allow) {
      if (!ACCESS_RULES[rule.rule](auth.user)) {
        const deny = rule.deny ?? 'the requester may no longer do this.';
        throw forbidden(typeof deny === 'function' ? deny(auth.user.role) : deny);
      }
    }
    await entry.execute(ctx, auth, r.parameters, { ip: r.requestIp ?? '', userAgent: 'Strongroom approval' });
  } catch (err) {
    if (err instanceof AlreadyCarriedOut) return 'done';
    if (!(err instanceof AppError) || err.statusCode >= 500) throw err;
    const voided = await ctx.db.transaction().execute(async (trx) => {
      const locked = await lockApprovalRequest(trx, organizationId, requestId);
      if (locked?.status !== 'approved' || locked.executedAt) return false;
      await voidRequest(trx, locked, `it could not be carried out: ${err.message}`, null, null);
      return true;
    });
    return voided ? 'void' : 'done';
  }
  // A call that found nothing to change never reached its transaction: it is carried out all the same.
  if (!marked) {
    await ctx.db.transaction().execute(async (trx) => {
      const locked = await lockApprovalRequest(trx, organizationId, requestId);
      if (locked?.status === 'approved' && !locked.executedAt) await markCarriedOut(trx, locked, approver?.fullName ?? null);
    });
  }
  return 'done';
}

async function markCarriedOut(trx: Executor, r: Locked, approverName: string | null): Promise<void> {
  await setApprovalOutcome(trx, r.organizationId, r.id, { status: 'approved', executedAt: new Date() });
  const requester = await findUserById(trx, r.requestedBy);
  await auditFor({ organizationId: r.organizationId, actor: null })(
    trx,
    'APPROVAL_EXECUTED',
    { table: 'approval_requests', id: r.id },
    {
      requestId: r.id,
      action: r.action,
      title: titleOf(r),
      requesterId: r.requestedBy,
      requesterName: requester?.fullName ?? null,
      approverId: r.decidedBy,
      approverName,
    },
  );
}
