import { sql, type Kysely, type Migration } from 'kysely';

/**
 * vault_objects.version_number: the vault holds every version of a file, each as its own object under the lock,
 * so a file has one vault object per version (unique by node and version instead of by node). The objects vaulted
 * before versions went into the vault are the version their key is recorded with (the current one when they were
 * vaulted), else version 1.
 */
export const vaultVersions: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table vault_objects add column version_number int not null default 1 check (version_number > 0)`.execute(db);
    await sql`update vault_objects o set version_number = coalesce(
        (select max(v.version_number) from node_versions v where v.node_id = o.node_id and v.storage_path = o.object_key),
        (select n.current_version from nodes n where n.id = o.node_id),
        1)`.execute(db);
    await sql`alter table vault_objects drop constraint vault_objects_node_id_key`.execute(db);
    await sql`alter table vault_objects add constraint vault_objects_node_version_key unique (node_id, version_number)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`alter table vault_objects drop constraint if exists vault_objects_node_version_key`.execute(db);
    await sql`delete from vault_objects o where exists (select 1 from vault_objects x where x.node_id = o.node_id and x.version_number > o.version_number)`.execute(
      db,
    );
    await sql`alter table vault_objects add constraint vault_objects_node_id_key unique (node_id)`.execute(db);
    await sql`alter table vault_objects drop column if exists version_number`.execute(db);
  },
};
