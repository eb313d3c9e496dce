import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { UsersTable } from '../../platform/db/schema.js';

/** A team member as the team calls read it: the user row (no secrets) with who changed it last and when they last signed in. */
export type MemberRow = Pick<
  Selectable<UsersTable>,
  | 'id'
  | 'publicId'
  | 'organizationId'
  | 'email'
  | 'fullName'
  | 'role'
  | 'permissions'
  | 'isActive'
  | 'mfaEnabled'
  | 'mfaPrimaryMethod'
  | 'version'
  | 'updatedAt'
  | 'updatedBy'
> & { updatedByName: string | null; lastSignInAt: Date | null; guestMatterCount: number };

function memberQuery(db: Executor, organizationId: string) {
  return db
    .selectFrom('users')
    .leftJoin('users as changer', (j) =>
      j.onRef('changer.id', '=', 'users.updatedBy').onRef('changer.organizationId', '=', 'users.organizationId'),
    )
    .select([
      'users.id',
      'users.publicId',
      'users.organizationId',
      'users.email',
      'users.fullName',
      'users.role',
      'users.permissions',
      'users.isActive',
      'users.mfaEnabled',
      'users.mfaPrimaryMethod',
      'users.version',
      'users.updatedAt',
      'users.updatedBy',
      'changer.fullName as updatedByName',
    ])
    .select((eb) => [
      eb
        .selectFrom('sessions')
        .select((s) => s.fn.max('sessions.createdAt').as('m'))
        .whereRef('sessions.userId', '=', 'users.id')
        .as('lastSignInAt'),
      eb
        .selectFrom('guestMatterGrants')
        .select(sql<number>`count(*)::int`.as('n'))
        .whereRef('guestMatterGrants.userId', '=', 'users.id')
        .where('guestMatterGrants.organizationId', '=', organizationId)
        .as('guestMatterCount'),
    ])
    .where('users.organizationId', '=', organizationId);
}

function shaped(
  row: Omit<MemberRow, 'lastSignInAt' | 'guestMatterCount'> & { lastSignInAt: unknown; guestMatterCount: unknown },
): MemberRow {
  return {
    ...row,
    lastSignInAt: row.lastSignInAt ? new Date(row.lastSignInAt as string | Date) : null,
    guestMatterCount: Number(row.guestMatterCount ?? 0),
  };
}

/** Every user of the organization, by name. */
export async function listMembers(db: Executor, organizationId: string): Promise<MemberRow[]> {
  const rows = await memberQuery(db, organizationId).orderBy('users.fullName').orderBy('users.id').execute();
  return rows.map(shaped);
}

/** One user of the organization by uuid; another organization's user is not found. */
export async function findMember(db: Executor, organizationId: string, publicId: string): Promise<MemberRow | undefined> {
  const row = await memberQuery(db, organizationId).where('users.publicId', '=', publicId).executeTakeFirst();
  return row ? shaped(row) : undefined;
}

/** Active administrators who can manage users, other than the one named. */
export async function countOtherActiveManagers(db: Executor, organizationId: string, exceptUserId: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organizationId', '=', organizationId)
    .where('id', '!=', exceptUserId)
    .where('isActive', '=', true)
    .where('role', '=', 'admin')
    .where(sql<boolean>`(permissions ->> 'canManageUsers')::boolean`)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---- Guest access -----------------------------------------------------------------------------------

export type GuestGrantRow = {
  userPublicId: string;
  matterId: string;
  matterName: string;
  matterNumber: string | null;
  grantedByName: string | null;
  grantedAt: Date;
  access: GuestAccess;
};

type GuestAccess = 'download' | 'view';

/** The matters shared with a guest, by matter name. */
export function listGuestGrants(db: Executor, organizationId: string, userId: number): Promise<GuestGrantRow[]> {
  return db
    .selectFrom('guestMatterGrants as g')
    .innerJoin('matters as m', (j) => j.onRef('m.id', '=', 'g.matterId').onRef('m.organizationId', '=', 'g.organizationId'))
    .innerJoin('users as u', (j) => j.onRef('u.id', '=', 'g.userId').onRef('u.organizationId', '=', 'g.organizationId'))
    .leftJoin('users as granter', (j) => j.onRef('granter.id', '=', 'g.grantedBy').onRef('granter.organizationId', '=', 'g.organizationId'))
    .select([
      'u.publicId as userPublicId',
      'g.matterId',
      'm.matterName',
      'm.matterNumber',
      'granter.fullName as grantedByName',
      'g.grantedAt',
      'g.access',
    ])
    .where('g.organizationId', '=', organizationId)
    .where('g.userId', '=', userId)
    .orderBy('m.matterName')
    .orderBy('g.matterId')
    .execute();
}

/**
 * Shares a matter with a guest, or changes the access of the grant when it was shared with another one. Answers
 * 'granted', 'changed' (with the access it had) or 'unchanged' (shared already with this access).
 */
export async function upsertGuestGrant(
  db: Executor,
  values: { organizationId: string; matterId: string; userId: number; grantedBy: number; access: GuestAccess },
): Promise<{ outcome: 'granted' } | { outcome: 'changed'; previous: GuestAccess } | { outcome: 'unchanged' }> {
  const inserted = await db
    .insertInto('guestMatterGrants')
    .values(values)
    .onConflict((oc) => oc.columns(['matterId', 'userId']).doNothing())
    .returning('matterId')
    .execute();
  if (inserted.length > 0) return { outcome: 'granted' };
  const before = await guestGrantAccess(db, values.organizationId, values.matterId, values.userId);
  if (before === null || before === values.access) return { outcome: 'unchanged' };
  await db
    .updateTable('guestMatterGrants')
    .set({ access: values.access })
    .where('organizationId', '=', values.organizationId)
    .where('matterId', '=', values.matterId)
    .where('userId', '=', values.userId)
    .execute();
  return { outcome: 'changed', previous: before };
}

/** The access of the guest's grant on the matter, or null when the matter is not shared with them. */
export async function guestGrantAccess(
  db: Executor,
  organizationId: string,
  matterId: string,
  userId: number,
): Promise<GuestAccess | null> {
  const row = await db
    .selectFrom('guestMatterGrants')
    .select('access')
    .where('organizationId', '=', organizationId)
    .where('matterId', '=', matterId)
    .where('userId', '=', userId)
    .executeTakeFirst();
  return row?.access ?? null;
}

/** Stops sharing a matter with a guest; answers false when it was not shared. */
export async function deleteGuestGrant(db: Executor, organizationId: string, matterId: string, userId: number): Promise<boolean> {
  const rows = await db
    .deleteFrom('guestMatterGrants')
    .where('organizationId', '=', organizationId)
    .where('matterId', '=', matterId)
    .where('userId', '=', userId)
    .returning('matterId')
    .execute();
  return rows.length > 0;
}

/** A user who stops being a guest keeps no grants (a guest made a user and later a guest again starts with none). */
export async function deleteAllGuestGrants(db: Executor, organizationId: string, userId: number): Promise<number> {
  const rows = await db
    .deleteFrom('guestMatterGrants')
    .where('organizationId', '=', organizationId)
    .where('userId', '=', userId)
    .returning('matterId')
    .execute();
  return rows.length;
}
