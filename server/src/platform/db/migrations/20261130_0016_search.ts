import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The top bar's search finds files and folders by any part of their name across every matter a user may see:
 * ILIKE '%text%' over nodes.name, served by a trigram index (the matters' columns have theirs since the matters
 * migration). pg_trgm is created by the foundation already; asking again keeps this migration self-contained.
 */
export const search: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`create index if not exists nodes_name_trgm on nodes using gin (name gin_trgm_ops)`.execute(db);
    // Names that start with the text (every match of one or two characters, the first tier of a broad search): a
    // range of this index, read in its order.
    await sql`create index if not exists nodes_org_name_prefix on nodes (organization_id, lower(name) text_pattern_ops)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index if exists nodes_org_name_prefix`.execute(db);
    await sql`drop index if exists nodes_name_trgm`.execute(db);
  },
};
