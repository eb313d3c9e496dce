import type { Executor } from '../../platform/db/database.js';

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

/** The id of another user (of any organization: an address belongs to one account) holding the address. */
export async function findOtherUserWithEmail(db: Executor, email: string, userId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .where('id', '<>', userId)
    .executeTakeFirst();
  return row?.id;
}

const ORG_FIELDS = ['id', 'name', 'primaryContactName', 'primaryContactEmail', 'primaryContactPhone', 'defaultRetentionYears'] as const;

export function findOrganizationSettings(db: Executor, organizationId: string) {
  return db.selectFrom('organizations').select(ORG_FIELDS).where('id', '=', organizationId).executeTakeFirst();
}

/** The organization's settings row, locked for the rest of the transaction (one change at a time). */
export function lockOrganizationSettings(db: Executor, organizationId: string) {
  return db.selectFrom('organizations').select(ORG_FIELDS).where('id', '=', organizationId).forUpdate().executeTakeFirst();
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
  }>,
): Promise<void> {
  await db
    .updateTable('organizations')
    .set({ ...values, updatedAt: new Date() })
    .where('id', '=', organizationId)
    .execute();
}
