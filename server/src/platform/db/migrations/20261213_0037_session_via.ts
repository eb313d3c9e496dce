import { sql, type Kysely, type Migration } from 'kysely';

/**
 * How each session was opened: with the password (a recovery code's break-glass sign-in included), through the
 * organization's identity provider, or with a passkey alone. Switching Require SSO on ends the members' live
 * password sessions and needs to tell them apart. Sessions opened before this column existed were all password
 * sessions.
 */
export const sessionVia: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table sessions add column via text not null default 'password' check (via in ('password', 'sso', 'passkey'))`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>) {
    await sql`alter table sessions drop column if exists via`.execute(db);
  },
};
