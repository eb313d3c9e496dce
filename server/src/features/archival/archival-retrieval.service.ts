/**
 * Retrieval of an archived audit entry's details: a durable job reads the entry's batch back (on S3 after a
 * restore when the storage class needs one; on the local store after ARCHIVE_RETRIEVAL_DELAY_SECONDS, as cold
 * storage would take), checks its sha256 and its chain hashes, and keeps the entry's details for 24 hours. The
 * integrity check reads archived details through the same checked reading of a batch.
 */
import { gunzipSync } from 'node:zlib';
import {
  ARCHIVAL_LIMITS,
  ARCHIVAL_MSG,
  AUDIT_SHARED_ACTIONS,
  type CheckRetrievalsResponse,
  type RetrieveArchivedResponse,
} from '@strongroom/contracts';
import { entryHash, type ChainedFields } from '../../shared/audit.js';
import type { AppContext } from '../../shared/context.js';
import { notFound } from '../../shared/errors.js';
import { registerArchivedDetailsSource } from '../audit/index.js';
import type { AuthContext } from '../sessions/index.js';
import {
  batchesOverlapping,
  findBatch,
  findLog,
  findRetrieval,
  finishRetrieval,
  logsByIds,
  retrievalsOf,
  startRetrieval,
  type ArchiveBatchRow,
  type AuditRow,
  type RetrievalRow,
} from './archival.repository.js';
import { sha256 } from './archival.service.js';

/** What a retrieval from an S3 class that needs a restore is expected to take (an expedited restore: 1-5 minutes). */
const S3_RESTORE_ESTIMATE_SECONDS = 5 * 60;
/** How long a restored copy stays readable on S3. */
const S3_RESTORE_DAYS = 1;
export const ARCHIVE_RETRIEVAL_JOB = 'audit-archive-retrieval';
export type RetrievalJob = { organizationId: string; logId: string };

/** One entry as its batch holds it (one JSON line, written by the archival). */
type BatchLine = Omit<ChainedFields, 'createdAt'> & { id: string; createdAt: string; prevHash: string; hash: string };

// ---------------------------------------------------------------- reading batches back

class BatchAlteredError extends Error {}

/**
 * Reads a batch back and checks it: the sha256 of its bytes, one line per sequence number of its run, each line's
 * hash recomputed from its fields and linked to the one before, from the recorded hash before the first entry to
 * the recorded hash of the last. Throws BatchAlteredError when any of that does not hold.
 */
async function readBatch(ctx: AppContext, batch: ArchiveBatchRow): Promise<BatchLine[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of await ctx.store.getStream(batch.objectKey)) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  if (sha256(bytes) !== batch.sha256) throw new BatchAlteredError(ARCHIVAL_MSG.batchAltered);
  let lines: BatchLine[];
  try {
    lines = gunzipSync(bytes)
      .toString('utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as BatchLine);
  } catch {
    throw new BatchAlteredError(ARCHIVAL_MSG.batchAltered);
  }
  if (lines.length !== batch.entryCount) throw new BatchAlteredError(ARCHIVAL_MSG.batchAltered);
  let prev = batch.firstPrevHash;
  let seq = BigInt(batch.firstSeq);
  for (const l of lines) {
    if (BigInt(l.seq) !== seq || l.prevHash !== prev) throw new BatchAlteredError(ARCHIVAL_MSG.batchAltered);
    const h = entryHash(prev, { ...l, createdAt: new Date(l.createdAt) });
    if (h !== l.hash) throw new BatchAlteredError(ARCHIVAL_MSG.batchAltered);
    prev = l.hash;
    seq += 1n;
  }
  if (prev !== batch.lastHash) throw new BatchAlteredError(ARCHIVAL_MSG.batchAltered);
  return lines;
}

/** The integrity check's source of archived details: the batches holding seq from..to, each read and checked. */
async function archivedDetailsFor(ctx: AppContext, organizationId: string, fromSeq: number, toSeq: number) {
  const out = new Map<number, Record<string, unknown>>();
  for (const batch of await batchesOverlapping(ctx.db, organizationId, fromSeq, toSeq)) {
    try {
      for (const l of await readBatch(ctx, batch)) out.set(Number(l.seq), l.details);
    } catch (err) {
      // A batch that cannot be read or does not hold leaves its entries without details: the check reports them.
      ctx.log.warn({ err, batch: batch.objectKey }, 'an audit archive batch could not be used');
    }
  }
  return out;
}

let registered = false;
/** Lets the integrity check re-hash archived entries with their details from the batches. */
export function registerArchival(): void {
  if (registered) return;
  registered = true;
  registerArchivedDetailsSource(archivedDetailsFor);
}

// ---------------------------------------------------------------- retrieval

/** Who may retrieve an entry: whoever sees it in the list (administrators all; others their own and the shared kinds). */
function visibleLog(auth: AuthContext, row: AuditRow | undefined): row is AuditRow {
  if (!row) return false;
  if (auth.user.role === 'admin') return true;
  return row.actorId === auth.user.id || (AUDIT_SHARED_ACTIONS as readonly string[]).includes(row.action);
}

/** The route lets members in (guests see no audit log); the organization named must be the caller's. */
function readers(auth: AuthContext, organizationId: string): void {
  // Another organization's id names nothing here.
  if (organizationId !== auth.user.organizationId) throw notFound(ARCHIVAL_MSG.logNotFound);
}

function isCached(r: RetrievalRow, now: Date): boolean {
  return r.status === 'cached' && r.expiresAt !== null && new Date(r.expiresAt).getTime() > now.getTime();
}

function inProgressAnswer(r: RetrievalRow): RetrieveArchivedResponse {
  return {
    status: 'in-progress',
    message: ARCHIVAL_MSG.retrievalInProgress,
    estimatedCompletionTime: new Date(r.estimatedCompletionAt).toISOString(),
    startedAt: new Date(r.requestedAt).toISOString(),
  };
}

/** POST /_api/audit-logs/retrieve-archived */
export async function retrieveArchived(
  ctx: AppContext,
  auth: AuthContext,
  input: { logId: string; organizationId: string },
): Promise<RetrieveArchivedResponse> {
  readers(auth, input.organizationId);
  const orgId = auth.user.organizationId;
  const log = await findLog(ctx.db, orgId, input.logId);
  if (!visibleLog(auth, log)) throw notFound(ARCHIVAL_MSG.logNotFound);
  // An entry that is not archived has its details in the database: nothing to wait for.
  if (!log.archived) return { status: 'cached', details: log.details };
  const now = new Date();
  const existing = await findRetrieval(ctx.db, orgId, input.logId);
  if (existing && isCached(existing, now)) {
    return { status: 'cached', details: existing.details ?? {}, cachedUntil: new Date(existing.expiresAt!).toISOString() };
  }
  if (existing?.status === 'in-progress') return inProgressAnswer(existing);

  // Not retrieved, expired, or failed before (Try Again): start a retrieval.
  const delay = ctx.store.kind === 'local' ? ctx.config.archiveRetrievalDelaySeconds : 0;
  const estimate = ctx.store.kind === 'local' ? delay : S3_RESTORE_ESTIMATE_SECONDS;
  const row = await ctx.db.transaction().execute(async (trx) => {
    const r = await startRetrieval(trx, {
      organizationId: orgId,
      logId: input.logId,
      requestedBy: auth.user.id,
      requestedAt: now,
      estimatedCompletionAt: new Date(now.getTime() + estimate * 1000),
    });
    await ctx.jobs.enqueue<RetrievalJob>(
      trx,
      ARCHIVE_RETRIEVAL_JOB,
      { organizationId: orgId, logId: input.logId },
      { startAfterSeconds: delay },
    );
    return r;
  });
  return inProgressAnswer(row);
}

/**
 * The retrieval job: reads the entry's batch back and caches its details, or records why it failed. On S3 a batch
 * in a class that needs a restore is restored first: the job asks for the restore and comes back later.
 */
export async function runRetrieval(ctx: AppContext, job: RetrievalJob): Promise<void> {
  const retrieval = await findRetrieval(ctx.db, job.organizationId, job.logId);
  if (!retrieval || retrieval.status !== 'in-progress') return;
  const fail = (message: string) => finishRetrieval(ctx.db, job.organizationId, job.logId, { status: 'failed', message }, new Date());
  const log = await findLog(ctx.db, job.organizationId, job.logId);
  const batch = log?.archiveBatchId ? await findBatch(ctx.db, job.organizationId, log.archiveBatchId) : undefined;
  if (!log || !batch) return fail(ARCHIVAL_MSG.batchMissing);

  if (ctx.store.kind === 's3') {
    const info = await ctx.store.vaultInfo(batch.objectKey);
    if (!info) return fail(ARCHIVAL_MSG.batchMissing);
    if (info.restore && !info.restore.readyUntil) {
      if (!info.restore.ongoing) await ctx.store.requestRestore(batch.objectKey, S3_RESTORE_DAYS);
      await ctx.jobs.enqueue<RetrievalJob>(ctx.db, ARCHIVE_RETRIEVAL_JOB, job, { startAfterSeconds: 60 });
      return;
    }
  }

  let lines: BatchLine[];
  try {
    lines = await readBatch(ctx, batch);
  } catch (err) {
    if (err instanceof BatchAlteredError) return fail(err.message);
    ctx.log.error({ err, batch: batch.objectKey }, 'reading an audit archive batch failed');
    return fail(ARCHIVAL_MSG.batchMissing);
  }
  const line = lines.find((l) => l.seq === String(log.seq));
  // The entry in the database must be the one the batch holds (same position, same hash).
  if (!line || line.id !== String(log.id) || line.hash !== log.hash) return fail(ARCHIVAL_MSG.batchAltered);
  const now = new Date();
  await finishRetrieval(
    ctx.db,
    job.organizationId,
    job.logId,
    { status: 'cached', details: line.details, expiresAt: new Date(now.getTime() + ARCHIVAL_LIMITS.cacheHours * 3_600_000) },
    now,
  );
}

/** POST /_api/audit-logs/check-retrievals */
export async function checkRetrievals(
  ctx: AppContext,
  auth: AuthContext,
  input: { organizationId: string; logIds?: string[] },
): Promise<CheckRetrievalsResponse> {
  readers(auth, input.organizationId);
  const orgId = auth.user.organizationId;
  const now = new Date();
  let rows: RetrievalRow[];
  if (input.logIds) {
    // Only entries the caller can see; others are simply not reported.
    const visible = (await logsByIds(ctx.db, orgId, [...new Set(input.logIds)]))
      .filter((l) => visibleLog(auth, l))
      .map((l) => String(l.id));
    rows = await retrievalsOf(ctx.db, orgId, { logIds: visible });
  } else {
    rows = await retrievalsOf(ctx.db, orgId, {
      requestedBy: auth.user.id,
      since: new Date(now.getTime() - ARCHIVAL_LIMITS.cacheHours * 3_600_000),
    });
  }
  const completed = rows.filter((r) => isCached(r, now)).map((r) => String(r.logId));
  return {
    completed: completed.length,
    logIds: completed,
    pending: rows.filter((r) => r.status === 'in-progress').map((r) => String(r.logId)),
    failed: rows.filter((r) => r.status === 'failed').map((r) => String(r.logId)),
    failures: rows
      .filter((r) => r.status === 'failed')
      .map((r) => ({ logId: String(r.logId), message: r.message ?? ARCHIVAL_MSG.retrieveFailed })),
  };
}
