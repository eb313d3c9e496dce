/**
 * Archival of old audit entries to write-once storage, and retrieval of an archived entry's details.
 *
 * Archival (administrators, system MFA). Entries of the organization's chain older than 180 days that are not yet
 * archived are taken in runs of consecutive sequence numbers (at most ARCHIVE_BATCH_SIZE). For each run:
 *   1. the run is written as gzip JSON lines (one line per entry: every field, its details and its chain fields)
 *      under vault/<organization>/audit/<first seq>-<last seq>.jsonl.gz with a write-once lock of
 *      ARCHIVE_RETENTION_YEARS; the same run always gives the same key and the same bytes, so an object left by
 *      a run that crashed before its transaction is reused as it is (or, when the run has since grown, left
 *      unused: it is never referenced, and no entry depends on it);
 *   2. the object is read back and its sha256 must equal that of the bytes written;
 *   3. one transaction locks the run's entries, checks none of them was archived meanwhile, records the batch,
 *      marks the entries archived in it with their details cleared, and records AUDIT_LOG_ARCHIVED.
 * A batch is thus archived wholly or not at all, and an entry is never in two batches. The entries keep their
 * sequence number, time, actor, action, target, previous hash and hash, so the chain is still walked; the
 * integrity check re-hashes archived entries with the details read from their batch.
 *
 * Retrieval: a durable job reads the entry's batch back (on S3 after a restore when the storage class needs one;
 * on the local store after ARCHIVE_RETRIEVAL_DELAY_SECONDS, as cold storage would take), checks its sha256 and
 * its chain hashes, and keeps the entry's details for 24 hours.
 */
import { failpoint } from '../../platform/failpoints.js';
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import {
  ARCHIVAL_LIMITS,
  ARCHIVAL_MSG,
  AUDIT_LOG_MSG,
  AUDIT_SHARED_ACTIONS,
  type ArchivalStatsResponse,
  type ArchiveAuditLogsResponse,
  type CheckRetrievalsResponse,
  type RetrieveArchivedResponse,
} from '@strongroom/contracts';
import { auditFor, entryHash, type Audit } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { forbidden, notFound } from '../../shared/errors.js';
import { registerArchivedDetailsSource, signChainHead } from '../audit/index.js';
import { withFreshMfa } from '../mfa/index.js';
import type { AuthContext } from '../sessions/index.js';
import {
  archivalCounts,
  batchesOverlapping,
  findBatch,
  findLog,
  findRetrieval,
  finishRetrieval,
  insertBatch,
  lastArchivalAt,
  lockRange,
  logsByIds,
  markArchived,
  nextArchivable,
  retrievalsOf,
  startRetrieval,
  type ArchiveBatchRow,
  type AuditRow,
  type RetrievalRow,
} from './archival.repository.js';

/** Entries per batch: a batch stays a few megabytes, read back whole when one of its entries is retrieved. */
const ARCHIVE_BATCH_SIZE = 5000;
/** How long an archive batch stays under its write-once lock: longer than any retention a firm keeps logs for. */
const ARCHIVE_RETENTION_YEARS = 10;
/** What a retrieval from an S3 class that needs a restore is expected to take (an expedited restore: 1-5 minutes). */
const S3_RESTORE_ESTIMATE_SECONDS = 5 * 60;
/** How long a restored copy stays readable on S3. */
const S3_RESTORE_DAYS = 1;
export const ARCHIVE_RETRIEVAL_JOB = 'audit-archive-retrieval';
export type RetrievalJob = { organizationId: string; logId: string };

const DAY_MS = 86_400_000;

function addYears(d: Date, years: number): Date {
  const r = new Date(d);
  r.setUTCFullYear(r.getUTCFullYear() + years);
  return r;
}

function admins(auth: AuthContext): void {
  if (auth.user.role !== 'admin') throw forbidden(ARCHIVAL_MSG.adminsOnly);
}

/** Entries older than this are archivable. */
export function archivalCutoff(now: Date): Date {
  return new Date(now.getTime() - ARCHIVAL_LIMITS.archiveAfterDays * DAY_MS);
}

// ---------------------------------------------------------------- stats

/** GET /_api/system/archival-stats: administrators, system MFA (VIEW_ARCHIVAL_STATS). */
export async function archivalStats(
  ctx: AppContext,
  auth: AuthContext,
  mfaToken: string | undefined,
  meta: RequestMeta,
): Promise<ArchivalStatsResponse> {
  admins(auth);
  return withFreshMfa(ctx, auth, 'VIEW_ARCHIVAL_STATS', mfaToken, meta.ip, async (trx) => {
    const orgId = auth.user.organizationId;
    const counts = await archivalCounts(trx, orgId, archivalCutoff(new Date()));
    const last = await lastArchivalAt(trx, orgId);
    return {
      totalAuditLogs: counts.total,
      archivableLogsCount: counts.archivable,
      lastArchivalDate: last ? last.toISOString() : null,
      // Overdue while any entry older than 180 days is still in the database.
      retentionStatus: counts.archivable > 0 ? 'Archival Overdue' : 'Compliant',
      archivedLogsCount: counts.archived,
    };
  });
}

// ---------------------------------------------------------------- archival

/** A batch's object key: the organization and the run of sequence numbers (zero-padded, so keys sort by seq). */
function batchKey(organizationId: string, firstSeq: string, lastSeq: string): string {
  const pad = (s: string) => s.padStart(12, '0');
  return `vault/${organizationId}/audit/${pad(firstSeq)}-${pad(lastSeq)}.jsonl.gz`;
}

/** One entry as a batch line: every column, the details included, with the time as ISO text. */
function lineOf(r: AuditRow): string {
  return JSON.stringify({
    id: r.id,
    organizationId: r.organizationId,
    chainKey: r.chainKey,
    seq: String(r.seq),
    actorId: r.actorId,
    actorName: r.actorName,
    actorEmail: r.actorEmail,
    action: r.action,
    targetTable: r.targetTable,
    targetId: r.targetId,
    details: r.details,
    ipAddress: r.ipAddress,
    createdAt: new Date(r.createdAt).toISOString(),
    prevHash: r.prevHash,
    hash: r.hash,
  });
}

type BatchLine = {
  id: string;
  organizationId: string | null;
  chainKey: string;
  seq: string;
  actorId: number | null;
  actorName: string | null;
  actorEmail: string | null;
  action: string;
  targetTable: string | null;
  targetId: string | null;
  details: Record<string, unknown>;
  ipAddress: string | null;
  createdAt: string;
  prevHash: string;
  hash: string;
};

/** The batch's bytes: gzip without a time in its header, so the same run always gives the same bytes. */
function batchBytes(rows: AuditRow[]): Buffer {
  return gzipSync(Buffer.from(rows.map((r) => `${lineOf(r)}\n`).join(''), 'utf8'), { level: 9 });
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Who archives: an administrator from an address, or nobody (an operator's run of the job, `npm run admin -- run-job`). */
type Archiver = { organizationId: string; audit: Audit; userId: number | null };

/** Archives one run of entries; answers how many were archived (0 when another run archived them first). */
async function archiveRun(ctx: AppContext, by: Archiver, rows: AuditRow[], now: Date): Promise<number> {
  const orgId = by.organizationId;
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  const key = batchKey(orgId, String(first.seq), String(last.seq));
  const body = batchBytes(rows);
  const digest = sha256(body);
  const retainUntil = addYears(now, ARCHIVE_RETENTION_YEARS);
  // Idempotent: the same key with the same bytes (an orphan of a crashed run) answers the stored object.
  await ctx.store.putLocked({ key, body, contentType: 'application/gzip', lock: { mode: 'COMPLIANCE', retainUntil, legalHold: false } });
  const stored = await ctx.store.sha256(key);
  if (stored !== digest) throw new Error(`The archive batch ${key} read back differs from what was written`);
  await failpoint(ctx, 'archival.after-object-write', { key });

  return ctx.db.transaction().execute(async (trx) => {
    const locked = await lockRange(trx, orgId, String(first.seq), String(last.seq));
    const unchanged =
      locked.length === rows.length && locked.every((l, i) => !l.archived && l.id === rows[i]!.id && l.hash === rows[i]!.hash);
    if (!unchanged) return 0;
    const batchId = await insertBatch(trx, {
      organizationId: orgId,
      objectKey: key,
      sha256: digest,
      sizeBytes: String(body.length),
      firstSeq: String(first.seq),
      lastSeq: String(last.seq),
      entryCount: rows.length,
      firstPrevHash: first.prevHash,
      lastHash: last.hash,
      retainUntil,
      archivedBy: by.userId,
    });
    const marked = await markArchived(trx, orgId, String(first.seq), String(last.seq), batchId);
    if (marked !== rows.length) throw new Error('archival: the batch changed while it was recorded');
    await by.audit(
      trx,
      'AUDIT_LOG_ARCHIVED',
      { table: 'audit_archive_batches', id: batchId },
      {
        objectKey: key,
        firstSeq: Number(first.seq),
        lastSeq: Number(last.seq),
        entryCount: rows.length,
        sha256: digest,
        retainUntil: retainUntil.toISOString(),
      },
    );
    return marked;
  });
}

/**
 * POST /_api/system/archive-audit-logs: administrators, system MFA (MFA_SYSTEM_OPERATIONS). A dry run answers how
 * many entries would be archived; a real run archives them batch by batch, then signs the chain head.
 */
export async function archiveAuditLogs(
  ctx: AppContext,
  auth: AuthContext,
  input: { dryRun: boolean },
  mfaToken: string | undefined,
  meta: RequestMeta,
): Promise<ArchiveAuditLogsResponse> {
  admins(auth);
  const orgId = auth.user.organizationId;
  const now = new Date();
  const cutoff = archivalCutoff(now);
  const count = await withFreshMfa(
    ctx,
    auth,
    'MFA_SYSTEM_OPERATIONS',
    mfaToken,
    meta.ip,
    async (trx) => (await archivalCounts(trx, orgId, cutoff)).archivable,
  );
  if (input.dryRun) return { archivedCount: count, dryRun: true, batches: 0 };
  return archiveOlderEntries(ctx, { organizationId: orgId, audit: auditFor(auth.user, meta), userId: auth.user.id }, now);
}

/**
 * Archives every entry of the organization older than the archival age, batch by batch, then signs the chain
 * head. An operator's run (`npm run admin -- run-job archive-audit`) is recorded with no actor; with dryRun it
 * answers how many entries would be archived and changes nothing.
 */
export async function archiveOrganizationLogs(
  ctx: AppContext,
  organizationId: string,
  input: { dryRun: boolean },
  now = new Date(),
): Promise<ArchiveAuditLogsResponse> {
  if (input.dryRun) {
    const { archivable } = await archivalCounts(ctx.db, organizationId, archivalCutoff(now));
    return { archivedCount: archivable, dryRun: true, batches: 0 };
  }
  return archiveOlderEntries(ctx, { organizationId, audit: auditFor({ organizationId, actor: null }), userId: null }, now);
}

async function archiveOlderEntries(ctx: AppContext, by: Archiver, now: Date): Promise<ArchiveAuditLogsResponse> {
  const orgId = by.organizationId;
  const cutoff = archivalCutoff(now);
  let archived = 0;
  let batches = 0;
  let afterSeq = '0';
  for (;;) {
    const rows = await nextArchivable(ctx.db, orgId, cutoff, afterSeq, ARCHIVE_BATCH_SIZE);
    if (rows.length === 0) break;
    const n = await archiveRun(ctx, by, rows, now);
    archived += n;
    if (n > 0) batches += 1;
    afterSeq = String(rows[rows.length - 1]!.seq);
  }
  if (batches > 0) {
    try {
      await signChainHead(ctx, orgId, 'archival');
    } catch (err) {
      // The archival stands; the periodic signing signs the head when this one could not be stored.
      ctx.log.error({ err, organizationId: orgId }, 'signing the audit chain head after an archival failed');
    }
  }
  return { archivedCount: archived, dryRun: false, batches };
}

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

function readers(auth: AuthContext, organizationId: string): void {
  if (auth.user.role === 'guest') throw forbidden(AUDIT_LOG_MSG.guestsNotAllowed);
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
