import { sql } from 'kysely';
import type { FileTextState } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';

const DEFAULTS = { language: 'english', ocrLanguages: ['eng'] };

/** The text search configuration the organization's documents are searched in. */
export async function organizationSearchLanguage(db: Executor, organizationId: string): Promise<string> {
  const row = await db.selectFrom('searchSettings').select('language').where('organizationId', '=', organizationId).executeTakeFirst();
  return row?.language ?? DEFAULTS.language;
}

export async function findSearchSettings(db: Executor, organizationId: string): Promise<{ language: string; ocrLanguages: string[] }> {
  const row = await db
    .selectFrom('searchSettings')
    .select(['language', 'ocrLanguages'])
    .where('organizationId', '=', organizationId)
    .executeTakeFirst();
  return row ?? DEFAULTS;
}

/**
 * The organization's settings row, made if it had none, locked for the rest of the transaction: changes of the
 * languages and the start of a re-index take their turns on it.
 */
export async function lockSearchSettings(trx: Executor, organizationId: string): Promise<{ language: string; ocrLanguages: string[] }> {
  await trx
    .insertInto('searchSettings')
    .values({ organizationId })
    .onConflict((oc) => oc.column('organizationId').doNothing())
    .execute();
  return trx
    .selectFrom('searchSettings')
    .select(['language', 'ocrLanguages'])
    .where('organizationId', '=', organizationId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

export async function saveSearchSettings(db: Executor, organizationId: string, language: string, ocrLanguages: string[]): Promise<void> {
  await db
    .updateTable('searchSettings')
    .set({ language, ocrLanguages: JSON.stringify(ocrLanguages), updatedAt: sql<Date>`now()` })
    .where('organizationId', '=', organizationId)
    .execute();
}

/** Files' current versions (not in the recycle bin) by the state of their text. */
export async function textStateCounts(db: Executor, organizationId: string): Promise<Record<FileTextState, number>> {
  const rows = await db
    .selectFrom('fileTexts as t')
    .innerJoin('nodes as n', (j) => j.onRef('n.id', '=', 't.nodeId').on('n.organizationId', '=', organizationId))
    .where('t.organizationId', '=', organizationId)
    .where('n.binEntryId', 'is', null)
    .whereRef('t.versionNumber', '=', 'n.currentVersion')
    .groupBy('t.state')
    .select(['t.state', (eb) => eb.fn.countAll<string>().as('count')])
    .execute();
  const counts: Record<FileTextState, number> = { pending: 0, indexed: 0, no_text: 0, failed: 0 };
  for (const r of rows) counts[r.state] = Number(r.count);
  return counts;
}

export type ReindexRow = { startedAt: Date; finishedAt: Date | null; total: number; pending: number };

/** The organization's latest re-index run, with how many of its texts still wait. */
export async function latestReindex(db: Executor, organizationId: string): Promise<ReindexRow | null> {
  const row = await db
    .selectFrom('searchReindexRuns as r')
    .where('r.organizationId', '=', organizationId)
    .orderBy('r.startedAt', 'desc')
    .limit(1)
    .select([
      'r.startedAt',
      'r.finishedAt',
      'r.total',
      sql<string>`(select count(*) from file_texts t where t.organization_id = r.organization_id and t.state = 'pending')`.as('pending'),
    ])
    .executeTakeFirst();
  return row ? { startedAt: row.startedAt, finishedAt: row.finishedAt, total: row.total, pending: Number(row.pending) } : null;
}

export async function hasRunningReindex(db: Executor, organizationId: string): Promise<boolean> {
  const row = await db
    .selectFrom('searchReindexRuns')
    .select('id')
    .where('organizationId', '=', organizationId)
    .where('finishedAt', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Sends the organization's texts back to be read again (those of versions uploaded from `since` on, or all): their
 * old words stay searchable until each is read anew. Answers how many.
 */
export async function requeueTexts(db: Executor, organizationId: string, since: Date | null): Promise<number> {
  const result = await sql`
    update file_texts t set state = 'pending', claim_job = null, claimed_until = null, attempts = 0, queued_at = now()
      from node_versions v
     where t.organization_id = ${organizationId} and v.id = t.version_id
       ${since === null ? sql`` : sql`and v.created_at >= ${since}`}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

export async function insertReindexRun(db: Executor, organizationId: string, startedBy: number | null, since: Date | null, total: number) {
  return db
    .insertInto('searchReindexRuns')
    .values({ organizationId, startedBy, since, total, finishedAt: total === 0 ? sql<Date>`now()` : null })
    .returning(['startedAt', 'finishedAt', 'total'])
    .executeTakeFirstOrThrow();
}

/** The organization named (when it exists), or every organization. */
export async function organizationIds(db: Executor, only?: string): Promise<string[]> {
  const rows = await db
    .selectFrom('organizations')
    .select('id')
    .$if(only !== undefined, (q) => q.where('id', '=', only!))
    .orderBy('createdAt')
    .execute();
  return rows.map((r) => r.id);
}
