/**
 * Archival of old audit entries to write-once storage.
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
 * An administrator's archival runs as a background job with its progress recorded (archival-runs.service.ts),
 * batch by batch (storeBatch, then recordBatch); an operator's run (`run-job archive-audit`) runs here, in its own process.
 * Retrieval of an archived entry's details is in archival-retrieval.service.ts.
 */
import { failpoint } from '../../platform/failpoints.js';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { ARCHIVAL_LIMITS, type ArchivalStatsResponse, type ArchiveAuditLogsResponse } from '@strongroom/contracts';
import { auditFor, type Audit } from '../../shared/audit.js';
import type { AppContext } from '../../shared/context.js';
import type { Executor } from '../../platform/db/database.js';
import { lockEntriesForArchival, markEntriesArchived, signChainHead } from '../audit/index.js';
import type { AuthContext } from '../sessions/index.js';
import { archivalCounts, insertBatch, lastArchivalAt, nextArchivable, type AuditRow } from './archival.repository.js';

/** Entries per batch: a batch stays a few megabytes, read back whole when one of its entries is retrieved. */
export const ARCHIVE_BATCH_SIZE = 5000;
/** How long an archive batch stays under its write-once lock: longer than any retention a firm keeps logs for. */
const ARCHIVE_RETENTION_YEARS = 10;

const DAY_MS = 86_400_000;

function addYears(d: Date, years: number): Date {
  const r = new Date(d);
  r.setUTCFullYear(r.getUTCFullYear() + years);
  return r;
}

/** Entries older than this are archivable. */
export function archivalCutoff(now: Date): Date {
  return new Date(now.getTime() - ARCHIVAL_LIMITS.archiveAfterDays * DAY_MS);
}

/** What an archival run started now would move: the entries before the cut-off not archived yet. */
export async function archivalPreview(db: Executor, organizationId: string, now = new Date()) {
  const cutoff = archivalCutoff(now);
  const counts = await archivalCounts(db, organizationId, cutoff);
  return { cutoff, archivable: counts.archivable, oldest: counts.oldest, newest: counts.newest };
}

// ---------------------------------------------------------------- stats

/** GET /_api/system/archival-stats: administrators, system MFA (VIEW_ARCHIVAL_STATS). */
export async function archivalStats(auth: AuthContext): Promise<ArchivalStatsResponse> {
  return auth.stepUp.run(async (trx) => {
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

/** The batch's bytes: gzip without a time in its header, so the same run always gives the same bytes. */
function batchBytes(rows: AuditRow[]): Buffer {
  return gzipSync(Buffer.from(rows.map((r) => `${lineOf(r)}\n`).join(''), 'utf8'), { level: 9 });
}

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Who archives: an administrator from an address, or nobody (an operator's run of the job, `npm run admin -- run-job`). */
export type Archiver = { organizationId: string; audit: Audit; userId: number | null };

/** Counts a batch into a background run's progress, in the batch's own transaction. */
export type BatchProgress = (trx: Executor, entries: number, bytes: number) => Promise<void>;

/** A batch whose object is written and checked, ready for its transaction. */
export type StoredBatch = { rows: AuditRow[]; key: string; digest: string; size: number; retainUntil: Date };

/**
 * Writes one run of entries as its batch object under its write-once lock and reads it back to check it. The
 * same run always gives the same key and bytes, so writing it again (after a crash) answers the stored object.
 */
export async function storeBatch(ctx: AppContext, organizationId: string, rows: AuditRow[], now: Date): Promise<StoredBatch> {
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;
  const key = batchKey(organizationId, String(first.seq), String(last.seq));
  const body = batchBytes(rows);
  const digest = sha256(body);
  const retainUntil = addYears(now, ARCHIVE_RETENTION_YEARS);
  // Idempotent: the same key with the same bytes (an orphan of a crashed run) answers the stored object.
  await ctx.store.putLocked({ key, body, contentType: 'application/gzip', lock: { mode: 'COMPLIANCE', retainUntil, legalHold: false } });
  const stored = await ctx.store.sha256(key);
  if (stored !== digest) throw new Error(`The archive batch ${key} read back differs from what was written`);
  await failpoint(ctx, 'archival.after-object-write', { key });
  return { rows, key, digest, size: body.length, retainUntil };
}

/** Archives one run of entries; answers how many were archived (0 when another run archived them first). */
async function archiveRun(ctx: AppContext, by: Archiver, rows: AuditRow[], now: Date): Promise<number> {
  return recordBatch(ctx, by, await storeBatch(ctx, by.organizationId, rows, now));
}

/**
 * The batch's transaction: locks its entries, checks none was archived or changed meanwhile, records the batch,
 * marks the entries archived with their details cleared, counts the progress and audits AUDIT_LOG_ARCHIVED.
 */
export async function recordBatch(ctx: AppContext, by: Archiver, batch: StoredBatch, progress?: BatchProgress): Promise<number> {
  // `progress`, when given, counts the batch into a background run in this same transaction.
  const orgId = by.organizationId;
  const { rows, key, digest, retainUntil } = batch;
  const first = rows[0]!;
  const last = rows[rows.length - 1]!;

  return ctx.db.transaction().execute(async (trx) => {
    const locked = await lockEntriesForArchival(trx, orgId, String(first.seq), String(last.seq));
    const unchanged =
      locked.length === rows.length && locked.every((l, i) => !l.archived && l.id === rows[i]!.id && l.hash === rows[i]!.hash);
    if (!unchanged) return 0;
    const batchId = await insertBatch(trx, {
      organizationId: orgId,
      objectKey: key,
      sha256: digest,
      sizeBytes: String(batch.size),
      firstSeq: String(first.seq),
      lastSeq: String(last.seq),
      entryCount: rows.length,
      firstPrevHash: first.prevHash,
      lastHash: last.hash,
      retainUntil,
      archivedBy: by.userId,
    });
    const marked = await markEntriesArchived(trx, orgId, String(first.seq), String(last.seq), batchId);
    if (marked !== rows.length) throw new Error('archival: the batch changed while it was recorded');
    if (progress) await progress(trx, marked, batch.size);
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

/** A dry run's answer: how many entries would move, and the dates they were written between. */
function dryRunAnswer(counts: Awaited<ReturnType<typeof archivalCounts>>, cutoff: Date): ArchiveAuditLogsResponse {
  return {
    archivedCount: counts.archivable,
    dryRun: true,
    batches: 0,
    range: { before: cutoff.toISOString(), oldest: counts.oldest, newest: counts.newest },
  };
}

/**
 * POST /_api/system/archive-audit-logs as a dry run (the statistics' class, VIEW_ARCHIVAL_STATS): how many
 * entries would be archived and the dates they were written between. A real run is a background job
 * (archival-runs.service.ts).
 */
export async function archivalDryRun(auth: AuthContext): Promise<ArchiveAuditLogsResponse> {
  const cutoff = archivalCutoff(new Date());
  const counts = await auth.stepUp.run((trx) => archivalCounts(trx, auth.user.organizationId, cutoff));
  return dryRunAnswer(counts, cutoff);
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
