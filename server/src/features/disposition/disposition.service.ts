/**
 * The disposition review (GET /_api/disposition/list, POST /_api/disposition/decide). Administrators and holders
 * of canViewVaulted read the queue; administrators decide, matter by matter, on the review of its current
 * retention end:
 * - destroy: the review is approved (who approved it, and the approval request when the organization's policy
 *   asked a second administrator); the retention-end job destroys the files on the day the retention ends or at
 *   its next run after the approval, whichever is later, checking the approval again under the matter's lock;
 * - extend: the matter's retention end moves later (a date, or years from the current end), in the store too;
 * - hold: the matter goes under legal hold (the legal-hold feature's change, audited as such).
 * Every rule is checked before a second-factor code is spent, and again under the matter's and the review's row
 * locks in the transaction that makes the change, so two administrators deciding at once get one outcome.
 */
import {
  DISPOSITION_MSG,
  DISPOSITION_STATUS_LABELS,
  may,
  type DispositionDecideRequest,
  type DispositionDecideResponse,
  type DispositionItem,
  type DispositionListQuery,
  type DispositionListResponse,
  type DispositionStatus,
} from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { notFound } from '../../shared/errors.js';
import { setHoldLocked } from '../legal-hold/index.js';
import { getVisibleMatter, lockVisibleMatter, setMatterRetention } from '../matters/index.js';
import type { StepUp } from '../../shared/route-access.js';
import type { AuthContext } from '../sessions/index.js';
import { extendedEnd, requireDecidable } from './disposition-rules.js';
import { extendVaultRetention, filesInVault } from '../vault/index.js';
import {
  approvalOfDestroy,
  countReviews,
  dispositionLeadDays,
  listReviews,
  peopleOf,
  reviewOfEnd,
  updateReview,
  vaultTotals,
  type Approver,
  type ReviewRow,
} from './disposition.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How the decision's step-up passed: a code, a token, not needed, or an approved request run for its requester. */
type StepUpVia = Parameters<Parameters<StepUp['run']>[0]>[1];
const day = (d: Date) => d.toISOString().slice(0, 10);

/** The approval a governed decision ran under: the request and who approved it (besides its requester). */
type DecisionApproval = { requestId: string; approvers: Approver[] };

/** When the decision runs as an approved request (via 'approval'): that request and its approver. */
async function approvalOf(trx: Executor, auth: AuthContext, matterId: string, via: StepUpVia): Promise<DecisionApproval | null> {
  if (via !== 'approval') return null;
  const { organizationId } = auth.user;
  const request = await approvalOfDestroy(trx, organizationId, auth.user.id, matterId);
  if (!request) return null;
  const people = await peopleOf(trx, organizationId, request.decidedBy === null ? [] : [request.decidedBy]);
  return { requestId: request.id, approvers: [...people.values()] };
}

type Row = Awaited<ReturnType<typeof listReviews>>[number];

async function toItems(db: Executor, auth: AuthContext, rows: Row[], now: Date): Promise<DispositionItem[]> {
  const { organizationId } = auth.user;
  const totals = await vaultTotals(
    db,
    organizationId,
    rows.map((r) => r.matterId),
  );
  const people = await peopleOf(db, organizationId, [...new Set(rows.flatMap((r) => (r.decidedBy === null ? [] : [r.decidedBy])))]);
  const admin = may(auth.user, 'admin');
  return rows.map((r) => {
    const status = r.listedStatus as DispositionStatus;
    const t = totals.get(r.matterId) ?? { files: 0, versions: 0, bytes: 0 };
    return {
      reviewId: r.id,
      matterId: r.matterId,
      matterName: r.matterName,
      matterNumber: r.matterNumber,
      clientName: r.clientName,
      retentionExpiresAt: r.retentionExpiresAt.toISOString(),
      daysLeft: Math.ceil((r.retentionExpiresAt.getTime() - now.getTime()) / DAY_MS),
      status,
      statusLabel: DISPOSITION_STATUS_LABELS[status],
      queuedAt: r.queuedAt.toISOString(),
      files: t.files,
      versions: t.versions,
      bytes: t.bytes,
      legalHold: r.legalHold,
      decidedBy: r.decidedBy === null ? null : (people.get(r.decidedBy) ?? { userId: r.decidedBy, name: '', email: '' }),
      decidedAt: r.decidedAt ? r.decidedAt.toISOString() : null,
      decisionReason: r.decisionReason,
      approvedBy: r.approvedBy ?? [],
      approvalRequestId: r.approvalRequestId,
      canDecide: admin && (status === 'due' || status === 'overdue' || status === 'approved'),
    };
  });
}

export async function listDisposition(ctx: AppContext, auth: AuthContext, query: DispositionListQuery): Promise<DispositionListResponse> {
  const { organizationId } = auth.user;
  const now = new Date();
  const [rows, counts, leadDays] = await Promise.all([
    listReviews(ctx.db, organizationId, now, query.status, { limit: query.pageSize, offset: (query.page - 1) * query.pageSize }),
    countReviews(ctx.db, organizationId, now),
    dispositionLeadDays(ctx.db, organizationId),
  ]);
  const all = Object.fromEntries(Object.keys(DISPOSITION_STATUS_LABELS).map((s) => [s, counts.get(s as DispositionStatus) ?? 0])) as Record<
    DispositionStatus,
    number
  >;
  return {
    items: await toItems(ctx.db, auth, rows, now),
    total: query.status ? all[query.status] : [...counts.values()].reduce((a, b) => a + b, 0),
    page: query.page,
    pageSize: query.pageSize,
    counts: all,
    leadDays,
    canDecide: may(auth.user, 'admin'),
  };
}

/** The checks made before any code is spent (the same again under the locks). */
async function precheck(ctx: AppContext, auth: AuthContext, body: DispositionDecideRequest): Promise<void> {
  const matter = await getVisibleMatter(ctx.db, auth.user, body.matterId);
  const review = matter.retentionExpiresAt
    ? await reviewOfEnd(ctx.db, auth.user.organizationId, matter.id, matter.retentionExpiresAt, false)
    : undefined;
  requireDecidable(matter, review, body);
}

async function decideLocked(
  ctx: AppContext,
  trx: Executor,
  auth: AuthContext,
  body: DispositionDecideRequest,
  meta: RequestMeta,
  via: StepUpVia,
): Promise<{ review: ReviewRow; message: string }> {
  const { user } = auth;
  const matter = await lockVisibleMatter(trx, user, body.matterId);
  const review = requireDecidable(
    matter,
    matter.retentionExpiresAt ? await reviewOfEnd(trx, user.organizationId, matter.id, matter.retentionExpiresAt, true) : undefined,
    body,
  );
  const now = new Date();
  const audit = auditFor(user, meta);
  const target = { table: 'matters', id: matter.id };
  const common = { matterId: matter.id, matterName: matter.matterName, reviewId: review.id, reason: body.reason };
  const decided = { decidedBy: user.id, decidedAt: now, decisionReason: body.reason };
  if (body.decision === 'destroy') {
    const approval = await approvalOf(trx, auth, matter.id, via);
    const me: Approver = { userId: user.id, name: user.fullName, email: user.email };
    const approvedBy = [me, ...(approval?.approvers ?? []).filter((a) => a.userId !== me.userId)];
    const files = await filesInVault(trx, user.organizationId, matter.id);
    await updateReview(trx, user.organizationId, review.id, {
      ...decided,
      status: 'approved',
      approvedBy,
      approvedAt: now,
      approvalRequestId: approval?.requestId ?? null,
    });
    await audit(trx, 'DISPOSITION_APPROVED', target, {
      ...common,
      retentionExpiresAt: matter.retentionExpiresAt!.toISOString(),
      approvedBy: approvedBy.map((a) => a.userId),
      approvedByNames: approvedBy.map((a) => a.name).join(', '),
      approvalRequestId: approval?.requestId ?? null,
      versions: files.length,
    });
    const ended = matter.retentionExpiresAt!.getTime() <= now.getTime();
    return { review, message: ended ? DISPOSITION_MSG.approvedNow : DISPOSITION_MSG.approved };
  }
  if (body.decision === 'extend') {
    const end = extendedEnd(matter, body.retainUntil);
    await setMatterRetention(trx, matter, { retentionExpiresAt: end, userId: user.id });
    const { objects } = await extendVaultRetention(ctx, trx, user.organizationId, matter.id, end);
    await updateReview(trx, user.organizationId, review.id, { ...decided, status: 'extended', extendedTo: end });
    await audit(trx, 'DISPOSITION_EXTENDED', target, {
      ...common,
      previousRetentionExpiresAt: matter.retentionExpiresAt!.toISOString(),
      retainUntil: end.toISOString(),
      objectsExtended: objects,
    });
    return { review, message: DISPOSITION_MSG.extended(day(end)) };
  }
  await setHoldLocked(ctx, trx, user, matter, { apply: true, reason: body.reason }, meta);
  await updateReview(trx, user.organizationId, review.id, { ...decided, status: 'held' });
  await audit(trx, 'DISPOSITION_HELD', target, common);
  return { review, message: DISPOSITION_MSG.held };
}

/**
 * One administrator's decision on a matter's review. Run again for its requester once a second administrator
 * approved a governed destroy decision (the step-up then passes 'approval'), the approver is named with the
 * requester as the review's approvers, and the request with them.
 */
export async function decideDisposition(
  ctx: AppContext,
  auth: AuthContext,
  body: DispositionDecideRequest,
  meta: RequestMeta,
): Promise<DispositionDecideResponse> {
  await precheck(ctx, auth, body);
  const { review, message } = await auth.stepUp.run((trx, via) => decideLocked(ctx, trx, auth, body, meta, via));
  const now = new Date();
  const [row] = await listReviews(ctx.db, auth.user.organizationId, now, undefined, { limit: 1, offset: 0 }, review.id);
  if (!row) throw notFound(DISPOSITION_MSG.matterNotFound);
  const [item] = await toItems(ctx.db, auth, [row], now);
  return { success: true, message, item: item! };
}
