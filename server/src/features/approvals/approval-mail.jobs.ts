import { MAIL } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import type { AppContext } from '../../shared/context.js';
import { findApprovalRequest, otherAdministrators } from './approvals.repository.js';

/**
 * The mail of a request: when asked for, to every other active administrator (the people who may approve it);
 * when decided, to its requester. Queued in the transaction that made the request or the decision, sent by a
 * durable job, so a mail server that is down delays the mail and loses nothing.
 */
const APPROVAL_MAIL_JOB = 'approval-mail';
type ApprovalMailJob = { organizationId: string; requestId: string; event: 'requested' | 'decided' };

export async function queueApprovalMail(ctx: AppContext, trx: Executor, job: ApprovalMailJob): Promise<void> {
  await ctx.jobs.enqueue<ApprovalMailJob>(trx, APPROVAL_MAIL_JOB, job);
}

const dateTime = (d: Date) => d.toLocaleString('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC';

async function sendApprovalMail(ctx: AppContext, job: ApprovalMailJob): Promise<void> {
  const r = await findApprovalRequest(ctx.db, job.organizationId, job.requestId);
  if (!r) return;
  const preview = r.preview as { title: string; summary: string };
  const link = `${ctx.config.appUrl}/approvals/${r.id}`;
  if (job.event === 'requested') {
    const mail = MAIL.approvalRequested({
      requester: r.requesterName,
      title: preview.title,
      summary: preview.summary,
      expiresAt: dateTime(r.expiresAt),
      link,
    });
    for (const admin of await otherAdministrators(ctx.db, r.organizationId, r.requestedBy))
      await ctx.mailer.send({ to: admin.email, ...mail });
    return;
  }
  if (r.status !== 'approved' && r.status !== 'rejected') return;
  await ctx.mailer.send({
    to: r.requesterEmail,
    ...MAIL.approvalDecided({
      title: preview.title,
      outcome: r.status,
      decider: r.deciderName ?? 'another administrator',
      reason: r.decisionReason,
      link,
    }),
  });
}

export function defineApprovalMailJobs(ctx: AppContext): void {
  ctx.jobs.define<ApprovalMailJob>({
    name: APPROVAL_MAIL_JOB,
    handler: (data) => sendApprovalMail(ctx, data),
    retryLimit: 8,
    retryDelaySeconds: 30,
  });
}
