import type { AppContext } from '../../shared/context.js';
import { signAllChainHeads } from './audit-chain.service.js';

const AUDIT_HEAD_SIGNING_JOB = 'audit-head-signing';

/** Every day the head of each organization's audit chain that moved is signed and stored under a write-once lock. */
export function defineAuditJobs(ctx: AppContext): void {
  ctx.jobs.define<Record<string, never>>({
    name: AUDIT_HEAD_SIGNING_JOB,
    handler: async () => {
      const signed = await signAllChainHeads(ctx);
      ctx.log.info({ signed }, 'audit chain heads signed');
    },
    // Daily at 02:23 UTC.
    cron: '23 2 * * *',
    pollingIntervalSeconds: 60,
    expireInSeconds: 3600,
    retryLimit: 3,
    retryDelaySeconds: 600,
  });
}
