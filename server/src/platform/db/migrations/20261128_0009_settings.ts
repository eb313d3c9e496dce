import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Recovery codes: one row per one-time code a user may give at the second step of signing in instead of an
 * authenticator code. Only a keyed hash of each code is kept (the codes are random, so a keyed sha256 suffices);
 * a code is spent by setting used_at, once. A new set replaces the old one (the old rows are deleted).
 */
const up: string[] = [
  `create table mfa_recovery_codes (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     user_id integer not null references users(id) on delete cascade,
     code_hash text not null,
     created_at timestamptz not null default now(),
     used_at timestamptz
   )`,
  `create unique index mfa_recovery_codes_hash on mfa_recovery_codes (user_id, code_hash)`,
];

export const settings: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of up) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql.raw(`drop table if exists mfa_recovery_codes`).execute(db);
  },
};
