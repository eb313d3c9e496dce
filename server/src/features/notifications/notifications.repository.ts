/**
 * The notifications' queries. Notifications are read from rows other features own (audit entries, vaulted
 * matters, administrators), always inside the reader's organization; the two tables written here belong to this
 * feature alone: notification_reads and notification_mail_days.
 */
import { sql, type ExpressionBuilder } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { DB } from '../../platform/db/schema.js';
import type { Visibility } from './notification-kinds.js';

/** The key of the row that marks everything up to its read_at read. */
const ALL_READ_KEY = 'all';

/** The audit entries of notifying kinds the reader may see (see visibilityOf). */
function visibleTo(eb: ExpressionBuilder<DB, 'auditLogs'>, v: Visibility) {
  const branches = [];
  if (v.anyActor.length > 0) branches.push(eb('auditLogs.action', 'in', v.anyActor));
  if (v.ownOnly.length > 0) branches.push(eb.and([eb('auditLogs.actorId', '=', v.userId), eb('auditLogs.action', 'in', v.ownOnly)]));
  return eb.or(branches);
}

/** Unread: after the reader's 'all read' moment and not read one by one. */
function unreadBy(eb: ExpressionBuilder<DB, 'auditLogs'>, v: Visibility, allReadAt: Date | null) {
  const notOne = eb.not(
    eb.exists(
      eb
        .selectFrom('notificationReads')
        .select(sql`1`.as('one'))
        .where('notificationReads.organizationId', '=', v.organizationId)
        .where('notificationReads.userId', '=', v.userId)
        .whereRef('notificationReads.notificationKey', '=', sql<string>`'audit-' || audit_logs.id::text`),
    ),
  );
  return allReadAt ? eb.and([eb('auditLogs.createdAt', '>', allReadAt), notOne]) : notOne;
}

function visibleEntries(db: Executor, v: Visibility, since: Date) {
  return db
    .selectFrom('auditLogs')
    .where('auditLogs.organizationId', '=', v.organizationId)
    .where('auditLogs.createdAt', '>=', since)
    .where((eb) => visibleTo(eb, v));
}

/** The newest visible entries since `since`, at most `limit`; only unread ones when `unreadOnly`. */
export function notificationEntries(
  db: Executor,
  v: Visibility,
  q: { since: Date; limit: number; unreadOnly: boolean; allReadAt: Date | null },
) {
  let query = visibleEntries(db, v, q.since).selectAll('auditLogs');
  if (q.unreadOnly) query = query.where((eb) => unreadBy(eb, v, q.allReadAt));
  return query.orderBy('auditLogs.createdAt', 'desc').orderBy('auditLogs.id', 'desc').limit(q.limit).execute();
}

export async function countUnreadEntries(db: Executor, v: Visibility, since: Date, allReadAt: Date | null): Promise<number> {
  const row = await visibleEntries(db, v, since)
    .where((eb) => unreadBy(eb, v, allReadAt))
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Which of these entry ids are notifications the reader may see now. */
export async function visibleEntryIds(db: Executor, v: Visibility, since: Date, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await visibleEntries(db, v, since).select('auditLogs.id').where('auditLogs.id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** The vaulted matters of the organization whose retention ends between `from` and `to`, soonest first. */
export function retentionAlertMatters(db: Executor, organizationId: string, from: Date, to: Date) {
  return db
    .selectFrom('matters')
    .select(['id', 'matterName', 'matterNumber', 'retentionExpiresAt'])
    .where('organizationId', '=', organizationId)
    .where('isVaulted', '=', true)
    .where('retentionExpiresAt', '>=', from)
    .where('retentionExpiresAt', '<=', to)
    .orderBy('retentionExpiresAt', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

/** The reader's 'all read' moment, or null. */
/** The person whose reads these are, in their organization. */
type Reader = { userId: number; organizationId: string };

export async function allReadAt(db: Executor, reader: Reader): Promise<Date | null> {
  const row = await db
    .selectFrom('notificationReads')
    .select('readAt')
    .where('organizationId', '=', reader.organizationId)
    .where('userId', '=', reader.userId)
    .where('notificationKey', '=', ALL_READ_KEY)
    .executeTakeFirst();
  return row?.readAt ?? null;
}

/** Which of these keys the reader read one by one. */
export async function readKeys(db: Executor, reader: Reader, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('notificationReads')
    .select('notificationKey')
    .where('organizationId', '=', reader.organizationId)
    .where('userId', '=', reader.userId)
    .where('notificationKey', 'in', keys)
    .execute();
  return new Set(rows.map((r) => r.notificationKey));
}

/** Marks these read; a key already read keeps its first moment. */
export async function insertReads(db: Executor, organizationId: string, userId: number, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db
    .insertInto('notificationReads')
    .values(keys.map((notificationKey) => ({ organizationId, userId, notificationKey })))
    .onConflict((oc) => oc.columns(['userId', 'notificationKey']).doNothing())
    .execute();
}

/** Everything up to now read: the 'all' row moves forward, never back. */
export async function markAllReadNow(db: Executor, organizationId: string, userId: number): Promise<void> {
  await db
    .insertInto('notificationReads')
    .values({ organizationId, userId, notificationKey: ALL_READ_KEY })
    .onConflict((oc) =>
      oc.columns(['userId', 'notificationKey']).doUpdateSet({ readAt: sql`greatest(notification_reads.read_at, excluded.read_at)` }),
    )
    .execute();
}

/** The organizations with at least one vaulted matter whose retention ends between `from` and `to`. */
export async function organizationsWithAlerts(db: Executor, from: Date, to: Date) {
  return db
    .selectFrom('matters')
    .innerJoin('organizations', 'organizations.id', 'matters.organizationId')
    .select(['organizations.id', 'organizations.name'])
    .where('matters.isVaulted', '=', true)
    .where('matters.retentionExpiresAt', '>=', from)
    .where('matters.retentionExpiresAt', '<=', to)
    .groupBy(['organizations.id', 'organizations.name'])
    .orderBy('organizations.id')
    .execute();
}

/** The organization's active administrators. */
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

/** Claims the day's mail for this person; false when it was claimed (sent) already. */
export async function claimMailDay(db: Executor, organizationId: string, userId: number, day: string): Promise<boolean> {
  const row = await db
    .insertInto('notificationMailDays')
    .values({ organizationId, userId, day })
    .onConflict((oc) => oc.columns(['userId', 'day']).doNothing())
    .returning('userId')
    .executeTakeFirst();
  return row !== undefined;
}

/** The people of the organization whose mail of the day was claimed (sent) already. */
export async function mailedOn(db: Executor, organizationId: string, day: string): Promise<Set<number>> {
  const rows = await db
    .selectFrom('notificationMailDays')
    .select('userId')
    .where('organizationId', '=', organizationId)
    .where('day', '=', day)
    .execute();
  return new Set(rows.map((r) => r.userId));
}

/** Gives the day's claim back after the mail could not be handed over, so the next run tries again. */
export async function releaseMailDay(db: Executor, userId: number, day: string): Promise<void> {
  await db.deleteFrom('notificationMailDays').where('userId', '=', userId).where('day', '=', day).execute();
}
