import { sql, type Kysely, type Migration } from 'kysely';

/**
 * storage_usage: a running total of each organization's stored bytes, so that Storage Used is read from a few
 * rows instead of summed over every file at read time.
 *
 * The rows are signed changes (hot_bytes: the files of matters not vaulted; vaulted_bytes: the vault's objects
 * still held), and an organization's figure is the sum of its rows. The database writes them itself, in the
 * transaction of the change, from statement triggers on nodes, matters and vault_objects: every path that adds,
 * deletes or vaults a file (uploads, deletion, vaulting, retention end, whatever comes later) is counted without
 * its code knowing, and no row is ever updated, so concurrent uploads never wait on a shared counter. The reader
 * folds an organization's rows into one from time to time (a delete and an insert in one statement, which keeps
 * the sum whatever runs beside it).
 *
 * The migration backfills one row per organization from the sums the dashboard used to compute at read time.
 */
export const FUNCTIONS = [
  // Files inserted, changed or deleted: their sizes count as hot while their matter is not vaulted.
  `create function storage_usage_nodes_insert() returns trigger language plpgsql as $$
   begin
     insert into storage_usage (organization_id, hot_bytes, vaulted_bytes)
       select n.organization_id, sum(n.file_size), 0 from new_nodes n join matters m on m.id = n.matter_id
       where n.node_type = 'file' and n.file_size is not null and not m.is_vaulted
       group by n.organization_id having sum(n.file_size) <> 0;
     return null;
   end $$`,
  `create function storage_usage_nodes_delete() returns trigger language plpgsql as $$
   begin
     insert into storage_usage (organization_id, hot_bytes, vaulted_bytes)
       select o.organization_id, -sum(o.file_size), 0 from old_nodes o join matters m on m.id = o.matter_id
       where o.node_type = 'file' and o.file_size is not null and not m.is_vaulted
       group by o.organization_id having sum(o.file_size) <> 0;
     return null;
   end $$`,
  `create function storage_usage_nodes_update() returns trigger language plpgsql as $$
   begin
     insert into storage_usage (organization_id, hot_bytes, vaulted_bytes)
       select d.organization_id, sum(d.bytes), 0 from (
         select n.organization_id, n.file_size as bytes from new_nodes n join matters m on m.id = n.matter_id
           where n.node_type = 'file' and n.file_size is not null and not m.is_vaulted
         union all
         select o.organization_id, -o.file_size from old_nodes o join matters m on m.id = o.matter_id
           where o.node_type = 'file' and o.file_size is not null and not m.is_vaulted
       ) d group by d.organization_id having sum(d.bytes) <> 0;
     return null;
   end $$`,
  // A matter vaulted: its files leave hot (they are counted as vault objects); a matter leaving the vault: back.
  `create function storage_usage_matters_update() returns trigger language plpgsql as $$
   begin
     insert into storage_usage (organization_id, hot_bytes, vaulted_bytes)
       select c.organization_id, sum(case when c.now_vaulted then -f.file_size else f.file_size end), 0
       from (
         select n.id, n.organization_id, n.is_vaulted as now_vaulted from new_matters n
         join old_matters o on o.id = n.id where n.is_vaulted <> o.is_vaulted
       ) c
       join nodes f on f.matter_id = c.id and f.node_type = 'file' and f.file_size is not null
       group by c.organization_id having sum(f.file_size) <> 0;
     return null;
   end $$`,
  // Vault objects: their sizes count while their state is 'vaulted'.
  `create function storage_usage_vault_objects_insert() returns trigger language plpgsql as $$
   begin
     insert into storage_usage (organization_id, hot_bytes, vaulted_bytes)
       select organization_id, 0, sum(size) from new_objects where state = 'vaulted'
       group by organization_id having sum(size) <> 0;
     return null;
   end $$`,
  `create function storage_usage_vault_objects_delete() returns trigger language plpgsql as $$
   begin
     insert into storage_usage (organization_id, hot_bytes, vaulted_bytes)
       select organization_id, 0, -sum(size) from old_objects where state = 'vaulted'
       group by organization_id having sum(size) <> 0;
     return null;
   end $$`,
  `create function storage_usage_vault_objects_update() returns trigger language plpgsql as $$
   begin
     insert into storage_usage (organization_id, hot_bytes, vaulted_bytes)
       select d.organization_id, 0, sum(d.bytes) from (
         select organization_id, size as bytes from new_objects where state = 'vaulted'
         union all
         select organization_id, -size from old_objects where state = 'vaulted'
       ) d group by d.organization_id having sum(d.bytes) <> 0;
     return null;
   end $$`,
];

export const TRIGGERS = [
  `create trigger storage_usage_nodes_insert after insert on nodes referencing new table as new_nodes
     for each statement execute function storage_usage_nodes_insert()`,
  `create trigger storage_usage_nodes_delete after delete on nodes referencing old table as old_nodes
     for each statement execute function storage_usage_nodes_delete()`,
  `create trigger storage_usage_nodes_update after update on nodes referencing old table as old_nodes new table as new_nodes
     for each statement execute function storage_usage_nodes_update()`,
  `create trigger storage_usage_matters_update after update on matters referencing old table as old_matters new table as new_matters
     for each statement execute function storage_usage_matters_update()`,
  `create trigger storage_usage_vault_objects_insert after insert on vault_objects referencing new table as new_objects
     for each statement execute function storage_usage_vault_objects_insert()`,
  `create trigger storage_usage_vault_objects_delete after delete on vault_objects referencing old table as old_objects
     for each statement execute function storage_usage_vault_objects_delete()`,
  `create trigger storage_usage_vault_objects_update after update on vault_objects referencing old table as old_objects new table as new_objects
     for each statement execute function storage_usage_vault_objects_update()`,
];

const TRIGGER_TABLES: [string, string][] = [
  ['storage_usage_nodes_insert', 'nodes'],
  ['storage_usage_nodes_delete', 'nodes'],
  ['storage_usage_nodes_update', 'nodes'],
  ['storage_usage_matters_update', 'matters'],
  ['storage_usage_vault_objects_insert', 'vault_objects'],
  ['storage_usage_vault_objects_delete', 'vault_objects'],
  ['storage_usage_vault_objects_update', 'vault_objects'],
];

export const storageUsage: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create table storage_usage (
      id bigserial primary key,
      organization_id uuid not null references organizations(id),
      hot_bytes bigint not null,
      vaulted_bytes bigint not null
    )`.execute(db);
    await sql`create index storage_usage_organization on storage_usage (organization_id) include (hot_bytes, vaulted_bytes)`.execute(db);
    for (const statement of [...FUNCTIONS, ...TRIGGERS]) await sql.raw(statement).execute(db);
    // The figures as they stand, one row per organization holding anything (the triggers count from here on).
    await sql`insert into storage_usage (organization_id, hot_bytes, vaulted_bytes)
      select o.id,
        coalesce((select sum(n.file_size) from nodes n join matters m on m.id = n.matter_id
                  where n.organization_id = o.id and n.node_type = 'file' and not m.is_vaulted), 0),
        coalesce((select sum(v.size) from vault_objects v where v.organization_id = o.id and v.state = 'vaulted'), 0)
      from organizations o`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const [name, table] of TRIGGER_TABLES) await sql.raw(`drop trigger if exists ${name} on ${table}`).execute(db);
    for (const [name] of TRIGGER_TABLES) await sql.raw(`drop function if exists ${name}()`).execute(db);
    await sql`drop table if exists storage_usage`.execute(db);
  },
};
