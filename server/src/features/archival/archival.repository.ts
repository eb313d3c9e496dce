/**
 * The SQL of archival and retrieval. Every query is scoped by organization_id; transactions are opened by the
 * service. The entries themselves are locked and marked archived through the audit feature, their one writer.
 */
import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { DB } from '../../platform/db/schema.js';

export type AuditRow = Selectable<DB['auditLogs']>;
export type ArchiveBatchRow = Selectable<DB['auditArchiveBatches']>;
export type RetrievalRow = Selectable<DB['auditLogRetrievals']>;

/** The organization's entry count, the count of archivable entries (not archived, older than cutoff), and archived. */
export async function archivalCounts(db: Executor, organizationId: string, cutoff: Date) {
  const row = await db
    .selectFrom('auditLogs')
    .select((eb) => [
      eb.fn.countAll<string>().as('total'),
      sql<string>`count(*) filter (where not archived and created_at < ${cutoff})`.as('archivable'),
      sql<string>`count(*) filter (where archived)`.as('archived'),
      sql<Date | string | null>`min(created_at) filter (where not archived and created_at < ${cutoff})`.as('oldest'),
      sql<Date | string | null>`max(created_at) filter (where not archived and created_at < ${cutoff})`.as('newest'),
    ])
    .where('organizationId', '=', organizationId)
    .where('chainKey', '=', organizationId)
    .executeTakeFirstOrThrow();
  const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
  return {
    total: Number(row.total),
    archivable: Number(row.archivable),
    archived: Number(row.archived),
    /** When the oldest and the newest archivable entries were written (null: none is archivable). */
    oldest: iso(row.oldest),
    newest: iso(row.newest),
  };
}

export async function lastArchivalAt(db: Executor, organizationId: string): Promise<Date | null> {
  const row = await db
    .selectFrom('auditArchiveBatches')
    .select((eb) => eb.fn.max('createdAt').as('at'))
    .where('organizationId', '=', organizationId)
    .executeTakeFirst();
  return row?.at ? new Date(row.at) : null;
}

/**
 * The next run of archivable entries of the organization's chain, in sequence order, at most `limit`, starting
 * after `afterSeq`. Only an unbroken run of sequence numbers makes a batch: it stops at the first gap.
 */
export async function nextArchivable(
  db: Executor,
  organizationId: string,
  cutoff: Date,
  afterSeq: string,
  limit: number,
): Promise<AuditRow[]> {
  const rows = await db
    .selectFrom('auditLogs')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('chainKey', '=', organizationId)
    .where('archived', '=', false)
    .where('createdAt', '<', cutoff)
    .where('seq', '>', afterSeq)
    .orderBy('seq')
    .limit(limit)
    .execute();
  const run: AuditRow[] = [];
  for (const r of rows) {
    if (run.length && BigInt(r.seq) !== BigInt(run[run.length - 1]!.seq) + 1n) break;
    run.push(r);
  }
  return run;
}

export async function insertBatch(trx: Executor, values: Omit<ArchiveBatchRow, 'id' | 'createdAt'>): Promise<string> {
  const row = await trx.insertInto('auditArchiveBatches').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function findLog(db: Executor, organizationId: string, logId: string): Promise<AuditRow | undefined> {
  return db.selectFrom('auditLogs').selectAll().where('organizationId', '=', organizationId).where('id', '=', logId).executeTakeFirst();
}

export async function findBatch(db: Executor, organizationId: string, batchId: string): Promise<ArchiveBatchRow | undefined> {
  return db
    .selectFrom('auditArchiveBatches')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('id', '=', batchId)
    .executeTakeFirst();
}

/** The batches holding any of seq from..to, in sequence order. */
export async function batchesOverlapping(db: Executor, organizationId: string, fromSeq: number, toSeq: number): Promise<ArchiveBatchRow[]> {
  return db
    .selectFrom('auditArchiveBatches')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('firstSeq', '<=', String(toSeq))
    .where('lastSeq', '>=', String(fromSeq))
    .orderBy('firstSeq')
    .execute();
}

export async function findRetrieval(db: Executor, organizationId: string, logId: string): Promise<RetrievalRow | undefined> {
  return db
    .selectFrom('auditLogRetrievals')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('logId', '=', logId)
    .executeTakeFirst();
}

/** Starts (or starts again) the retrieval of one entry: in progress, nothing cached. */
export async function startRetrieval(
  trx: Executor,
  v: { organizationId: string; logId: string; requestedBy: number; requestedAt: Date; estimatedCompletionAt: Date },
): Promise<RetrievalRow> {
  return trx
    .insertInto('auditLogRetrievals')
    .values({ ...v, status: 'in-progress' })
    .onConflict((oc) =>
      oc.columns(['organizationId', 'logId']).doUpdateSet({
        requestedBy: v.requestedBy,
        requestedAt: v.requestedAt,
        estimatedCompletionAt: v.estimatedCompletionAt,
        status: 'in-progress',
        details: null,
        message: null,
        completedAt: null,
        expiresAt: null,
      }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function finishRetrieval(
  db: Executor,
  organizationId: string,
  logId: string,
  outcome: { status: 'cached'; details: Record<string, unknown>; expiresAt: Date } | { status: 'failed'; message: string },
  now: Date,
): Promise<void> {
  await db
    .updateTable('auditLogRetrievals')
    .set(
      outcome.status === 'cached'
        ? { status: 'cached', details: JSON.stringify(outcome.details), expiresAt: outcome.expiresAt, completedAt: now, message: null }
        : { status: 'failed', message: outcome.message, completedAt: now, details: null },
    )
    .where('organizationId', '=', organizationId)
    .where('logId', '=', logId)
    .where('status', '=', 'in-progress')
    .execute();
}

/** Retrievals of the given entries, or those the person asked for within the last `sinceHours`. */
export async function retrievalsOf(
  db: Executor,
  organizationId: string,
  q: { logIds?: string[]; requestedBy?: number; since?: Date },
): Promise<RetrievalRow[]> {
  let query = db.selectFrom('auditLogRetrievals').selectAll().where('organizationId', '=', organizationId);
  if (q.logIds) {
    if (q.logIds.length === 0) return [];
    query = query.where('logId', 'in', q.logIds);
  }
  if (q.requestedBy !== undefined) query = query.where('requestedBy', '=', q.requestedBy);
  if (q.since) query = query.where('requestedAt', '>=', q.since);
  return query.orderBy('logId').execute();
}

/** The logs the ids name, for the visibility check of check-retrievals. */
export async function logsByIds(db: Executor, organizationId: string, ids: string[]): Promise<AuditRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('auditLogs').selectAll().where('organizationId', '=', organizationId).where('id', 'in', ids).execute();
}

// ---------------------------------------------------------------- archival runs

export type ArchivalRunRow = Selectable<DB['auditArchivalRuns']>;
const ACTIVE_STATES = ['queued', 'running'] as const;

/**
 * Records a queued run unless one of the organization is queued or running (the partial unique index decides,
 * so two requests at once record one run): answers the new run, or undefined when another was there.
 */
export async function insertRunUnlessActive(
  trx: Executor,
  v: { organizationId: string; requestedBy: number | null; cutoff: Date; entriesTotal: number },
): Promise<ArchivalRunRow | undefined> {
  return trx
    .insertInto('auditArchivalRuns')
    .values(v)
    .onConflict((oc) => oc.column('organizationId').where('state', 'in', ACTIVE_STATES).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export async function activeRun(db: Executor, organizationId: string): Promise<ArchivalRunRow | undefined> {
  return db
    .selectFrom('auditArchivalRuns')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('state', 'in', ACTIVE_STATES)
    .executeTakeFirst();
}

export async function latestRun(db: Executor, organizationId: string): Promise<ArchivalRunRow | undefined> {
  return db
    .selectFrom('auditArchivalRuns')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .orderBy('requestedAt', 'desc')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

export async function findRun(db: Executor, organizationId: string, runId: string): Promise<ArchivalRunRow | undefined> {
  return db
    .selectFrom('auditArchivalRuns')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('id', '=', runId)
    .executeTakeFirst();
}

/** A queued run starts (a resumed one keeps its first start). */
export async function markRunRunning(db: Executor, organizationId: string, runId: string, now: Date): Promise<void> {
  await db
    .updateTable('auditArchivalRuns')
    .set({ state: 'running', startedAt: sql<Date>`coalesce(started_at, ${now})` })
    .where('organizationId', '=', organizationId)
    .where('id', '=', runId)
    .where('state', 'in', ACTIVE_STATES)
    .execute();
}

/** One batch archived by the run: counted in the batch's own transaction. */
export async function addRunProgress(trx: Executor, organizationId: string, runId: string, entries: number, bytes: number): Promise<void> {
  await trx
    .updateTable('auditArchivalRuns')
    .set((eb) => ({
      entriesDone: eb('entriesDone', '+', entries),
      batches: eb('batches', '+', 1),
      bytes: sql<string>`bytes + ${bytes}`,
    }))
    .where('organizationId', '=', organizationId)
    .where('id', '=', runId)
    .execute();
}

/** The run ends (once: a run already ended stays as it ended); answers whether this call ended it. */
export async function finishRun(
  trx: Executor,
  organizationId: string,
  runId: string,
  outcome: { state: 'completed' | 'failed'; message: string | null },
  now: Date,
): Promise<ArchivalRunRow | undefined> {
  return trx
    .updateTable('auditArchivalRuns')
    .set({ state: outcome.state, message: outcome.message, finishedAt: now })
    .where('organizationId', '=', organizationId)
    .where('id', '=', runId)
    .where('state', 'in', ACTIVE_STATES)
    .returningAll()
    .executeTakeFirst();
}
