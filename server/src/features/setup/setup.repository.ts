import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';

/** The system setting that holds the hash of the one-time setup token. */
const SETUP_TOKEN_KEY = 'setup_token_hash';

/** Keeps the setup token's hash, replacing one kept before. */
export async function saveSetupTokenHash(db: Executor, tokenHash: string): Promise<void> {
  await db
    .insertInto('systemSettings')
    .values({ key: SETUP_TOKEN_KEY, value: tokenHash })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: tokenHash, updatedAt: new Date() }))
    .execute();
}

export async function findSetupTokenHash(db: Executor): Promise<string | null> {
  const row = await db.selectFrom('systemSettings').select('value').where('key', '=', SETUP_TOKEN_KEY).executeTakeFirst();
  return row?.value ?? null;
}

export async function deleteSetupTokenHash(db: Executor): Promise<void> {
  await db.deleteFrom('systemSettings').where('key', '=', SETUP_TOKEN_KEY).execute();
}

/** Serializes the creation of organizations for the rest of the caller's transaction (setup and CLI alike). */
export async function lockOrganizationSetup(trx: Executor): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext('strongroom.setup'))`.execute(trx);
}
