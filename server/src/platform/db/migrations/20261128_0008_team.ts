import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Team administration.
 *
 * - users.updated_by: who last changed the account through team administration, so that a save refused for a
 *   stale version can say who changed the user and when.
 * - guest_matter_grants: the matters an administrator shares with a guest. A guest reads exactly these matters
 *   and nothing else; a grant goes with its matter or its guest.
 * - sessions gain an index by user and start, for the Team list's last sign-in of each user.
 */
const up: string[] = [
  `alter table users add column updated_by integer references users(id)`,
  `create table guest_matter_grants (
     organization_id uuid not null references organizations(id),
     matter_id uuid not null references matters(id) on delete cascade,
     user_id integer not null references users(id) on delete cascade,
     granted_by integer references users(id),
     granted_at timestamptz not null default now(),
     primary key (matter_id, user_id)
   )`,
  // A guest's matters, read on every call the guest makes.
  `create index guest_matter_grants_user on guest_matter_grants (user_id, matter_id)`,
  `create index sessions_user_started on sessions (user_id, created_at)`,
];

export const team: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of up) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const statement of [
      `drop index if exists sessions_user_started`,
      `drop table if exists guest_matter_grants`,
      `alter table users drop column if exists updated_by`,
    ]) {
      await sql.raw(statement).execute(db);
    }
  },
};
