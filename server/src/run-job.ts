/**
 * `npm run admin -- run-job <job> [--organization <id>] [--dry-run]`: runs a scheduled job's work now, in this
 * process, and prints what it did as one line of JSON. --dry-run reports what the run would do and changes
 * nothing; --organization limits the run to one organization. A job that cannot do either says so and exits 64.
 *
 *   sign-audit-heads  signs every organization whose audit chain moved since its last signed head
 *   archive-audit     archives every organization's audit entries older than the archival age (no actor)
 *   retention-end     ends the retention of vaulted matters whose period is over and that are not on hold
 *   verify-vault      re-reads every vaulted object now, within VAULT_VERIFY_BYTES_PER_HOUR
 *   retention-mail    mails each administrator the vaulted matters whose retention ends in 1 to 90 days (once a day)
 *   bin-purge         deletes for good the recycle bin entries past their purge date (matters on hold or vaulted wait)
 *   disposition-review  queues the vaulted matters whose retention ends within the lead time, and reminds the
 *                     administrators of overdue ones (once a day); it has no dry run
 */
import { parseArgs } from 'node:util';
import type { AppContext } from './shared/context.js';
import { chainHeadOf, organizationsToSignNow, organizationsWithAuditChains, signAllChainHeads } from './features/audit/index.js';
import { archiveOrganizationLogs } from './features/archival/archival.service.js';
import { retentionAlertMailPlan, runRetentionAlertMail } from './features/notifications/index.js';
import { findOrganization } from './features/users/users.service.js';
import { runRetentionEnd } from './features/vault/vault-retention.jobs.js';
import { mattersDueForDestruction, dueForVerification } from './features/vault/vault-queries.repository.js';
import { runVaultVerification } from './features/vault/vault-verification.jobs.js';
import { dueBinEntries } from './features/nodes/bin.repository.js';
import { runBinPurge } from './features/nodes/bin-purge.jobs.js';
import { runDispositionReview } from './features/disposition/disposition.jobs.js';

const RUN_JOB_NAMES = [
  'sign-audit-heads',
  'archive-audit',
  'retention-end',
  'verify-vault',
  'retention-mail',
  'bin-purge',
  'disposition-review',
] as const;
type JobName = (typeof RUN_JOB_NAMES)[number];

/** A request the command refuses (exit 64 with the message). */
export class RunJobUsageError extends Error {}

export type RunJobArgs = { job: JobName; organizationId?: string; dryRun: boolean };

export function parseRunJobArgs(argv: string[]): RunJobArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { organization: { type: 'string' }, 'dry-run': { type: 'boolean' } },
      strict: true,
    });
  } catch (err) {
    throw new RunJobUsageError((err as Error).message);
  }
  const { values, positionals } = parsed;
  const [job, ...extra] = positionals;
  if (!job || extra.length) throw new RunJobUsageError(`run-job takes one job name: ${RUN_JOB_NAMES.join(', ')}`);
  if (!(RUN_JOB_NAMES as readonly string[]).includes(job))
    throw new RunJobUsageError(`Unknown job ${job}: one of ${RUN_JOB_NAMES.join(', ')}`);
  return { job: job as JobName, organizationId: values.organization, dryRun: values['dry-run'] ?? false };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Runs (or, with dryRun, describes) one job; answers the JSON to print and whether it found a failure. */
export async function runJob(
  ctx: AppContext,
  args: RunJobArgs,
  now = new Date(),
): Promise<{ result: Record<string, unknown>; failed: boolean }> {
  const { job, organizationId, dryRun } = args;
  if (organizationId !== undefined && (!UUID.test(organizationId) || !(await findOrganization(ctx.db, organizationId)))) {
    throw new RunJobUsageError(`No organization with id ${organizationId}`);
  }
  const base = { job, dryRun, ...(organizationId ? { organizationId } : {}) };
  switch (job) {
    case 'sign-audit-heads': {
      if (dryRun) {
        const orgs = await organizationsToSignNow(ctx, organizationId);
        const wouldSign = await Promise.all(orgs.map(async (id) => ({ organizationId: id, seq: (await chainHeadOf(ctx, id))?.seq ?? 0 })));
        return { result: { ...base, wouldSign }, failed: false };
      }
      const run = await signAllChainHeads(ctx, 'manual', organizationId);
      return { result: { ...base, ...run }, failed: run.failed.length > 0 };
    }
    case 'archive-audit': {
      const orgs = organizationId ? [organizationId] : await organizationsWithAuditChains(ctx);
      const organizations = [];
      for (const id of orgs) organizations.push({ organizationId: id, ...(await archiveOrganizationLogs(ctx, id, { dryRun }, now)) });
      const total = organizations.reduce((n, o) => n + o.archivedCount, 0);
      return { result: { ...base, [dryRun ? 'wouldArchive' : 'archived']: total, organizations }, failed: false };
    }
    case 'retention-end': {
      if (dryRun) {
        const due = await mattersDueForDestruction(ctx.db, now, 10_000, organizationId);
        return { result: { ...base, wouldEnd: due.map((m) => ({ organizationId: m.organizationId, matterId: m.id })) }, failed: false };
      }
      const run = await runRetentionEnd(ctx, now, organizationId);
      return { result: { ...base, ...run }, failed: false };
    }
    case 'verify-vault': {
      if (dryRun) {
        // What a forced run takes: every vaulted object, oldest check first, within the hour's byte budget.
        const due = await dueForVerification(ctx.db, now, 100_000, organizationId);
        let bytes = 0;
        let objects = 0;
        for (const o of due) {
          if (objects > 0 && bytes + Number(o.size) > ctx.config.vaultVerifyBytesPerHour) break;
          bytes += Number(o.size);
          objects += 1;
        }
        return { result: { ...base, wouldCheck: objects, bytes, dueLeft: objects < due.length }, failed: false };
      }
      const run = await runVaultVerification(ctx, { force: true, organizationId }, now);
      return { result: { ...base, ...run }, failed: run.failed > 0 };
    }
    case 'retention-mail': {
      if (dryRun) return { result: { ...base, organizations: await retentionAlertMailPlan(ctx, now, organizationId) }, failed: false };
      const run = await runRetentionAlertMail(ctx, now, organizationId);
      return { result: { ...base, ...run }, failed: run.failed > 0 };
    }
    case 'bin-purge': {
      if (dryRun) {
        const due = await dueBinEntries(ctx.db, now, 10_000, organizationId);
        return { result: { ...base, wouldPurge: due.map((e) => ({ organizationId: e.organizationId, binEntryId: e.id })) }, failed: false };
      }
      const run = await runBinPurge(ctx, now, organizationId);
      return { result: { ...base, ...run }, failed: false };
    }
    case 'disposition-review': {
      if (dryRun) throw new RunJobUsageError('disposition-review has no dry run: the list of /vault/disposition shows the queue');
      const run = await runDispositionReview(ctx, now, organizationId);
      return { result: { ...base, ...run }, failed: run.failed > 0 };
    }
  }
}
