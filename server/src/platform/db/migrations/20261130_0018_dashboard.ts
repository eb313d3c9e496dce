import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The dashboard's figures read indexes alone instead of whole tables: the organization's stored file bytes
 * (every file node's size, the vaulted matters' files by matter, and the vault's held objects' sizes, as
 * index-only sums) and its matters under legal hold (a count of a small partial index).
 */
export const dashboard: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create index if not exists nodes_org_file_bytes on nodes (organization_id) include (file_size) where node_type = 'file'`.execute(
      db,
    );
    await sql`create index if not exists nodes_matter_file_bytes on nodes (matter_id) include (file_size) where node_type = 'file'`.execute(
      db,
    );
    await sql`create index if not exists vault_objects_org_held_bytes on vault_objects (organization_id) include (size) where state = 'vaulted'`.execute(
      db,
    );
    await sql`create index if not exists matters_org_held on matters (organization_id) where legal_hold`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index if exists matters_org_held`.execute(db);
    await sql`drop index if exists vault_objects_org_held_bytes`.execute(db);
    await sql`drop index if exists nodes_matter_file_bytes`.execute(db);
    await sql`drop index if exists nodes_org_file_bytes`.execute(db);
  },
};
