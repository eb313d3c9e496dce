/**
 * audit_logs.search_text: whether the list's search may read it, and its backfill over the entries written before
 * the column existed. Only the column search_text is written here, and only from null to the text the trigger
 * audit_logs_search_text computes (migration 0029); no field an entry's hash covers is touched.
 */
import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';

/** system_settings key: 'ready' once every entry has its search_text and the trigram index is built. */
const READY_KEY = 'audit_search_text';
/** system_settings key: the backfill's progress (JSON of BackfillProgress), advanced in each batch's transaction. */
const PROGRESS_KEY = 'audit_search_backfill';
const INDEX_NAME = 'audit_logs_search_text_trgm';

/** The text a search looks in, computed from an entry's fields: what the trigger stores in search_text. */
export const SEARCH_TEXT_EXPRESSION = sql<string>`lower(action || ' ' || coalesce(actor_name, '') || ' ' || coalesce(actor_email, '') || ' ' || coalesce(target_table, '') || ' ' || coalesce(target_id, '') || ' ' || details::text)`;

/** Entries with an id above upToId were written with the trigger in place; below it, ids up to afterId are done. */
export type BackfillProgress = { afterId: string; upToId: string; filled: number };

export async function searchTextReady(db: Executor): Promise<boolean> {
  const row = await db.selectFrom('systemSettings').select('value').where('key', '=', READY_KEY).executeTakeFirst();
  return row?.value === 'ready';
}

export async function markSearchTextReady(db: Executor): Promise<void> {
  await db
    .insertInto('systemSettings')
    .values({ key: READY_KEY, value: 'ready' })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: 'ready', updatedAt: new Date() }))
    .execute();
}

/**
 * The backfill's progress, locked to the end of the transaction (two runs at once take turns batch by batch).
 * The first call records it: up to the newest entry now, from the start.
 */
export async function lockBackfillProgress(trx: Executor): Promise<BackfillProgress> {
  const newest = await trx
    .selectFrom('auditLogs')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  const start: BackfillProgress = { afterId: '0', upToId: newest?.id ?? '0', filled: 0 };
  await trx
    .insertInto('systemSettings')
    .values({ key: PROGRESS_KEY, value: JSON.stringify(start) })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await trx.selectFrom('systemSettings').select('value').where('key', '=', PROGRESS_KEY).forUpdate().executeTakeFirstOrThrow();
  return JSON.parse(row.value) as BackfillProgress;
}

export async function saveBackfillProgress(trx: Executor, progress: BackfillProgress): Promise<void> {
  await trx
    .updateTable('systemSettings')
    .set({ value: JSON.stringify(progress), updatedAt: new Date() })
    .where('key', '=', PROGRESS_KEY)
    .execute();
}

/** The backfill's progress as recorded (null before its first batch). */
export async function backfillProgress(db: Executor): Promise<BackfillProgress | null> {
  const row = await db.selectFrom('systemSettings').select('value').where('key', '=', PROGRESS_KEY).executeTakeFirst();
  return row ? (JSON.parse(row.value) as BackfillProgress) : null;
}

/** Fills search_text of the entries with ids in (afterId, toId] that have none; answers how many it filled. */
export async function fillSearchText(trx: Executor, afterId: string, toId: string): Promise<number> {
  const result = await sql`
    update audit_logs set search_text = ${SEARCH_TEXT_EXPRESSION}
     where id > ${afterId}::bigint and id <= ${toId}::bigint and search_text is null`.execute(trx);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Builds the trigram index on search_text unless a valid one exists. On PostgreSQL it is built CONCURRENTLY, so
 * entries go on being written meanwhile (it must not run in a transaction: pass the database, not one); a build
 * that was interrupted leaves an invalid index, which is dropped and built again. PGlite has one connection and
 * no concurrent build: a plain CREATE INDEX there.
 */
export async function buildSearchTextIndex(db: Executor, kind: 'pglite' | 'postgres'): Promise<void> {
  const found = await sql<{
    valid: boolean;
  }>`select indisvalid as valid from pg_index where indexrelid = to_regclass(${INDEX_NAME})`.execute(db);
  const existing = found.rows[0];
  if (existing?.valid) return;
  const concurrently = kind === 'postgres' ? sql`concurrently` : sql``;
  if (existing) await sql`drop index ${concurrently} if exists ${sql.id(INDEX_NAME)}`.execute(db);
  await sql`create index ${concurrently} if not exists ${sql.id(INDEX_NAME)} on audit_logs using gin (search_text gin_trgm_ops) with (fastupdate = off)`.execute(
    db,
  );
}
