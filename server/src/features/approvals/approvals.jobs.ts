import type { AppContext } from '../../shared/context.js';
import { unexecutedApprovals } from './approvals.repository.js';
import { APPROVAL_EXECUTE_JOB, executeApproval, type ApprovalExecuteJob } from './approval-decisions.service.js';
import { defineApprovalMailJobs } from './approval-mail.jobs.js';
import { expireDue } from './approvals.service.js';

/**
 * approval-execute: carries out an approved request (queued with the approval; the approver's own call usually
 * does it first, and then this finds it done). approval-sweep, every five minutes: records the expiry of requests
 * past their time, and queues again any approval neither carried out nor voided a while after it was given.
 */
const APPROVAL_SWEEP_JOB = 'approval-sweep';
const STALE_AFTER_MS = 2 * 60_000;

async function sweep(ctx: AppContext): Promise<void> {
  while ((await expireDue(ctx.db)) > 0);
  for (const r of await unexecutedApprovals(ctx.db, new Date(Date.now() - STALE_AFTER_MS), 100)) {
    await executeApproval(ctx, r.organizationId, r.id);
  }
}

export function defineApprovalJobs(ctx: AppContext): void {
  ctx.jobs.define<ApprovalExecuteJob>({
    name: APPROVAL_EXECUTE_JOB,
    handler: async (data) => {
      await executeApproval(ctx, data.organizationId, data.requestId);
    },
    pollingIntervalSeconds: 2,
    retryLimit: 10,
    retryDelaySeconds: 10,
  });
  ctx.jobs.define({ name: APPROVAL_SWEEP_JOB, handler: () => sweep(ctx), cron: '*/5 * * * *' });
  defineApprovalMailJobs(ctx);
}
