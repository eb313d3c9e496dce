/**
 * A real archival as a durable background job, with its progress.
 *
 * The request (administrators, system MFA of MFA_SYSTEM_OPERATIONS) counts the archivable entries, records an
 * archival run (who asked, when, the cut-off: 180 days before the request, and how many entries it will
 * archive), audits AUDIT_ARCHIVAL_STARTED and enqueues the run's job, all in one transaction, and answers at
 * once. While a run of the organization is queued or running, a request records no other run: it answers the
 * run under way (two requests at once record one run).
 *
 * The job archives the run's entries batch by batch (storeBatch: the batch's object is written and read back
 * first; recordBatch: then one transaction marks its entries archived, records AUDIT_LOG_ARCHIVED and counts
 * the batch into the run's progress), the next batch's object written while the one before is recorded. It may run again after a crash or a failure: entries already archived are no longer
 * archivable, and a batch whose object was left by a killed attempt reuses it, so every entry is archived once.
 * When nothing is left the run is completed with AUDIT_ARCHIVAL_COMPLETED and the chain head is signed; after
 * the job's last retry fails the run is failed with AUDIT_ARCHIVAL_FAILED, and a new request may start again.
 */
import { ARCHIVAL_MSG, type ArchivalRun, type ArchiveAuditLogsResponse, type LatestArchivalRunResponse } from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { signChainHead } from '../audit/index.js';
import type { AuthContext } from '../sessions/index.js';
import {
  activeRun,
  addRunProgress,
  archivalCounts,
  findRun,
  finishRun,
  insertRunUnlessActive,
  latestRun,
  markRunRunning,
  nextArchivable,
  type ArchivalRunRow,
} from './archival.repository.js';
import { ARCHIVE_BATCH_SIZE, archivalCutoff, recordBatch, storeBatch, type Archiver, type BatchProgress } from './archival.service.js';

export const ARCHIVE_RUN_JOB = 'archive-audit-run';
/** Retries of a run's job after its first failure; once they are spent the run is failed. */
export const ARCHIVE_RUN_RETRY_LIMIT = 5;

export type ArchiveRunJob = { runId: string; organizationId: string };

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function runView(r: ArchivalRunRow): ArchivalRun {
  return {
    runId: r.id,
    state: r.state,
    requestedAt: iso(r.requestedAt)!,
    cutoff: iso(r.cutoff)!,
    entriesTotal: r.entriesTotal,
    entriesDone: r.entriesDone,
    batches: r.batches,
    bytes: Number(r.bytes),
    startedAt: iso(r.startedAt),
    finishedAt: iso(r.finishedAt),
    message: r.message,
  };
}

/** The archive call's answer for a run: what it has done so far, with the run's id and state. */
function runAnswer(r: ArchivalRunRow): ArchiveAuditLogsResponse {
  return { archivedCount: r.entriesDone, dryRun: false, batches: r.batches, runId: r.id, state: r.state, entriesTotal: r.entriesTotal };
}

/** POST /_api/system/archive-audit-logs with dryRun false: records the run and enqueues its job, or answers the run under way. */
export async function requestArchivalRun(ctx: AppContext, auth: AuthContext, meta: RequestMeta): Promise<ArchiveAuditLogsResponse> {
  const orgId = auth.user.organizationId;
  const cutoff = archivalCutoff(new Date());
  return auth.stepUp.run(async (trx) => {
    const existing = await activeRun(trx, orgId);
    if (existing) return runAnswer(existing);
    const { archivable } = await archivalCounts(trx, orgId, cutoff);
    const run = await insertRunUnlessActive(trx, { organizationId: orgId, requestedBy: auth.user.id, cutoff, entriesTotal: archivable });
    // Another request recorded its run first (it committed while this one waited on the index): answer that run.
    if (!run) return runAnswer((await activeRun(trx, orgId))!);
    await auditFor(auth.user, meta)(
      trx,
      'AUDIT_ARCHIVAL_STARTED',
      { table: 'audit_archival_runs', id: run.id },
      { cutoff: cutoff.toISOString(), entriesTotal: archivable },
    );
    await ctx.jobs.enqueue<ArchiveRunJob>(trx, ARCHIVE_RUN_JOB, { runId: run.id, organizationId: orgId });
    return runAnswer(run);
  });
}

/** GET /_api/system/archival-runs/latest: the organization's latest run, with its progress. */
export async function latestArchivalRun(auth: AuthContext): Promise<LatestArchivalRunResponse> {
  return auth.stepUp.run(async (trx) => {
    const run = await latestRun(trx, auth.user.organizationId);
    return { run: run ? runView(run) : null };
  });
}

/** Archives the run's entries batch by batch; a run already ended (a repeated job) does nothing. */
async function archiveRunEntries(ctx: AppContext, run: ArchivalRunRow): Promise<void> {
  const orgId = run.organizationId;
  const now = new Date();
  await markRunRunning(ctx.db, orgId, run.id, now);
  const by: Archiver = { organizationId: orgId, audit: auditFor({ organizationId: orgId, actor: null }), userId: run.requestedBy };
  const cutoff = new Date(run.cutoff);
  const progress: BatchProgress = (trx, entries, bytes) => addRunProgress(trx, orgId, run.id, entries, bytes);
  // The next batch is read, compressed and written while the one before is recorded: its object may be stored
  // before the earlier batch commits, which a crash leaves as an unreferenced object that the resumed run reuses.
  const stage = async (afterSeq: string) => {
    const rows = await nextArchivable(ctx.db, orgId, cutoff, afterSeq, ARCHIVE_BATCH_SIZE);
    return rows.length === 0 ? null : storeBatch(ctx, orgId, rows, now);
  };
  let archived = 0;
  let current = await stage('0');
  while (current) {
    const next = stage(String(current.rows[current.rows.length - 1]!.seq));
    // Awaited below; a failure while this batch is recorded must not go unhandled meanwhile.
    next.catch(() => undefined);
    archived += await recordBatch(ctx, by, current, progress);
    current = await next;
  }
  const ended = await ctx.db.transaction().execute(async (trx) => {
    const done = await finishRun(trx, orgId, run.id, { state: 'completed', message: null }, new Date());
    if (done)
      await by.audit(
        trx,
        'AUDIT_ARCHIVAL_COMPLETED',
        { table: 'audit_archival_runs', id: run.id },
        { entriesDone: done.entriesDone, entriesTotal: done.entriesTotal, batches: done.batches, bytes: Number(done.bytes) },
      );
    return done;
  });
  if (ended && (archived > 0 || ended.batches > 0)) {
    try {
      await signChainHead(ctx, orgId, 'archival');
    } catch (err) {
      // The archival stands; the periodic signing signs the head when this one could not be stored.
      ctx.log.error({ err, organizationId: orgId }, 'signing the audit chain head after an archival failed');
    }
  }
}

/** The job of one run. When its last retry fails, the run is failed (and audited) so that a new one may start. */
export async function runArchivalJob(ctx: AppContext, data: ArchiveRunJob, meta: { retryCount: number }): Promise<void> {
  const run = await findRun(ctx.db, data.organizationId, data.runId);
  if (!run || run.state === 'completed' || run.state === 'failed') return;
  try {
    await archiveRunEntries(ctx, run);
  } catch (err) {
    if (meta.retryCount >= ARCHIVE_RUN_RETRY_LIMIT) {
      await ctx.db.transaction().execute(async (trx) => {
        const failed = await finishRun(
          trx,
          run.organizationId,
          run.id,
          { state: 'failed', message: ARCHIVAL_MSG.archivalRunFailed },
          new Date(),
        );
        if (failed)
          await auditFor({ organizationId: run.organizationId, actor: null })(
            trx,
            'AUDIT_ARCHIVAL_FAILED',
            { table: 'audit_archival_runs', id: run.id },
            { message: ARCHIVAL_MSG.archivalRunFailed, entriesDone: failed.entriesDone, entriesTotal: failed.entriesTotal },
          );
      });
    }
    throw err;
  }
}
