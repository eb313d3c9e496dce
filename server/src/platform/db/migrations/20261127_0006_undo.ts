import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Undo entries: one row per change that can be taken back, kept in PostgreSQL so every app instance sees it.
 * A row names its kind (node.rename, node.move, matter.update; team administration adds its own), the object it
 * changed, the version the change left that object at and the fields as they were before (jsonb). It lasts until
 * expires_at and is used at most once (used_at).
 *
 * Nodes gain a version that every update of the row raises (a trigger, so no writer can forget it): an undo of a
 * rename or move applies only while the node is still at the version the change produced.
 */
const up: string[] = [
  `create table undo_entries (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     user_id integer not null references users(id),
     kind text not null check (char_length(kind) between 1 and 64),
     target_id text not null,
     version integer not null,
     before jsonb not null,
     created_at timestamptz not null default now(),
     expires_at timestamptz not null,
     used_at timestamptz
   )`,
  // A user's entries, for the sweep of their expired ones at each new change.
  `create index undo_entries_user_expiry on undo_entries (user_id, expires_at)`,
  `alter table nodes add column version integer not null default 1`,
  `create function nodes_bump_version() returns trigger language plpgsql as $$
   begin
     new.version := old.version + 1;
     return new;
   end
   $$`,
  `create trigger nodes_bump_version before update on nodes for each row execute function nodes_bump_version()`,
];

export const undo: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of up) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const statement of [
      `drop trigger if exists nodes_bump_version on nodes`,
      `drop function if exists nodes_bump_version()`,
      `alter table nodes drop column if exists version`,
      `drop table if exists undo_entries`,
    ]) {
      await sql.raw(statement).execute(db);
    }
  },
};
