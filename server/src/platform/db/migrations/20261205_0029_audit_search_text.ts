import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The audit list's search looks for text anywhere in an entry's action, actor, target and details, ignoring case.
 * That text is kept here once more, lower-cased, in audit_logs.search_text, so that checking a candidate entry is
 * one plain `like` instead of lower-casing a concatenation with details::text for every entry read.
 *
 * The change is made so that an installation with millions of entries takes it while in use:
 * - the column is plain and nullable (no default), which PostgreSQL adds without rewriting the table;
 * - a trigger fills it for every entry written from now on, and again whenever a field it is made of changes
 *   (archival empties an entry's details: the text searched then loses them, as the old expression did);
 * - entries written before are filled by the `audit-search-backfill` job in small batches, which then builds the
 *   trigram index with CREATE INDEX CONCURRENTLY (not possible in here: the migrations run in one transaction);
 * - the search reads search_text only once the job records it complete (system_settings 'audit_search_text').
 * An empty audit log (a new installation) has nothing to fill: the index is built here and the search is ready.
 *
 * search_text is no part of an entry's hash (shared/audit-hash.ts names every field the chain covers), so filling
 * it changes no hash. The trigger's text is the audit repository's SEARCH_TEXT, field for field.
 */
const up: string[] = [
  `alter table audit_logs add column search_text text`,
  `create function audit_logs_search_text() returns trigger language plpgsql as $$
   begin
     new.search_text := lower(new.action || ' ' || coalesce(new.actor_name, '') || ' ' || coalesce(new.actor_email, '') || ' ' ||
       coalesce(new.target_table, '') || ' ' || coalesce(new.target_id, '') || ' ' || new.details::text);
     return new;
   end $$`,
  `create trigger audit_logs_search_text before insert or update of action, actor_name, actor_email, target_table, target_id, details
     on audit_logs for each row execute function audit_logs_search_text()`,
];

export const auditSearchText: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of up) await sql.raw(statement).execute(db);
    const { rows } = await sql<{ any: boolean }>`select exists (select 1 from audit_logs) as any`.execute(db);
    if (!rows[0]?.any) {
      await sql`create index audit_logs_search_text_trgm on audit_logs using gin (search_text gin_trgm_ops) with (fastupdate = off)`.execute(
        db,
      );
      await sql`insert into system_settings (key, value) values ('audit_search_text', 'ready')`.execute(db);
    }
  },
  async down(db: Kysely<unknown>) {
    await sql`delete from system_settings where key in ('audit_search_text', 'audit_search_backfill')`.execute(db);
    await sql`drop index if exists audit_logs_search_text_trgm`.execute(db);
    await sql`drop trigger if exists audit_logs_search_text on audit_logs`.execute(db);
    await sql`drop function if exists audit_logs_search_text()`.execute(db);
    await sql`alter table audit_logs drop column if exists search_text`.execute(db);
  },
};
