/**
 * vault-verify: the continuous verification of the vault. Every hour it re-reads the vault objects verified
 * longest ago (never verified first), so that each is checked at least once every VAULT_VERIFY_INTERVAL_DAYS,
 * reading at most VAULT_VERIFY_BYTES_PER_HOUR per run (one object at least, however large). For each object it
 * compares with what was recorded when it was vaulted (the vault_objects row, which the certificate carries):
 * the sha256 of the stored bytes, the size, and the lock (mode COMPLIANCE, the same retain-until, the same
 * legal hold). Each result is recorded (vault_verifications, and the object's latest result). A difference is
 * audited as VAULT_VERIFICATION_FAILED (which object, what was expected, what was found) -- the dashboard's
 * notifications are read from the audit log -- and mailed to the organization's administrators when the
 * object was fine before (a file found wrong again is audited again, not mailed again).
 *
 * A forced run ({ force: true }: operators and tests) checks every object not checked since the run began,
 * within the same byte budget. Repeating a run costs reads only, so a run cut short is simply run again.
 */
import { MAIL } from '@strongroom/contracts';
import type { VaultObjectInfo } from '../../platform/storage/blob-store.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext } from '../../shared/context.js';
import {
  adminEmails,
  dueForVerification,
  findVaultObject,
  matterLabel,
  organizationName,
  recordVerification,
  type VaultObjectRow,
} from './vault-queries.repository.js';
import { countVaultVerification } from '../../platform/metrics.js';

export const VAULT_VERIFY_JOB = 'vault-verify';
/** force: every vaulted object now, whenever it was last checked; organizationId: that organization's only. */
type VaultVerifyJob = { force?: boolean; organizationId?: string };

const DAY_MS = 86_400_000;
const BATCH = 100;

type VerificationRun = { checked: number; failed: number; bytes: number; dueLeft: boolean };

type Facts = { sha256: string | null; size: number | null; lockMode: string | null; retainUntil: string | null; legalHold: boolean | null };
type Check = { ok: boolean; problems: string[]; expected: Facts; found: Facts; contentChecked: boolean };

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
/** Retain-until dates compare to the second: S3 keeps the date to the second. */
const sameSecond = (a: Date, b: Date) => Math.floor(a.getTime() / 1000) === Math.floor(b.getTime() / 1000);

/**
 * Objects whose last check is older than the interval less a margin are due: a margin of a day (a tenth of a
 * short interval) lets a backlog spread over the hourly runs and still make the interval.
 */
function dueBefore(intervalDays: number, now: Date): Date {
  const interval = intervalDays * DAY_MS;
  return new Date(now.getTime() - (interval - Math.min(DAY_MS, interval / 10)));
}

async function checkObject(ctx: AppContext, row: VaultObjectRow): Promise<Check> {
  const expected: Facts = {
    sha256: row.sha256,
    size: Number(row.size),
    lockMode: 'COMPLIANCE',
    retainUntil: row.retainUntil.toISOString(),
    legalHold: row.legalHold,
  };
  const found: Facts = { sha256: null, size: null, lockMode: null, retainUntil: null, legalHold: null };
  const problems: string[] = [];
  let info: VaultObjectInfo | null;
  try {
    info = await ctx.store.vaultInfo(row.objectKey);
  } catch (err) {
    return { ok: false, problems: [`the object could not be read: ${message(err)}`], expected, found, contentChecked: false };
  }
  if (!info) return { ok: false, problems: ['the object is missing from the vault'], expected, found, contentChecked: false };
  found.size = info.size;
  if (info.size !== Number(row.size)) problems.push(`size ${info.size} instead of ${String(row.size)}`);
  if (!info.lock) {
    problems.push('the object is not locked');
  } else {
    found.lockMode = info.lock.mode;
    found.retainUntil = info.lock.retainUntil.toISOString();
    found.legalHold = info.lock.legalHold;
    if (info.lock.mode !== 'COMPLIANCE') problems.push(`lock mode ${String(info.lock.mode)} instead of COMPLIANCE`);
    if (!sameSecond(info.lock.retainUntil, row.retainUntil))
      problems.push(`retain-until ${info.lock.retainUntil.toISOString()} instead of ${row.retainUntil.toISOString()}`);
    if (info.lock.legalHold !== row.legalHold) {
      // A legal hold being switched for the matter flips the objects and their rows one after the other: the
      // row is read again before a difference is reported.
      const now = await findVaultObject(ctx.db, row.organizationId, row.id);
      if (now && now.legalHold !== info.lock.legalHold) {
        expected.legalHold = now.legalHold;
        problems.push(`legal hold ${info.lock.legalHold ? 'on' : 'off'} instead of ${now.legalHold ? 'on' : 'off'}`);
      }
    }
  }
  // A storage class that needs a restore before reading (GLACIER, DEEP_ARCHIVE) is not read back: each read
  // would start a paid restore taking hours. Its lock is still checked; the report says the bytes were not read.
  const contentChecked = !(info.restore && !info.restore.readyUntil);
  if (contentChecked) {
    try {
      found.sha256 = await ctx.store.sha256(row.objectKey);
      if (found.sha256 !== row.sha256) problems.push(`sha256 ${found.sha256} instead of ${row.sha256}`);
    } catch (err) {
      problems.push(`the bytes could not be read: ${message(err)}`);
    }
  }
  return { ok: problems.length === 0, problems, expected, found, contentChecked };
}

async function notifyAdmins(ctx: AppContext, row: VaultObjectRow, problems: string[], checkedAt: Date): Promise<void> {
  const [org, matter, recipients] = await Promise.all([
    organizationName(ctx.db, row.organizationId),
    matterLabel(ctx.db, row.organizationId, row.matterId),
    adminEmails(ctx.db, row.organizationId),
  ]);
  const mail = MAIL.vaultVerificationFailed({
    organization: org?.name ?? '',
    matterName: matter?.matterName ?? row.matterId,
    matterNumber: matter?.matterNumber ?? null,
    path: row.path,
    problems,
    checkedAt: checkedAt.toISOString(),
  });
  for (const to of recipients) {
    // The audit entry is the record; a mail that cannot be sent now is logged, not retried.
    await ctx.mailer
      .send({ to, ...mail })
      .catch((err: unknown) => ctx.log.error({ err: message(err), to }, 'vault verification mail failed'));
  }
}

async function verifyOne(ctx: AppContext, row: VaultObjectRow): Promise<boolean> {
  const check = await checkObject(ctx, row);
  const checkedAt = new Date();
  const problem = !check.ok
    ? check.problems.join('; ')
    : check.contentChecked
      ? null
      : 'lock checked; bytes not read (the storage class needs a restore before reading)';
  const wasFine = row.lastVerificationOk !== false;
  await ctx.db.transaction().execute(async (trx) => {
    await recordVerification(trx, row, { checkedAt, ok: check.ok, problem });
    if (!check.ok) {
      const matter = await matterLabel(trx, row.organizationId, row.matterId);
      await auditFor({ organizationId: row.organizationId, actor: null })(
        trx,
        'VAULT_VERIFICATION_FAILED',
        { table: 'vault_objects', id: row.id },
        {
          matterId: row.matterId,
          matterName: matter?.matterName ?? null,
          nodeId: row.nodeId,
          path: row.path,
          objectKey: row.objectKey,
          versionId: row.versionId,
          problems: check.problems,
          expected: check.expected,
          found: check.found,
          contentChecked: check.contentChecked,
        },
      );
    }
  });
  countVaultVerification(check.ok ? 'ok' : 'failed');
  if (!check.ok) {
    ctx.log.error({ objectKey: row.objectKey, matterId: row.matterId, problems: check.problems }, 'vault object failed its verification');
    if (wasFine) await notifyAdmins(ctx, row, check.problems, checkedAt);
  }
  return check.ok;
}

/** One verification run (the job's handler; tests and operators call it through the job queue). */
export async function runVaultVerification(ctx: AppContext, job: VaultVerifyJob = {}, now = new Date()): Promise<VerificationRun> {
  const budget = ctx.config.vaultVerifyBytesPerHour;
  const before = job.force ? now : dueBefore(ctx.config.vaultVerifyIntervalDays, now);
  const run: VerificationRun = { checked: 0, failed: 0, bytes: 0, dueLeft: false };
  const seen = new Set<string>();
  for (;;) {
    const rows = await dueForVerification(ctx.db, before, BATCH, job.organizationId);
    // Each check moves its object out of the due set; a batch of objects already seen means none moved.
    if (rows.length === 0 || rows.every((r) => seen.has(r.id))) break;
    for (const row of rows) {
      if (seen.has(row.id)) continue;
      seen.add(row.id);
      const size = Number(row.size);
      if (run.checked > 0 && run.bytes + size > budget) {
        run.dueLeft = true;
        break;
      }
      if (!(await verifyOne(ctx, row))) run.failed += 1;
      run.checked += 1;
      run.bytes += size;
    }
    if (run.dueLeft || rows.length < BATCH) break;
  }
  if (run.dueLeft) ctx.log.warn({ ...run, budget }, 'vault verification: the hour budget ran out with objects still due');
  ctx.log.info(run, 'vault verification run finished');
  return run;
}

export function defineVaultVerificationJobs(ctx: AppContext): void {
  ctx.jobs.define<VaultVerifyJob>({
    name: VAULT_VERIFY_JOB,
    handler: async (data) => {
      await runVaultVerification(ctx, data);
    },
    // Every hour, at 17 minutes past (away from the top of the hour other schedules favour).
    cron: '17 * * * *',
    pollingIntervalSeconds: 30,
    // One run reads up to the hour's budget; a run still going after the hour is taken for a stuck one.
    expireInSeconds: 3600,
    retryLimit: 2,
    retryDelaySeconds: 300,
  });
}

/** Starts a verification run now (operators, tests): every object not yet checked in it, within the budget. */
export async function enqueueVaultVerification(ctx: AppContext, force = true): Promise<string> {
  return ctx.jobs.enqueue<VaultVerifyJob>(ctx.db, VAULT_VERIFY_JOB, { force });
}
