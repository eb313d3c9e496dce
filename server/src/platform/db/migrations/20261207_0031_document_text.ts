import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Document search: the text of every file version, read after upload by a background job, and its words indexed.
 *
 * file_texts: one row per file version (created 'pending' with the version, in the same transaction), deleted with
 * its version (the recycle bin's purge and a matter's deletion remove the text; a legal hold, which keeps the
 * version, keeps the text), and when the vault destroys the version's object at the end of its retention. body holds the text, pages separated by a form feed (chr 12); tsv holds
 * the words of the file's name (weight A) and of the body (weight B) in the row's language, so a file whose text
 * could not be read is still found by its name. The primary key leads with the organization, ready for
 * partitioning by it.
 *
 * search_settings: an organization's text search configuration (the language words are stemmed in) and the
 * languages scanned pages are read in; an organization without a row uses English for both.
 *
 * A pending row is claimed by the background job that reads it (claim_job, until claimed_until): a job retried
 * after its process died takes its own claim back at once, any other waits for the claim to lapse, and only the
 * claiming job's answer is written, so each version's text is written once.
 *
 * search_reindex_runs: an administrator's re-index of the organization's documents and its progress.
 */
const FUNCTIONS = [
  // Text as words are read from it: a dot or slash between letters ('brief.pdf', 'and/or') is followed by a zero-width
  // space, so the parser reads two words where it would read one file name or path. Queries, texts and snippets go
  // through it alike; the snippet drops the space again.
  `create function search_words(body text) returns text language sql immutable parallel safe
     as $$ select regexp_replace(body, '([[:alpha:]][./])(?=[[:alpha:]])', '\\1\u200B', 'g') $$`,
  // A file's name as words: as written, and with its punctuation as spaces, so 'lease_v2.pdf' is found by 'lease'.
  `create function file_name_words(name text) returns text language sql immutable parallel safe
     as $$ select name || ' ' || regexp_replace(name, '[[:punct:]]+', ' ', 'g') $$`,
  // A new version gets its pending row; a restored version shares the object, and so the text, of the one it restored.
  `create function file_texts_version_insert() returns trigger language plpgsql as $$
   declare
     lang text;
     file_name text;
   begin
     if new.restored_from_version is not null then
       insert into file_texts (organization_id, version_id, node_id, matter_id, version_number, state, reason, language,
                               body, ocr, truncated, tsv, extracted_at)
         select new.organization_id, new.id, new.node_id, new.matter_id, new.version_number, t.state, t.reason, t.language,
                t.body, t.ocr, t.truncated, t.tsv, t.extracted_at
         from file_texts t
         where t.node_id = new.node_id and t.version_number = new.restored_from_version and t.state <> 'pending';
       if found then return null; end if;
     end if;
     lang := coalesce((select s.language from search_settings s where s.organization_id = new.organization_id), 'english');
     select n.name into file_name from nodes n where n.id = new.node_id;
     insert into file_texts (organization_id, version_id, node_id, matter_id, version_number, language, tsv)
       values (new.organization_id, new.id, new.node_id, new.matter_id, new.version_number, lang,
               setweight(to_tsvector(lang::regconfig, file_name_words(coalesce(file_name, ''))), 'A'));
     return null;
   end $$`,
  // A renamed file is found by its new name: the name's words (weight A) are replaced, the text's (B) kept.
  `create function file_texts_node_rename() returns trigger language plpgsql as $$
   begin
     update file_texts set tsv = setweight(to_tsvector(language::regconfig, file_name_words(new.name)), 'A') || ts_filter(tsv, '{b}')
       where node_id = new.id;
     return null;
   end $$`,
  // A vaulted file destroyed at the end of its retention keeps its row in the tree as a record; its text goes.
  `create function file_texts_vault_destroyed() returns trigger language plpgsql as $$
   begin
     delete from file_texts where node_id = new.node_id and version_number = new.version_number;
     return null;
   end $$`,
];

const TRIGGERS = [
  `create trigger file_texts_version_insert after insert on node_versions for each row execute function file_texts_version_insert()`,
  `create trigger file_texts_node_rename after update of name on nodes for each row
     when (old.name is distinct from new.name and new.node_type = 'file') execute function file_texts_node_rename()`,
  `create trigger file_texts_vault_destroyed after update of state on vault_objects for each row
     when (new.state = 'destroyed' and old.state is distinct from 'destroyed') execute function file_texts_vault_destroyed()`,
];

export const documentText: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create table search_settings (
      organization_id uuid primary key references organizations (id) on delete cascade,
      language text not null default 'english',
      ocr_languages jsonb not null default '["eng"]',
      updated_at timestamptz not null default now()
    )`.execute(db);
    await sql`create table file_texts (
      organization_id uuid not null references organizations (id) on delete cascade,
      version_id uuid not null references node_versions (id) on delete cascade,
      node_id uuid not null references nodes (id) on delete cascade,
      matter_id uuid not null references matters (id) on delete cascade,
      version_number integer not null,
      state text not null default 'pending' check (state in ('pending', 'indexed', 'no_text', 'failed')),
      reason text,
      language text not null,
      body text,
      ocr boolean not null default false,
      truncated boolean not null default false,
      tsv tsvector not null,
      attempts integer not null default 0,
      claim_job text,
      claimed_until timestamptz,
      queued_at timestamptz not null default now(),
      extracted_at timestamptz,
      primary key (organization_id, version_id)
    )`.execute(db);
    await sql`create unique index file_texts_version on file_texts (version_id)`.execute(db);
    await sql`create index file_texts_node on file_texts (node_id)`.execute(db);
    await sql`create index file_texts_tsv on file_texts using gin (tsv)`.execute(db);
    // The names' words alone: a broad search still ranks every file whose name matches first.
    await sql`create index file_texts_name_tsv on file_texts using gin (ts_filter(tsv, '{a}'))`.execute(db);
    await sql`create index file_texts_pending on file_texts (queued_at) where state = 'pending'`.execute(db);
    await sql`create table search_reindex_runs (
      id uuid primary key default gen_random_uuid(),
      organization_id uuid not null references organizations (id) on delete cascade,
      started_by integer,
      started_at timestamptz not null default now(),
      finished_at timestamptz,
      since timestamptz,
      total integer not null,
      done integer not null default 0
    )`.execute(db);
    await sql`create unique index search_reindex_runs_running on search_reindex_runs (organization_id) where finished_at is null`.execute(
      db,
    );
    for (const f of FUNCTIONS) await sql.raw(f).execute(db);
    for (const t of TRIGGERS) await sql.raw(t).execute(db);
    // Files stored before document search: each version's row, pending, for the background job to read.
    await sql`insert into file_texts (organization_id, version_id, node_id, matter_id, version_number, language, tsv)
      select v.organization_id, v.id, v.node_id, v.matter_id, v.version_number, 'english',
             setweight(to_tsvector('english', file_name_words(n.name)), 'A')
      from node_versions v join nodes n on n.id = v.node_id`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop trigger if exists file_texts_node_rename on nodes`.execute(db);
    await sql`drop trigger if exists file_texts_version_insert on node_versions`.execute(db);
    await sql`drop trigger if exists file_texts_vault_destroyed on vault_objects`.execute(db);
    await sql`drop function if exists file_texts_vault_destroyed()`.execute(db);
    await sql`drop function if exists file_texts_node_rename()`.execute(db);
    await sql`drop function if exists file_texts_version_insert()`.execute(db);
    await sql`drop function if exists file_name_words(text)`.execute(db);
    await sql`drop function if exists search_words(text)`.execute(db);
    await sql`drop table if exists search_reindex_runs`.execute(db);
    await sql`drop table if exists file_texts`.execute(db);
    await sql`drop table if exists search_settings`.execute(db);
  },
};
