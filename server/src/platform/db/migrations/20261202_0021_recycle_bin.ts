import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The recycle bin. Deleting a folder or a file no longer removes its rows: the item and everything below it are
 * marked with one bin entry (nodes.bin_entry_id), which records where the item was, who deleted it, when and
 * until when it is kept (purge_after). Every read of a matter's tree skips marked rows; a restore clears the mark;
 * the daily bin-purge job deletes the rows of entries past purge_after and queues their stored objects for
 * deletion. Names must be unique only among live items, so a new file may take the name of a binned one.
 *
 * organizations.bin_retention_days: how many days a deleted item stays in the bin (1-365, 30 unless changed).
 */
const up: string[] = [
  `alter table organizations add column bin_retention_days integer not null default 30
     check (bin_retention_days between 1 and 365)`,
  `create table bin_entries (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     matter_id uuid not null references matters(id),
     node_id uuid not null,
     original_parent_id uuid,
     original_path text not null,
     deleted_by integer references users(id),
     deleted_at timestamptz not null default now(),
     purge_after timestamptz not null,
     file_count integer not null,
     total_bytes bigint not null
   )`,
  `create index bin_entries_matter on bin_entries (matter_id, deleted_at desc)`,
  `create index bin_entries_purge on bin_entries (purge_after)`,
  `alter table nodes add column bin_entry_id uuid references bin_entries(id)`,
  `create index nodes_bin_entry on nodes (bin_entry_id) where bin_entry_id is not null`,
  `drop index nodes_name_unique`,
  // Names are unique within a folder (the root counts as one), ignoring case, among items not in the bin.
  `create unique index nodes_name_unique on nodes (matter_id, coalesce(parent_id, '00000000-0000-0000-0000-000000000000'::uuid), lower(name))
     where bin_entry_id is null`,
];

export const recycleBin: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of up) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const statement of [
      `delete from nodes where bin_entry_id is not null`,
      `drop index if exists nodes_name_unique`,
      `create unique index nodes_name_unique on nodes (matter_id, coalesce(parent_id, '00000000-0000-0000-0000-000000000000'::uuid), lower(name))`,
      `alter table nodes drop column if exists bin_entry_id`,
      `drop table if exists bin_entries`,
      `alter table organizations drop column if exists bin_retention_days`,
    ]) {
      await sql.raw(statement).execute(db);
    }
  },
};
