/**
 * disposition-review: once a day, for every organization with vaulted matters,
 * 1. the queue: each vaulted matter, not under legal hold, whose retention ends within the organization's lead time
 *    (approval_settings.disposition_lead_days, else 30 days), or has ended already without a review, enters the
 *    queue as 'due' (one review per matter and retention end: a second run, or two at once, queue nothing more).
 *    A review held by the review whose matter's hold has since been lifted is due again. Each is audited
 *    DISPOSITION_QUEUED, under the matter's row lock.
 * 2. the reminder: when reviews are overdue (the retention ended, nobody decided), the organization's day is
 *    claimed (disposition_reminder_days), DISPOSITION_REMINDER is audited (a notification to whoever sees
 *    retention notifications) and each active administrator is mailed the list. At most one a day per
 *    organization: a second run that day finds the day claimed. A mail the server could not hand over is logged
 *    and not sent again that day (a second reminder is worse than a late one; tomorrow's comes anyway).
 */
import { MAIL } from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext } from '../../shared/context.js';
import { lockMatterForChange } from '../matters/index.js';
import {
  activeAdministrators,
  claimReminderDay,
  dispositionLeadDays,
  heldReviewsReleased,
  insertReview,
  mattersToQueue,
  organizationsWithVaultedMatters,
  overdueReviews,
  updateReview,
} from './disposition.repository.js';

const DISPOSITION_JOB = 'disposition-review';
const DAY_MS = 24 * 60 * 60 * 1000;
const utcDay = (d: Date) => d.toISOString().slice(0, 10);

type QueueRun = { queued: number; requeued: number };
type ReminderRun = { organizations: number; mailed: number; failed: number };

/** Step 1 for one organization. */
async function queueOrganization(ctx: AppContext, organizationId: string, now: Date, run: QueueRun): Promise<void> {
  const leadDays = await dispositionLeadDays(ctx.db, organizationId);
  const audit = auditFor({ organizationId, actor: null });
  for (const m of await mattersToQueue(ctx.db, organizationId, new Date(now.getTime() + leadDays * DAY_MS))) {
    await ctx.db.transaction().execute(async (trx) => {
      const matter = await lockMatterForChange(trx, organizationId, m.id);
      // Checked again under the lock: still vaulted, not held, the same end.
      const end = matter?.retentionExpiresAt;
      if (!matter?.isVaulted || matter.legalHold || !end || end.getTime() !== m.retentionExpiresAt?.getTime()) return;
      const inserted = await insertReview(trx, { organizationId, matterId: m.id, retentionExpiresAt: end });
      if (!inserted) return;
      await audit(
        trx,
        'DISPOSITION_QUEUED',
        { table: 'matters', id: m.id },
        {
          matterId: m.id,
          matterName: matter.matterName,
          reviewId: inserted.id,
          retentionExpiresAt: end.toISOString(),
          leadDays,
          overdue: end.getTime() <= now.getTime(),
        },
      );
      run.queued += 1;
    });
  }
  for (const r of await heldReviewsReleased(ctx.db, organizationId)) {
    await ctx.db.transaction().execute(async (trx) => {
      const matter = await lockMatterForChange(trx, organizationId, r.matterId);
      if (!matter || matter.legalHold || matter.retentionExpiresAt?.getTime() !== r.retentionExpiresAt.getTime()) return;
      await updateReview(trx, organizationId, r.id, { status: 'due' });
      await audit(
        trx,
        'DISPOSITION_QUEUED',
        { table: 'matters', id: r.matterId },
        {
          matterId: r.matterId,
          matterName: r.matterName,
          reviewId: r.id,
          retentionExpiresAt: r.retentionExpiresAt.toISOString(),
          again: true,
        },
      );
      run.requeued += 1;
    });
  }
}

/** Step 2 for one organization. */
async function remindOrganization(ctx: AppContext, org: { id: string; name: string }, now: Date, run: ReminderRun): Promise<void> {
  const overdue = await overdueReviews(ctx.db, org.id, now);
  if (overdue.length === 0) return;
  const claimed = await ctx.db.transaction().execute(async (trx) => {
    if (!(await claimReminderDay(trx, org.id, utcDay(now), overdue.length))) return false;
    await auditFor({ organizationId: org.id, actor: null })(trx, 'DISPOSITION_REMINDER', null, {
      overdue: overdue.length,
      matters: overdue.slice(0, 50).map((r) => ({ matterId: r.matterId, matterName: r.matterName })),
      day: utcDay(now),
    });
    return true;
  });
  if (!claimed) return;
  run.organizations += 1;
  const mail = MAIL.dispositionReminder({
    organization: org.name,
    matters: overdue.map((r) => ({
      matterName: r.matterName,
      matterNumber: r.matterNumber,
      retentionEndedOn: utcDay(r.retentionExpiresAt),
      daysOverdue: Math.max(1, Math.floor((now.getTime() - r.retentionExpiresAt.getTime()) / DAY_MS)),
    })),
    link: `${ctx.config.appUrl}/vault/disposition`,
  });
  for (const admin of await activeAdministrators(ctx.db, org.id)) {
    try {
      await ctx.mailer.send({ to: admin.email, ...mail });
      run.mailed += 1;
    } catch (err) {
      run.failed += 1;
      ctx.log.error({ err, organizationId: org.id, userId: admin.id }, 'disposition reminder mail could not be handed over');
    }
  }
}

/** One run of the review's sweep over every organization, or one (the daily job's handler and tests). */
export async function runDispositionReview(ctx: AppContext, now = new Date(), organizationId?: string) {
  const queue: QueueRun = { queued: 0, requeued: 0 };
  const reminders: ReminderRun = { organizations: 0, mailed: 0, failed: 0 };
  const orgs = (await organizationsWithVaultedMatters(ctx.db)).filter((o) => organizationId === undefined || o.id === organizationId);
  for (const org of orgs) {
    try {
      await queueOrganization(ctx, org.id, now, queue);
      await remindOrganization(ctx, org, now, reminders);
    } catch (err) {
      // One organization's failure does not hold up the others; tomorrow's run takes it again.
      ctx.log.error({ err, organizationId: org.id }, 'disposition review failed for an organization');
    }
  }
  ctx.log.info({ ...queue, ...reminders }, 'disposition review run finished');
  return { ...queue, reminders: reminders.organizations, mailed: reminders.mailed, failed: reminders.failed };
}

export function defineDispositionJobs(ctx: AppContext): void {
  ctx.jobs.define<Record<string, never>>({
    name: DISPOSITION_JOB,
    handler: async () => {
      await runDispositionReview(ctx);
    },
    // Daily at 03:11 UTC, before retention end (03:41) and the retention alert mail (07:05).
    cron: '11 3 * * *',
    pollingIntervalSeconds: 60,
    expireInSeconds: 3600,
    retryLimit: 3,
    retryDelaySeconds: 600,
  });
}
