import {
  APPROVAL_ACTION_LABELS,
  APPROVAL_MSG,
  approvalPreviewSchema,
  type ApprovalDetailQuery,
  type ApprovalDetailResponse,
  type ApprovalRequestView,
  type ApprovalsListQuery,
  type ApprovalsListResponse,
} from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import type { AppContext } from '../../shared/context.js';
import { notFound } from '../../shared/errors.js';
import type { AuthContext } from '../sessions/index.js';
import {
  countApprovalRequests,
  countWaitingFor,
  findApprovalRequest,
  listApprovalRequests,
  lockExpiredRequests,
  type ApprovalRequestRow,
} from './approvals.repository.js';
import { expireOne } from './approval-decisions.service.js';
import { isRequestAction } from './approval-requests.service.js';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

function toView(r: ApprovalRequestRow, viewer: AuthContext['user']): ApprovalRequestView {
  const pending = r.status === 'pending' && r.expiresAt.getTime() > Date.now();
  const action = isRequestAction(r.action) ? r.action : 'VAULT_MATTER';
  return {
    requestId: r.id,
    action,
    actionLabel: isRequestAction(r.action) ? APPROVAL_ACTION_LABELS[r.action] : r.action,
    // A request whose time ran out reads as expired at once, before the sweep records it.
    status: r.status === 'pending' && !pending ? 'expired' : r.status,
    requestedBy: { userId: r.requestedBy, name: r.requesterName, email: r.requesterEmail },
    requestedAt: r.requestedAt.toISOString(),
    reason: r.reason,
    call: { method: r.method, path: r.path, parameters: r.parameters },
    preview: approvalPreviewSchema.parse(r.preview),
    expiresAt: r.expiresAt.toISOString(),
    decidedBy: r.decidedBy === null ? null : { userId: r.decidedBy, name: r.deciderName ?? '', email: r.deciderEmail ?? '' },
    decidedAt: iso(r.decidedAt),
    decisionReason: r.decisionReason,
    voidReason: r.voidReason,
    executedAt: iso(r.executedAt),
    canDecide: pending && viewer.role === 'admin' && viewer.isActive && r.requestedBy !== viewer.id,
  };
}

/** Administrators see every request of the organization; anyone else only their own. */
const ownOnly = (auth: AuthContext) => (auth.user.role === 'admin' ? undefined : auth.user.id);

/** GET /_api/approvals/list */
export async function listApprovals(ctx: AppContext, auth: AuthContext, query: ApprovalsListQuery): Promise<ApprovalsListResponse> {
  const orgId = auth.user.organizationId;
  await expireDue(ctx.db, orgId);
  const filter = { status: query.status, requestedBy: ownOnly(auth) };
  const [rows, total, waitingForYou] = await Promise.all([
    listApprovalRequests(ctx.db, orgId, filter, query.page, query.pageSize),
    countApprovalRequests(ctx.db, orgId, filter),
    auth.user.role === 'admin' ? countWaitingFor(ctx.db, orgId, auth.user.id, new Date()) : Promise.resolve(0),
  ]);
  return { requests: rows.map((r) => toView(r, auth.user)), total, page: query.page, pageSize: query.pageSize, waitingForYou };
}

/** One request as the viewer sees it; another organization's, or another person's for a non-administrator, is 404. */
export async function approvalView(ctx: AppContext, auth: AuthContext, requestId: string): Promise<ApprovalRequestView> {
  const r = await findApprovalRequest(ctx.db, auth.user.organizationId, requestId);
  const own = ownOnly(auth);
  if (!r || (own !== undefined && r.requestedBy !== own)) throw notFound(APPROVAL_MSG.notFound);
  return toView(r, auth.user);
}

/** GET /_api/approvals/detail */
export async function approvalDetail(ctx: AppContext, auth: AuthContext, query: ApprovalDetailQuery): Promise<ApprovalDetailResponse> {
  return { request: await approvalView(ctx, auth, query.requestId) };
}

/** Records the expiry of requests past their time (an organization's, or everyone's for the sweep), each once. */
export async function expireDue(db: Executor, organizationId?: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const due = await lockExpiredRequests(trx, new Date(), 500, organizationId);
    for (const r of due) await expireOne(trx, r);
    return due.length;
  });
}
