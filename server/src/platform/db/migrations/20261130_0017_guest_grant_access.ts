import { sql, type Kysely, type Migration } from 'kysely';

/**
 * guest_matter_grants.access: what a guest may do with the files of a matter shared with them, chosen by the
 * administrator per grant. 'download' (the default, and what every grant made before this column allowed) lets
 * the guest download the files; 'view' lists them only.
 */
export const guestGrantAccess: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table guest_matter_grants
      add column access text not null default 'download' check (access in ('download', 'view'))`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`alter table guest_matter_grants drop column if exists access`.execute(db);
  },
};
