/**
 * The dashboard's read-only queries. The dashboard writes nothing: it counts and lists rows that other features
 * own (matters, nodes, vault objects, audit entries, users, invitations), always scoped by the organization.
 */
import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';

export type ActivityScope = {
  organizationId: string;
  limit: number;
  /** Set: only this user's own actions, plus `orgWideActions` when given. Unset: every entry of the organization. */
  ownActorId?: number;
  orgWideActions?: readonly string[];
};

/** The newest audit entries of the organization the scope lets the user see. */
export async function recentActivity(db: Executor, scope: ActivityScope) {
  let q = db
    .selectFrom('auditLogs')
    .select(['id', 'action', 'actorName', 'actorEmail', 'targetTable', 'targetId', 'details', 'createdAt'])
    .where('organizationId', '=', scope.organizationId);
  const { ownActorId, orgWideActions } = scope;
  if (ownActorId !== undefined) {
    q = q.where((eb) =>
      orgWideActions && orgWideActions.length > 0
        ? eb.or([eb('actorId', '=', ownActorId), eb('action', 'in', [...orgWideActions])])
        : eb('actorId', '=', ownActorId),
    );
  }
  return q.orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(scope.limit).execute();
}

/** Vaulted matters, vaulted matters whose retention ends between `from` and `to`, and matters under legal hold. */
export async function vaultCounts(db: Executor, organizationId: string, from: Date, to: Date) {
  const [vaulted, held] = await Promise.all([
    db
      .selectFrom('matters')
      .select([
        sql<number>`count(*)::int`.as('vaulted'),
        sql<number>`count(*) filter (where retention_expires_at >= ${from} and retention_expires_at <= ${to})::int`.as('alerts'),
      ])
      .where('organizationId', '=', organizationId)
      .where('isVaulted', '=', true)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('matters')
      .select(sql<number>`count(*)::int`.as('holds'))
      .where('organizationId', '=', organizationId)
      .where('legalHold', '=', true)
      .executeTakeFirstOrThrow(),
  ]);
  return { ...vaulted, holds: held.holds };
}

/** The vaulted matters whose retention ends between `from` and `to`, soonest first. */
export function retentionAlerts(db: Executor, organizationId: string, from: Date, to: Date, limit: number) {
  return db
    .selectFrom('matters')
    .select(['id', 'matterName', 'retentionExpiresAt'])
    .where('organizationId', '=', organizationId)
    .where('isVaulted', '=', true)
    .where('retentionExpiresAt', '>=', from)
    .where('retentionExpiresAt', '<=', to)
    .orderBy('retentionExpiresAt', 'asc')
    .orderBy('id', 'asc')
    .limit(limit)
    .execute();
}

/** Active members of the organization and the invitations still open (neither accepted, revoked nor expired). */
export async function userCounts(db: Executor, organizationId: string, now: Date) {
  const [users, invites] = await Promise.all([
    db
      .selectFrom('users')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('organizationId', '=', organizationId)
      .where('isActive', '=', true)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('invitations')
      .select(sql<number>`count(*)::int`.as('n'))
      .where('organizationId', '=', organizationId)
      .where('acceptedAt', 'is', null)
      .where('revokedAt', 'is', null)
      .where('expiresAt', '>', now)
      .executeTakeFirstOrThrow(),
  ]);
  return { activeUsers: users.n, pendingInvites: invites.n };
}

/** Past this many rows an organization's storage changes are folded into one when its figure is next read. */
const STORAGE_FOLD_ROWS = 64;

/**
 * Stored bytes: the files of matters not vaulted (hot), and the vault's objects still held (vaulted); a vaulted
 * matter's files count once, as vaulted objects. The figures are the sums of the organization's storage_usage
 * rows, which database triggers write in the transaction of every change to files, matters and vault objects.
 */
export async function storedBytes(db: Executor, organizationId: string) {
  const row = await db
    .selectFrom('storageUsage')
    .select([
      sql<string>`coalesce(sum(hot_bytes), 0)::text`.as('hot'),
      sql<string>`coalesce(sum(vaulted_bytes), 0)::text`.as('vaulted'),
      sql<number>`count(*)::int`.as('rows'),
    ])
    .where('organizationId', '=', organizationId)
    .executeTakeFirstOrThrow();
  if (row.rows > STORAGE_FOLD_ROWS) await foldStorageUsage(db, organizationId);
  return { hotBytes: Number(row.hot), vaultedBytes: Number(row.vaulted) };
}

/**
 * Replaces an organization's storage changes by their sum, in one statement: rows another transaction adds
 * meanwhile are not seen and stay, and a second fold at the same time deletes only what the first left, so the
 * sum is kept whatever runs beside it.
 */
export async function foldStorageUsage(db: Executor, organizationId: string): Promise<void> {
  await sql`with gone as (
      delete from storage_usage where organization_id = ${organizationId} returning hot_bytes, vaulted_bytes
    )
    insert into storage_usage (organization_id, hot_bytes, vaulted_bytes)
    select ${organizationId}, coalesce(sum(hot_bytes), 0), coalesce(sum(vaulted_bytes), 0) from gone having count(*) > 0`.execute(db);
}
