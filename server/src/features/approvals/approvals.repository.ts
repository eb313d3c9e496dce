import { sql } from 'kysely';
import { APPROVAL_LIMITS, type ApprovalAction, type ApprovalStatus, type Permissions, type Role } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';

export type ApprovalPolicy = {
  actions: ApprovalAction[];
  expiryHours: number;
  folderFileThreshold: number;
  dispositionLeadDays: number;
};

const DEFAULT_POLICY: ApprovalPolicy = {
  actions: [],
  expiryHours: APPROVAL_LIMITS.expiryHoursDefault,
  folderFileThreshold: APPROVAL_LIMITS.folderFilesDefault,
  dispositionLeadDays: APPROVAL_LIMITS.dispositionLeadDaysDefault,
};

/** The organization's approval rules; an organization that never set them governs nothing. */
export async function readApprovalPolicy(db: Executor, organizationId: string, forUpdate = false): Promise<ApprovalPolicy> {
  let q = db
    .selectFrom('approvalSettings')
    .select(['actions', 'expiryHours', 'folderFileThreshold', 'dispositionLeadDays'])
    .where('organizationId', '=', organizationId);
  if (forUpdate) q = q.forUpdate();
  const row = await q.executeTakeFirst();
  if (!row) return { ...DEFAULT_POLICY };
  return { ...row, actions: row.actions as ApprovalAction[] };
}

export async function saveApprovalPolicy(trx: Executor, organizationId: string, policy: ApprovalPolicy): Promise<void> {
  const values = {
    actions: JSON.stringify(policy.actions),
    expiryHours: policy.expiryHours,
    folderFileThreshold: policy.folderFileThreshold,
    dispositionLeadDays: policy.dispositionLeadDays,
  };
  await trx
    .insertInto('approvalSettings')
    .values({ organizationId, ...values })
    .onConflict((oc) => oc.column('organizationId').doUpdateSet({ ...values, updatedAt: new Date() }))
    .execute();
}

/**
 * A savepoint in the caller's transaction, and the return to it: a governed call's change is made and undone
 * there, so that it is checked exactly as it would run and leaves nothing behind. Locks taken after the
 * savepoint are released with it.
 */
export async function savepoint(trx: Executor, name: 'governed_check'): Promise<void> {
  await sql.raw(`savepoint ${name}`).execute(trx);
}
export async function rollbackToSavepoint(trx: Executor, name: 'governed_check'): Promise<void> {
  await sql.raw(`rollback to savepoint ${name}`).execute(trx);
}

/** Active administrators of the organization: the people who can approve. */
export async function countActiveAdministrators(db: Executor, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organizationId', '=', organizationId)
    .where('role', '=', 'admin')
    .where('isActive', '=', true)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Active administrators other than one person, who are told of a request. */
export function otherAdministrators(db: Executor, organizationId: string, exceptUserId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'fullName', 'email'])
    .where('organizationId', '=', organizationId)
    .where('role', '=', 'admin')
    .where('isActive', '=', true)
    .where('id', '!=', exceptUserId)
    .orderBy('id')
    .execute();
}

export type NewApprovalRequest = {
  organizationId: string;
  action: string;
  requestedBy: number;
  requestIp: string | null;
  reason: string | null;
  method: string;
  path: string;
  parameters: Record<string, unknown>;
  preview: unknown;
  touches: Record<string, string>;
  expiresAt: Date;
};

export function insertApprovalRequest(trx: Executor, r: NewApprovalRequest) {
  return trx
    .insertInto('approvalRequests')
    .values({
      ...r,
      parameters: JSON.stringify(r.parameters),
      preview: JSON.stringify(r.preview),
      touches: JSON.stringify(r.touches),
    })
    .returning(['id', 'requestedAt', 'expiresAt'])
    .executeTakeFirstOrThrow();
}

/** A request with the names of the people on it, as the Approvals page shows it. */
function requestsWithPeople(db: Executor) {
  return db
    .selectFrom('approvalRequests as r')
    .innerJoin('users as rq', (j) => j.onRef('rq.id', '=', 'r.requestedBy').onRef('rq.organizationId', '=', 'r.organizationId'))
    .leftJoin('users as dc', (j) => j.onRef('dc.id', '=', 'r.decidedBy').onRef('dc.organizationId', '=', 'r.organizationId'))
    .selectAll('r')
    .select(['rq.fullName as requesterName', 'rq.email as requesterEmail', 'dc.fullName as deciderName', 'dc.email as deciderEmail']);
}
export type ApprovalRequestRow = Awaited<ReturnType<typeof findApprovalRequest>> & object;

export function findApprovalRequest(db: Executor, organizationId: string, id: string) {
  return requestsWithPeople(db).where('r.organizationId', '=', organizationId).where('r.id', '=', id).executeTakeFirst();
}

/** One page of the organization's requests of a status; only one person's own when `requestedBy` is given. */
export function listApprovalRequests(
  db: Executor,
  organizationId: string,
  filter: { status: ApprovalStatus; requestedBy?: number },
  page: number,
  pageSize: number,
) {
  let q = requestsWithPeople(db).where('r.organizationId', '=', organizationId).where('r.status', '=', filter.status);
  if (filter.requestedBy !== undefined) q = q.where('r.requestedBy', '=', filter.requestedBy);
  return q
    .orderBy('r.requestedAt', 'desc')
    .orderBy('r.id', 'desc')
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
}

export async function countApprovalRequests(
  db: Executor,
  organizationId: string,
  filter: { status: ApprovalStatus; requestedBy?: number },
): Promise<number> {
  let q = db
    .selectFrom('approvalRequests')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organizationId', '=', organizationId)
    .where('status', '=', filter.status);
  if (filter.requestedBy !== undefined) q = q.where('requestedBy', '=', filter.requestedBy);
  const row = await q.executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Pending, unexpired requests someone other than their requester may decide. */
export async function countWaitingFor(db: Executor, organizationId: string, userId: number, now: Date): Promise<number> {
  const row = await db
    .selectFrom('approvalRequests')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organizationId', '=', organizationId)
    .where('status', '=', 'pending')
    .where('expiresAt', '>', now)
    .where('requestedBy', '!=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Locks one request for its decision or its execution (the row's lock makes each happen once). */
export function lockApprovalRequest(trx: Executor, organizationId: string, id: string) {
  return trx
    .selectFrom('approvalRequests')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function setApprovalOutcome(
  trx: Executor,
  organizationId: string,
  id: string,
  values: {
    status: ApprovalStatus;
    decidedBy?: number | null;
    decidedAt?: Date;
    decisionReason?: string | null;
    voidReason?: string | null;
    executedAt?: Date;
    outcome?: Record<string, unknown>;
  },
): Promise<void> {
  const { outcome, ...rest } = values;
  await trx
    .updateTable('approvalRequests')
    .set({ ...rest, ...(outcome !== undefined ? { outcome: JSON.stringify(outcome) } : {}) })
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .execute();
}

/** Pending requests past their time, locked for the expiry sweep (others skip them). */
export function lockExpiredRequests(trx: Executor, now: Date, limit: number, organizationId?: string) {
  let q = trx
    .selectFrom('approvalRequests')
    .select(['id', 'organizationId', 'action', 'preview', 'requestedBy'])
    .where('status', '=', 'pending')
    .where('expiresAt', '<=', now);
  if (organizationId !== undefined) q = q.where('organizationId', '=', organizationId);
  return q.orderBy('expiresAt').limit(limit).forUpdate().skipLocked().execute();
}

/** Approved requests not carried out a while after their approval (the process that approved them died). */
export function unexecutedApprovals(db: Executor, before: Date, limit: number) {
  return db
    .selectFrom('approvalRequests')
    .select(['id', 'organizationId'])
    .where('status', '=', 'approved')
    .where('executedAt', 'is', null)
    .where('decidedAt', '<', before)
    .orderBy('decidedAt')
    .limit(limit)
    .execute();
}

// ---- What previews read ----

export function matterForPreview(db: Executor, organizationId: string, matterId: string) {
  return db
    .selectFrom('matters')
    .select(['id', 'matterName', 'matterNumber', 'clientName', 'legalHold', 'holdReason', 'isVaulted', 'version', 'retentionExpiresAt'])
    .where('organizationId', '=', organizationId)
    .where('id', '=', matterId)
    .executeTakeFirst();
}

/** A matter's live files and their versions: how many, how many bytes, and the newest version's id. */
export async function matterContents(db: Executor, organizationId: string, matterId: string) {
  const row = await db
    .selectFrom('nodes as n')
    .innerJoin('nodeVersions as v', (j) => j.onRef('v.nodeId', '=', 'n.id').onRef('v.organizationId', '=', 'n.organizationId'))
    .select((eb) => [
      eb.fn.count<string>('n.id').distinct().as('files'),
      eb.fn.countAll<string>().as('versions'),
      eb.fn.coalesce(eb.fn.sum<string>('v.fileSize'), sql<string>`0`).as('bytes'),
      eb.fn.max('v.createdAt').as('newest'),
    ])
    .where('n.organizationId', '=', organizationId)
    .where('n.matterId', '=', matterId)
    .where('n.nodeType', '=', 'file')
    .where('n.binEntryId', 'is', null)
    .executeTakeFirstOrThrow();
  return { files: Number(row.files), versions: Number(row.versions), bytes: Number(row.bytes), newest: row.newest };
}

/** A node with the live files below it (itself, for a file) and the newest change among them. */
export async function nodeSubtreeFiles(db: Executor, organizationId: string, nodeId: string) {
  const row = await sql<{ files: string; bytes: string; newest: Date | null; version_sum: string }>`
    with recursive tree as (
      select id, node_type, file_size, updated_at, version from nodes
        where organization_id = ${organizationId} and id = ${nodeId} and bin_entry_id is null
      union all
      select c.id, c.node_type, c.file_size, c.updated_at, c.version from nodes c
        join tree t on c.parent_id = t.id
        where c.organization_id = ${organizationId} and c.bin_entry_id is null
    )
    select count(*) filter (where node_type = 'file') as files,
           coalesce(sum(file_size) filter (where node_type = 'file'), 0) as bytes,
           max(updated_at) as newest,
           coalesce(sum(version), 0) as version_sum
      from tree`.execute(db);
  const r = row.rows[0];
  return {
    files: Number(r?.files ?? 0),
    bytes: Number(r?.bytes ?? 0),
    newest: r?.newest ?? null,
    versionSum: String(r?.version_sum ?? '0'),
  };
}

export function nodeForPreview(db: Executor, organizationId: string, nodeId: string) {
  return db
    .selectFrom('nodes as n')
    .innerJoin('matters as m', (j) => j.onRef('m.id', '=', 'n.matterId').onRef('m.organizationId', '=', 'n.organizationId'))
    .select(['n.id', 'n.name', 'n.nodeType', 'n.version', 'm.matterName', 'm.matterNumber'])
    .where('n.organizationId', '=', organizationId)
    .where('n.id', '=', nodeId)
    .where('n.binEntryId', 'is', null)
    .executeTakeFirst();
}

export type MemberForPreview = {
  id: number;
  fullName: string;
  email: string;
  role: Role;
  permissions: Permissions;
  isActive: boolean;
  version: number;
};

export function memberForPreview(db: Executor, organizationId: string, publicId: string): Promise<MemberForPreview | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'fullName', 'email', 'role', 'permissions', 'isActive', 'version'])
    .where('organizationId', '=', organizationId)
    .where('publicId', '=', publicId)
    .executeTakeFirst() as Promise<MemberForPreview | undefined>;
}

export function flagStates(db: Executor, organizationId: string) {
  return db.selectFrom('featureFlags').select(['flagName', 'enabled']).where('organizationId', '=', organizationId).execute();
}
