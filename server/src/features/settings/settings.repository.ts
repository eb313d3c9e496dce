import type { Executor } from '../../platform/db/database.js';

// Reads only: the users feature writes the users and organizations tables (settings saves through its operations).

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

const ORG_FIELDS = [
  'id',
  'name',
  'primaryContactName',
  'primaryContactEmail',
  'primaryContactPhone',
  'defaultRetentionYears',
  'binRetentionDays',
] as const;

export function findOrganizationSettings(db: Executor, organizationId: string) {
  return db.selectFrom('organizations').select(ORG_FIELDS).where('id', '=', organizationId).executeTakeFirst();
}
