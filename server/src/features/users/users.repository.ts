import { sql, type Selectable } from 'kysely';
import type { Permissions, Role } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import type { OrganizationsTable, UsersTable } from '../../platform/db/schema.js';

export type UserRow = Selectable<UsersTable>;
/** The organization as a session carries it (the recycle bin's days are read where a delete needs them). */
export type OrganizationRow = Omit<Selectable<OrganizationsTable>, 'binRetentionDays'>;

export function findUserByEmail(db: Executor, email: string) {
  return db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

export function findUserById(db: Executor, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Locks the user's row for the rest of the transaction (MFA step counters, password changes). */
export function lockUser(db: Executor, id: number) {
  return db.selectFrom('users').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function findOrganization(db: Executor, id: string) {
  return db.selectFrom('organizations').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insertUser(
  db: Executor,
  values: Pick<UserRow, 'organizationId' | 'email' | 'fullName' | 'passwordHash' | 'role' | 'permissions'>,
) {
  return db
    .insertInto('users')
    .values({
      ...values,
      permissions: JSON.stringify(values.permissions),
      phoneNumber: null,
      mfaPrimaryMethod: null,
      totpSecret: null,
      totpPendingSecret: null,
      totpLastUsedStep: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function updateUser(db: Executor, id: number, changes: Partial<Omit<UserRow, 'id' | 'publicId' | 'organizationId' | 'createdAt'>>) {
  const { permissions, ...rest } = changes;
  return db
    .updateTable('users')
    .set({ ...rest, ...(permissions ? { permissions: JSON.stringify(permissions) } : {}), updatedAt: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The TOTP state a code check keeps (its step, a secret written back encrypted); not a profile change, so updatedAt stays. */
export function setTotpState(db: Executor, id: number, changes: Partial<Pick<UserRow, 'totpSecret' | 'totpLastUsedStep'>>) {
  return db.updateTable('users').set(changes).where('id', '=', id).execute();
}

export async function countOrganizations(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('organizations')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export function insertOrganization(db: Executor, values: { name: string; primaryContactName: string; primaryContactEmail: string }) {
  return db
    .insertInto('organizations')
    .values({ ...values, primaryContactPhone: null })
    .returning(['id', 'name'])
    .executeTakeFirstOrThrow();
}

/**
 * Locks the organization's row for the rest of the transaction; answers false when there is no such row. Every
 * change of a user's role, status or permissions takes it first (so two administrators demoting each other run
 * one after the other and the second sees the first's result when it counts the remaining administrators), and
 * so do flag changes, one organization at a time.
 */
export async function lockOrganization(db: Executor, organizationId: string): Promise<boolean> {
  const row = await db.selectFrom('organizations').select('id').where('id', '=', organizationId).forUpdate().executeTakeFirst();
  return row !== undefined;
}

const ORG_SETTINGS_FIELDS = [
  'id',
  'name',
  'primaryContactName',
  'primaryContactEmail',
  'primaryContactPhone',
  'defaultRetentionYears',
  'binRetentionDays',
] as const;

/** The organization's settings row, locked for the rest of the transaction (one change at a time). */
export function lockOrganizationSettings(db: Executor, organizationId: string) {
  return db.selectFrom('organizations').select(ORG_SETTINGS_FIELDS).where('id', '=', organizationId).forUpdate().executeTakeFirst();
}

export async function updateOrganizationSettings(
  db: Executor,
  organizationId: string,
  values: Partial<{
    name: string;
    primaryContactName: string;
    primaryContactEmail: string;
    primaryContactPhone: string;
    defaultRetentionYears: number;
    binRetentionDays: number;
  }>,
): Promise<void> {
  await db
    .updateTable('organizations')
    .set({ ...values, updatedAt: new Date() })
    .where('id', '=', organizationId)
    .execute();
}

/**
 * The organization's own storage quota (organizations.storage_quota_bytes; null: none of its own), with its
 * row locked until the transaction ends when `lock` is set. Read apart from the organization's typed row,
 * which only the uploads feature needs.
 */
export async function organizationQuota(db: Executor, organizationId: string, lock = false): Promise<{ storageQuotaBytes: string | null }> {
  const { rows } = lock
    ? await sql<{
        quota: string | null;
      }>`select storage_quota_bytes::text as quota from organizations where id = ${organizationId} for update`.execute(db.withoutPlugins())
    : await sql<{
        quota: string | null;
      }>`select storage_quota_bytes::text as quota from organizations where id = ${organizationId}`.execute(db.withoutPlugins());
  return { storageQuotaBytes: rows[0]?.quota ?? null };
}

/** Sets an organization's own storage quota (null: the server default). */
export async function setOrganizationQuota(db: Executor, organizationId: string, bytes: number | null): Promise<void> {
  await sql`update organizations set storage_quota_bytes = ${bytes} where id = ${organizationId}`.execute(db.withoutPlugins());
}

/** The signed-in user's own profile row, locked for the rest of the transaction. */
export function lockProfile(db: Executor, organizationId: string, userId: number) {
  return db
    .selectFrom('users')
    .select(['id', 'fullName', 'email', 'phoneNumber'])
    .where('organizationId', '=', organizationId)
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateProfile(
  db: Executor,
  organizationId: string,
  userId: number,
  values: { fullName: string; email: string; phoneNumber: string | null },
): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...values, updatedAt: new Date() })
    .where('organizationId', '=', organizationId)
    .where('id', '=', userId)
    .execute();
}

/** The user's row, locked (after the organization's), by uuid within the organization. */
export function lockMember(db: Executor, organizationId: string, publicId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'publicId', 'role', 'permissions', 'isActive', 'mfaEnabled', 'mfaPrimaryMethod', 'version', 'fullName', 'email'])
    .where('organizationId', '=', organizationId)
    .where('publicId', '=', publicId)
    .forUpdate()
    .executeTakeFirst();
}
export type LockedMember = NonNullable<Awaited<ReturnType<typeof lockMember>>>;

export type MemberChanges = { role?: Role; isActive?: boolean; permissions?: Permissions };

/** Applies a change and raises the version by one; the caller holds the row lock and checked the version. */
export async function updateMember(db: Executor, organizationId: string, userId: number, changes: MemberChanges, changedBy: number) {
  const { permissions, ...rest } = changes;
  await db
    .updateTable('users')
    .set({
      ...rest,
      ...(permissions ? { permissions: JSON.stringify(permissions) } : {}),
      version: sql<number>`version + 1`,
      updatedAt: new Date(),
      updatedBy: changedBy,
    })
    .where('organizationId', '=', organizationId)
    .where('id', '=', userId)
    .execute();
}

/** Removes the authenticator: the user signs in with emailed codes from now on. */
export async function clearAuthenticator(db: Executor, organizationId: string, userId: number, changedBy: number): Promise<void> {
  await db
    .updateTable('users')
    .set({
      totpSecret: null,
      totpPendingSecret: null,
      totpLastUsedStep: null,
      mfaPrimaryMethod: 'email',
      version: sql<number>`version + 1`,
      updatedAt: new Date(),
      updatedBy: changedBy,
    })
    .where('organizationId', '=', organizationId)
    .where('id', '=', userId)
    .execute();
}
