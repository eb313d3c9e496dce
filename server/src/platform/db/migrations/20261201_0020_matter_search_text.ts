import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The top bar's search reads a matter's searched fields (name, number, client, lawyer, description) as one
 * lower-cased text, joined by the unit separator (chr(31)), from one trigram index: a few index pages instead of
 * a scan of the organization's matters, for text anywhere in a field and for a field's first letters alike.
 * The search's query writes the same expression; the two must stay equal, character for character.
 *
 * Both trigram indexes the search reads are written through at once (fastupdate off): by default GIN queues new
 * entries in a pending list that every search then reads in full, which made a search that finds nothing cost
 * milliseconds per thousand recent rows. Matters and files are added one by one, at the pace of people's work,
 * so the slightly dearer insert costs nothing anyone feels. The queue already there is emptied here.
 */
export const matterSearchText: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create index if not exists matters_search_trgm on matters using gin ((lower(matter_name || chr(31) || coalesce(matter_number, '') || chr(31) || coalesce(client_name, '') || chr(31) || coalesce(responsible_lawyer, '') || chr(31) || coalesce(description, ''))) gin_trgm_ops) with (fastupdate = off)`.execute(
      db,
    );
    await sql`alter index nodes_name_trgm set (fastupdate = off)`.execute(db);
    await sql`select gin_clean_pending_list('nodes_name_trgm'::regclass)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`alter index if exists nodes_name_trgm reset (fastupdate)`.execute(db);
    await sql`drop index if exists matters_search_trgm`.execute(db);
  },
};
