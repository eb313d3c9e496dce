/**
 * The disposition review's queries. The feature owns disposition_reviews and disposition_reminder_days; it reads
 * the matters, vault transfers, vault objects and certificates, approval settings and administrators other
 * features own, always scoped to the organization (the daily sweep finds the organizations first).
 */
import { sql, type Selectable } from 'kysely';
import { APPROVAL_LIMITS } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import type { DB } from '../../platform/db/schema.js';

export type ReviewRow = Selectable<DB['dispositionReviews']>;
export type Approver = { userId: number; name: string; email: string };

/** How many days before a retention ends the organization reviews it (approval_settings, else 30). */
export async function dispositionLeadDays(db: Executor, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('approvalSettings')
    .select('dispositionLeadDays')
    .where('organizationId', '=', organizationId)
    .executeTakeFirst();
  return row?.dispositionLeadDays ?? APPROVAL_LIMITS.dispositionLeadDaysDefault;
}

/** Organizations with vaulted matters whose transfer completed (the sweep's list; each is then read on its own). */
export async function organizationsWithVaultedMatters(db: Executor): Promise<Array<{ id: string; name: string }>> {
  return db
    .selectFrom('organizations as o')
    .select(['o.id', 'o.name'])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('vaultTransfers as t')
          .select('t.matterId')
          .whereRef('t.organizationId', '=', 'o.id')
          .where('t.state', '=', 'completed'),
      ),
    )
    .orderBy('o.id')
    .execute();
}

/** Over a matter `m`: vaulted, its transfer completed, and no certificate of destruction (files left to review). */
const STILL_VAULTED = sql<boolean>`m.is_vaulted
  and exists (select 1 from vault_transfers t where t.matter_id = m.id and t.organization_id = m.organization_id and t.state = 'completed')
  and not exists (select 1 from vault_certificates c where c.matter_id = m.id and c.organization_id = m.organization_id and c.kind = 'destruction')`;

/**
 * The organization's vaulted matters, not held, whose retention ends before `until` (already past included) and
 * that have no review of that end yet: what enters the queue.
 */
export function mattersToQueue(db: Executor, organizationId: string, until: Date) {
  return db
    .selectFrom('matters as m')
    .select(['m.id', 'm.matterName', 'm.retentionExpiresAt'])
    .where('m.organizationId', '=', organizationId)
    .where('m.legalHold', '=', false)
    .where('m.retentionExpiresAt', 'is not', null)
    .where('m.retentionExpiresAt', '<=', until)
    .where(STILL_VAULTED)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('dispositionReviews as r')
            .select('r.id')
            .whereRef('r.matterId', '=', 'm.id')
            .whereRef('r.organizationId', '=', 'm.organizationId')
            .whereRef('r.retentionExpiresAt', '=', 'm.retentionExpiresAt'),
        ),
      ),
    )
    .orderBy('m.retentionExpiresAt')
    .orderBy('m.id')
    .execute();
}

/** Held reviews whose matter is no longer held and still ends at the reviewed date: due again. */
export function heldReviewsReleased(db: Executor, organizationId: string) {
  return db
    .selectFrom('dispositionReviews as r')
    .innerJoin('matters as m', (j) => j.onRef('m.id', '=', 'r.matterId').onRef('m.organizationId', '=', 'r.organizationId'))
    .select(['r.id', 'r.matterId', 'm.matterName', 'r.retentionExpiresAt'])
    .where('r.organizationId', '=', organizationId)
    .where('r.status', '=', 'held')
    .where('m.legalHold', '=', false)
    .whereRef('m.retentionExpiresAt', '=', 'r.retentionExpiresAt')
    .where(STILL_VAULTED)
    .execute();
}

/** Queues a review of this retention end; undefined when one exists already (two sweeps at once). */
export function insertReview(db: Executor, v: { organizationId: string; matterId: string; retentionExpiresAt: Date }) {
  return db
    .insertInto('dispositionReviews')
    .values(v)
    .onConflict((oc) => oc.columns(['organizationId', 'matterId', 'retentionExpiresAt']).doNothing())
    .returning('id')
    .executeTakeFirst();
}

/**
 * The review of the matter's current retention end; `lock`: locked for the decision (the matter's row is locked
 * first, always in that order).
 */
export function reviewOfEnd(db: Executor, organizationId: string, matterId: string, retentionExpiresAt: Date, lock: boolean) {
  return db
    .selectFrom('dispositionReviews')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('matterId', '=', matterId)
    .where('retentionExpiresAt', '=', retentionExpiresAt)
    .$if(lock, (q) => q.forUpdate())
    .executeTakeFirst();
}

export type ReviewChange = Partial<
  Pick<ReviewRow, 'status' | 'decidedBy' | 'decidedAt' | 'decisionReason' | 'extendedTo' | 'approvalRequestId' | 'approvedAt'>
> & { approvedBy?: Approver[] };

export async function updateReview(db: Executor, organizationId: string, id: string, change: ReviewChange): Promise<void> {
  const { approvedBy, ...rest } = change;
  await db
    .updateTable('dispositionReviews')
    .set({ ...rest, ...(approvedBy ? { approvedBy: JSON.stringify(approvedBy) } : {}) })
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .execute();
}

/** The states of the list, as SQL over a review `r` and its matter `m`. */
const DESTROYED = sql<boolean>`exists (select 1 from vault_certificates c where c.organization_id = r.organization_id and c.matter_id = r.matter_id and c.kind = 'destruction')`;

export type ListedStatus = 'due' | 'overdue' | 'approved' | 'extended' | 'held' | 'destroyed';

function listed(db: Executor, organizationId: string, now: Date) {
  return db
    .selectFrom('dispositionReviews as r')
    .innerJoin('matters as m', (j) => j.onRef('m.id', '=', 'r.matterId').onRef('m.organizationId', '=', 'r.organizationId'))
    .where('r.organizationId', '=', organizationId)
    .select([
      sql<ListedStatus>`case
        when r.status = 'approved' and ${DESTROYED} then 'destroyed'
        when r.status = 'due' and r.retention_expires_at <= ${now} then 'overdue'
        else r.status end`.as('listedStatus'),
    ]);
}

/** A page of the organization's reviews in one listed state (all when undefined), soonest end first; or one review. */
export function listReviews(
  db: Executor,
  organizationId: string,
  now: Date,
  status: ListedStatus | undefined,
  page: { limit: number; offset: number },
  reviewId?: string,
) {
  const base = listed(db, organizationId, now).select([
    'r.id',
    'r.matterId',
    'r.retentionExpiresAt',
    'r.status',
    'r.queuedAt',
    'r.decidedBy',
    'r.decidedAt',
    'r.decisionReason',
    'r.approvalRequestId',
    'r.approvedBy',
    'r.approvedAt',
    'm.matterName',
    'm.matterNumber',
    'm.clientName',
    'm.legalHold',
  ]);
  return db
    .selectFrom(base.as('x'))
    .selectAll()
    .$if(status !== undefined, (q) => q.where('x.listedStatus', '=', status!))
    .$if(reviewId !== undefined, (q) => q.where('x.id', '=', reviewId!))
    .orderBy('x.retentionExpiresAt')
    .orderBy('x.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** How many reviews the organization has in each listed state. */
export async function countReviews(db: Executor, organizationId: string, now: Date): Promise<Map<ListedStatus, number>> {
  const rows = await db
    .selectFrom(listed(db, organizationId, now).as('x'))
    .select(['x.listedStatus', sql<number>`count(*)::int`.as('n')])
    .groupBy('x.listedStatus')
    .execute();
  return new Map(rows.map((r) => [r.listedStatus, r.n]));
}

/** Files (counted once), versions and bytes still in the vault, per matter. */
export async function vaultTotals(db: Executor, organizationId: string, matterIds: string[]) {
  if (matterIds.length === 0) return new Map<string, { files: number; versions: number; bytes: number }>();
  const rows = await db
    .selectFrom('vaultObjects')
    .where('organizationId', '=', organizationId)
    .where('matterId', 'in', matterIds)
    .where('state', '=', 'vaulted')
    .groupBy('matterId')
    .select([
      'matterId',
      sql<number>`count(distinct node_id)::int`.as('files'),
      sql<number>`count(*)::int`.as('versions'),
      sql<string>`coalesce(sum(size), 0)::text`.as('bytes'),
    ])
    .execute();
  return new Map(rows.map((r) => [r.matterId, { files: r.files, versions: r.versions, bytes: Number(r.bytes) }]));
}

/** Names and addresses of some users of the organization. */
export async function peopleOf(db: Executor, organizationId: string, ids: number[]): Promise<Map<number, Approver>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'fullName', 'email'])
    .where('organizationId', '=', organizationId)
    .where('id', 'in', ids)
    .execute();
  return new Map(rows.map((r) => [r.id, { userId: r.id, name: r.fullName, email: r.email }]));
}

/** The organization's overdue reviews: retention over, no decision, soonest first. */
export function overdueReviews(db: Executor, organizationId: string, now: Date) {
  return db
    .selectFrom('dispositionReviews as r')
    .innerJoin('matters as m', (j) => j.onRef('m.id', '=', 'r.matterId').onRef('m.organizationId', '=', 'r.organizationId'))
    .select(['r.id', 'r.matterId', 'r.retentionExpiresAt', 'm.matterName', 'm.matterNumber'])
    .where('r.organizationId', '=', organizationId)
    .where('r.status', '=', 'due')
    .where('r.retentionExpiresAt', '<=', now)
    .orderBy('r.retentionExpiresAt')
    .orderBy('r.id')
    .execute();
}

/** Claims the organization's reminder of this UTC day; false when it was claimed already. */
export async function claimReminderDay(db: Executor, organizationId: string, day: string, overdue: number): Promise<boolean> {
  const row = await db
    .insertInto('dispositionReminderDays')
    .values({ organizationId, day, overdue })
    .onConflict((oc) => oc.columns(['organizationId', 'day']).doNothing())
    .returning('day')
    .executeTakeFirst();
  return row !== undefined;
}

/** The organization's active administrators (the reminder's recipients). */
export function activeAdministrators(db: Executor, organizationId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'fullName'])
    .where('organizationId', '=', organizationId)
    .where('role', '=', 'admin')
    .where('isActive', '=', true)
    .orderBy('id')
    .execute();
}

/**
 * The approved, not yet carried out, request of a second administrator that this destroy decision runs under
 * (read in the transaction that holds the request's lock), with who approved it; undefined when there is none.
 */
export function approvalOfDestroy(db: Executor, organizationId: string, requesterId: number, matterId: string) {
  return db
    .selectFrom('approvalRequests')
    .select(['id', 'decidedBy'])
    .where('organizationId', '=', organizationId)
    .where('action', '=', 'DESTROY_AT_RETENTION_END')
    .where('status', '=', 'approved')
    .where('executedAt', 'is', null)
    .where('requestedBy', '=', requesterId)
    .where(sql<string>`parameters->>'matterId'`, '=', matterId)
    .orderBy('decidedAt', 'desc')
    .limit(1)
    .executeTakeFirst();
}
