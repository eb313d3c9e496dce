import { sql, type Kysely, type Migration } from 'kysely';
import { FUNCTIONS as USAGE_FUNCTIONS, TRIGGERS as USAGE_TRIGGERS } from './20261201_0019_storage_usage.js';

/**
 * node_versions: every version a file has had. A version records the stored object it was uploaded as (objects
 * are write-once) with its size, type and sha256; the nodes row keeps mirroring the current version, and
 * nodes.current_version names it. Restoring an old version adds a new version that points at the old one's
 * object (restored_from_version says which), so nothing stored is ever overwritten or copied.
 *
 * upload_sessions.on_conflict: what an upload asked for when its name is taken ('newVersion', 'keepBoth').
 *
 * Storage Used (storage_usage, migration 0019) now counts versions instead of nodes: each stored object once,
 * so a version that shares a restored object is not counted again. matter_id is kept on the version so that its
 * deletion (a cascade from its file) still knows whether its matter is vaulted.
 */
const FUNCTIONS = [
  `create function storage_usage_versions_insert() returns trigger language plpgsql as $$
   begin
     insert into storage_usage (organization_id, hot_bytes, vaulted_bytes)
       select n.organization_id, sum(n.file_size), 0 from new_versions n join matters m on m.id = n.matter_id
       where n.restored_from_version is null and not m.is_vaulted
       group by n.organization_id having sum(n.file_size) <> 0;
     return null;
   end $$`,
  `create function storage_usage_versions_delete() returns trigger language plpgsql as $$
   begin
     insert into storage_usage (organization_id, hot_bytes, vaulted_bytes)
       select o.organization_id, -sum(o.file_size), 0 from old_versions o join matters m on m.id = o.matter_id
       where o.restored_from_version is null and not m.is_vaulted
       group by o.organization_id having sum(o.file_size) <> 0;
     return null;
   end $$`,
  // A matter vaulted: its versions leave hot (they are counted as vault objects); a matter leaving the vault: back.
  `create or replace function storage_usage_matters_update() returns trigger language plpgsql as $$
   begin
     insert into storage_usage (organization_id, hot_bytes, vaulted_bytes)
       select c.organization_id, sum(case when c.now_vaulted then -v.file_size else v.file_size end), 0
       from (
         select n.id, n.organization_id, n.is_vaulted as now_vaulted from new_matters n
         join old_matters o on o.id = n.id where n.is_vaulted <> o.is_vaulted
       ) c
       join node_versions v on v.matter_id = c.id and v.restored_from_version is null
       group by c.organization_id having sum(v.file_size) <> 0;
     return null;
   end $$`,
];

const TRIGGERS = [
  `create trigger storage_usage_versions_insert after insert on node_versions referencing new table as new_versions
     for each statement execute function storage_usage_versions_insert()`,
  `create trigger storage_usage_versions_delete after delete on node_versions referencing old table as old_versions
     for each statement execute function storage_usage_versions_delete()`,
];

/** The node triggers of migration 0019, replaced by the version triggers above. */
const NODE_TRIGGERS = ['storage_usage_nodes_insert', 'storage_usage_nodes_delete', 'storage_usage_nodes_update'];

export const nodeVersions: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create table node_versions (
      id uuid primary key default gen_random_uuid(),
      organization_id uuid not null references organizations(id),
      matter_id uuid not null,
      node_id uuid not null references nodes(id) on delete cascade,
      version_number int not null check (version_number > 0),
      file_size bigint not null,
      mime_type text,
      sha256_hash text,
      storage_path text not null,
      created_by int references users(id),
      created_at timestamptz not null default now(),
      restored_from_version int,
      unique (node_id, version_number)
    )`.execute(db);
    await sql`create index node_versions_storage_path on node_versions (storage_path)`.execute(db);
    await sql`create index node_versions_matter on node_versions (matter_id)`.execute(db);
    await sql`alter table nodes add column current_version int`.execute(db);
    await sql`alter table upload_sessions add column on_conflict text check (on_conflict in ('newVersion', 'keepBoth'))`.execute(db);
    // Every file as it stands becomes its version 1 (before the triggers: these bytes are counted already).
    await sql`insert into node_versions (organization_id, matter_id, node_id, version_number, file_size, mime_type,
        sha256_hash, storage_path, created_by, created_at)
      select organization_id, matter_id, id, 1, coalesce(file_size, 0), mime_type, sha256_hash, storage_path, created_by, created_at
      from nodes where node_type = 'file' and storage_path is not null`.execute(db);
    await sql`update nodes set current_version = 1 where node_type = 'file' and storage_path is not null`.execute(db);
    for (const name of NODE_TRIGGERS) await sql.raw(`drop trigger ${name} on nodes`).execute(db);
    for (const name of NODE_TRIGGERS) await sql.raw(`drop function ${name}()`).execute(db);
    for (const statement of [...FUNCTIONS, ...TRIGGERS]) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop trigger if exists storage_usage_versions_insert on node_versions`.execute(db);
    await sql`drop trigger if exists storage_usage_versions_delete on node_versions`.execute(db);
    await sql`drop function if exists storage_usage_versions_insert()`.execute(db);
    await sql`drop function if exists storage_usage_versions_delete()`.execute(db);
    await sql`drop table if exists node_versions`.execute(db);
    await sql`alter table nodes drop column if exists current_version`.execute(db);
    await sql`alter table upload_sessions drop column if exists on_conflict`.execute(db);
    // Storage Used counts nodes again, as migration 0019 made it.
    const ofNodes = (s: string) => / on nodes | storage_usage_nodes_| storage_usage_matters_update\(\)/.test(s);
    for (const statement of USAGE_FUNCTIONS.filter(ofNodes))
      await sql.raw(statement.replace('create function', 'create or replace function')).execute(db);
    for (const statement of USAGE_TRIGGERS.filter((s) => s.includes(' on nodes '))) await sql.raw(statement).execute(db);
  },
};
