import type { AppContext } from '../../shared/context.js';
import { signAllChainHeads, type SigningRun } from './audit-chain.service.js';
import { backfillSearchText, storedSearchTextReady } from './audit-search.service.js';

const AUDIT_HEAD_SIGNING_JOB = 'audit-head-signing';
export const AUDIT_SEARCH_BACKFILL_JOB = 'audit-search-backfill';

/** How often an idle runner looks for the signing job: a small part of the interval, so the two stay within it. */
function pollingSeconds(ctx: AppContext): number {
  return Math.max(1, Math.min(5, Math.floor(ctx.config.auditHeadIntervalSeconds / 6)));
}

/**
 * Queues the next signing run, to start one interval (less the polling delay) from now. Once per slot of that
 * length, however many processes ask: the chain of runs stays one chain.
 */
async function scheduleNextSigning(ctx: AppContext): Promise<void> {
  const seconds = Math.max(1, ctx.config.auditHeadIntervalSeconds - pollingSeconds(ctx));
  await ctx.jobs.enqueueOncePerSlot(ctx.db, AUDIT_HEAD_SIGNING_JOB, {}, seconds);
}

/**
 * Each organization's audit chain head is signed into the write-once store at most AUDIT_HEAD_INTERVAL_SECONDS
 * after the chain grew: each run signs every organization whose chain moved, then queues the next run one
 * interval later. A cron run every minute restarts the sequence should it ever stop (a run that failed for good).
 */
export function defineAuditJobs(ctx: AppContext): void {
  ctx.jobs.define<Record<string, never>>({
    name: AUDIT_HEAD_SIGNING_JOB,
    handler: async () => {
      const run = await signAllChainHeads(ctx, 'interval');
      if (run.signed.length || run.failed.length)
        ctx.log.info({ signed: run.signed.length, failed: run.failed.length }, 'audit chain heads signed');
      await scheduleNextSigning(ctx);
    },
    cron: '* * * * *',
    pollingIntervalSeconds: pollingSeconds(ctx),
    expireInSeconds: 3600,
    retryLimit: 3,
    retryDelaySeconds: 10,
  });
  ctx.jobs.define<Record<string, never>>({
    name: AUDIT_SEARCH_BACKFILL_JOB,
    handler: async () => {
      await backfillSearchText(ctx);
    },
    pollingIntervalSeconds: 5,
    // Ten million entries take a while on a busy database; a new attempt goes on from the last batch.
    expireInSeconds: 6 * 3600,
    retryLimit: 10,
    retryDelaySeconds: 30,
  });
}

/**
 * At start: queues the backfill of audit_logs.search_text unless the list's search reads it already or a
 * backfill is queued or running (it was started by an earlier start of this or another process).
 */
export async function startAuditSearchBackfill(ctx: AppContext): Promise<boolean> {
  if (await storedSearchTextReady(ctx)) return false;
  if ((await ctx.jobs.pendingCount(AUDIT_SEARCH_BACKFILL_JOB)) > 0) return false;
  await ctx.jobs.enqueue(ctx.db, AUDIT_SEARCH_BACKFILL_JOB, {});
  return true;
}

/**
 * At start: signs every organization whose chain moved since its last signed head (the server may have been
 * stopped with unsigned entries), and queues the periodic signing (run by this process when JOB_RUNNER=embedded,
 * else by a worker).
 */
export async function startAuditHeadSigning(ctx: AppContext): Promise<SigningRun> {
  const run = await signAllChainHeads(ctx, 'start');
  await scheduleNextSigning(ctx);
  return run;
}
