import { sql, type Kysely, type Migration } from 'kysely';

/**
 * A matter's folders without its files: the workspace opens on every folder of the matter and the files of one
 * folder only, so the folders are read from a small partial index rather than by reading the whole matter.
 */
export const matterFolders: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create index if not exists nodes_matter_folders on nodes (matter_id) where node_type = 'folder' and bin_entry_id is null`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index if exists nodes_matter_folders`.execute(db);
  },
};
