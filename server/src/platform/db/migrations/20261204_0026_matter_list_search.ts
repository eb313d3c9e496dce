import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The matters list's search looks for text anywhere in a matter's name, number, client or description, ignoring
 * case. Those four fields are kept here once more as one lower-cased text (list_search_text, joined by the unit
 * separator chr(31), computed by the database on every write) with a trigram index: a search reads a few index
 * pages and then compares each candidate with one plain `like`, instead of four case-folding `ilike`s per matter.
 * At a large firm's size a broad word ("agreement", a quarter of the matters) made the list's count fold the
 * case of four fields for every matter it read, which took most of the answer's time.
 *
 * The index is written through at once (fastupdate off), as the top bar's search index is: a pending list would
 * be read in full by every search.
 */
export const matterListSearch: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`alter table matters add column list_search_text text not null generated always as (lower(matter_name || chr(31) || coalesce(matter_number, '') || chr(31) || coalesce(client_name, '') || chr(31) || coalesce(description, ''))) stored`.execute(
      db,
    );
    await sql`create index matters_list_search_trgm on matters using gin (list_search_text gin_trgm_ops) with (fastupdate = off)`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>) {
    await sql`drop index if exists matters_list_search_trgm`.execute(db);
    await sql`alter table matters drop column if exists list_search_text`.execute(db);
  },
};
