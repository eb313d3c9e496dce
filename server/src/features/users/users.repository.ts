import type { Selectable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { OrganizationsTable, UsersTable } from '../../platform/db/schema.js';

export type UserRow = Selectable<UsersTable>;
export type OrganizationRow = Selectable<OrganizationsTable>;

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
