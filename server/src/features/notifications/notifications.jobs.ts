/**
 * notifications-retention-mail: once a day, each active administrator of each organization that has vaulted
 * matters whose retention ends in 1 to 90 days gets one mail listing them, soonest first; an organization with
 * none sends nothing.
 *
 * At most once per person and UTC day: the day is claimed in notification_mail_days (insert, or nothing when it
 * is there already) before the mail is handed over, so a second run that day, a retry after a crash or a restart
 * sends nothing again. A mail the server could not hand over gives its claim back, and the job's retry sends it;
 * a crash between the claim and the hand-over loses that day's mail for that person rather than risk a second.
 */
import { MAIL } from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import {
  activeAdministrators,
  claimMailDay,
  mailedOn,
  organizationsWithAlerts,
  releaseMailDay,
  retentionAlertMatters,
} from './notifications.repository.js';
import { alertWindow, retentionAlerts, utcDay } from './retention-alerts.js';

const RETENTION_MAIL_JOB = 'notifications-retention-mail';

type MailRun = { organizations: number; sent: number; alreadySent: number; failed: number };

async function mailOrganization(ctx: AppContext, org: { id: string; name: string }, now: Date, run: MailRun): Promise<void> {
  const alerts = await retentionAlerts(now, (from, to) => retentionAlertMatters(ctx.db, org.id, from, to));
  if (alerts.length === 0) return;
  run.organizations += 1;
  const mail = MAIL.retentionAlerts({
    organization: org.name,
    matters: alerts.map((a) => ({
      matterName: a.matterName,
      matterNumber: a.matterNumber,
      retentionEndsOn: utcDay(a.retentionExpiresAt),
      days: a.days,
    })),
    link: `${ctx.config.appUrl}/vault`,
  });
  const day = utcDay(now);
  for (const admin of await activeAdministrators(ctx.db, org.id)) {
    if (!(await claimMailDay(ctx.db, org.id, admin.id, day))) {
      run.alreadySent += 1;
      continue;
    }
    try {
      await ctx.mailer.send({ to: admin.email, ...mail });
      run.sent += 1;
    } catch (err) {
      await releaseMailDay(ctx.db, admin.id, day);
      run.failed += 1;
      ctx.log.error({ err, organizationId: org.id, userId: admin.id }, 'retention alert mail could not be handed over');
    }
  }
}

/** One run over every organization, or one (the daily job's handler, the run-job command and tests). */
export async function runRetentionAlertMail(ctx: AppContext, now = new Date(), organizationId?: string): Promise<MailRun> {
  const run: MailRun = { organizations: 0, sent: 0, alreadySent: 0, failed: 0 };
  for (const org of await alertingOrganizations(ctx, now, organizationId)) await mailOrganization(ctx, org, now, run);
  ctx.log.info(run, 'retention alert mail run finished');
  return run;
}

async function alertingOrganizations(ctx: AppContext, now: Date, organizationId?: string) {
  const { from, to } = alertWindow(now);
  const orgs = await organizationsWithAlerts(ctx.db, from, to);
  return organizationId === undefined ? orgs : orgs.filter((o) => o.id === organizationId);
}

/** What a run now would send, changing nothing: per organization with alerts, its alerts and who would get them. */
export async function retentionAlertMailPlan(ctx: AppContext, now = new Date(), organizationId?: string) {
  const day = utcDay(now);
  const plan = [];
  for (const org of await alertingOrganizations(ctx, now, organizationId)) {
    const alerts = await retentionAlerts(now, (from, to) => retentionAlertMatters(ctx.db, org.id, from, to));
    const mailed = await mailedOn(ctx.db, org.id, day);
    const admins = await activeAdministrators(ctx.db, org.id);
    plan.push({
      organizationId: org.id,
      alerts: alerts.length,
      wouldMail: admins.filter((a) => !mailed.has(a.id)).map((a) => a.email),
      alreadySent: admins.filter((a) => mailed.has(a.id)).length,
    });
  }
  return plan;
}

export function defineNotificationJobs(ctx: AppContext): void {
  ctx.jobs.define<Record<string, never>>({
    name: RETENTION_MAIL_JOB,
    handler: async () => {
      const run = await runRetentionAlertMail(ctx);
      // A failed hand-over gave its claim back: failing the job makes pg-boss retry, which sends only those.
      if (run.failed > 0) throw new Error(`${run.failed} retention alert mail(s) could not be handed over`);
    },
    // Daily at 07:05 UTC, before the working day in Europe.
    cron: '5 7 * * *',
    pollingIntervalSeconds: 60,
    expireInSeconds: 3600,
    retryLimit: 3,
    retryDelaySeconds: 600,
  });
}
