/**
 * The compliance check: the organization against its active security policies and the facts as they are now.
 */
import { type ComplianceCheckName, type ComplianceCheckResult, type ComplianceReport } from '@strongroom/contracts';
import { isLockActive } from '../../platform/storage/vault-store.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { verifyOrganizationChain } from '../audit/index.js';
import type { AuthContext } from '../sessions/index.js';
import * as repo from './security-tooling.repository.js';

/** Thresholds where no active policy sets one. */
const COMPLIANCE_DEFAULTS = { adminSignInReviewDays: 90, archiveAfterDays: 180, vaultSampleSize: 20 } as const;

type Threshold<V> = { value: V; policies: string[] };

/** The strictest number the active policies set for a key (pick: which of two is stricter). */
function strictest(policies: repo.PolicyRow[], key: string, pick: (a: number, b: number) => number): Threshold<number | null> {
  let value: number | null = null;
  const names: string[] = [];
  for (const p of policies) {
    const v = p.definition[key];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) continue;
    names.push(p.name);
    value = value === null ? v : pick(value, v);
  }
  return { value, policies: names };
}

/**
 * Evaluates the organization against its active policies and the facts as they are now: each check reports
 * compliant, non_compliant (with what is wrong) or error (its facts could not be read). The report is stored and
 * audited as COMPLIANCE_CHECK_COMPLETED.
 */
export async function runComplianceCheck(ctx: AppContext, auth: AuthContext, meta: RequestMeta): Promise<ComplianceReport> {
  const org = auth.user.organizationId;
  const policies = await repo.listPolicies(ctx.db, org, true);
  const results: ComplianceCheckResult[] = [];
  const run = async (name: ComplianceCheckName, names: string[], check: () => Promise<{ ok: boolean; detail: string }>) => {
    try {
      const r = await check();
      results.push({ name, status: r.ok ? 'compliant' : 'non_compliant', detail: r.detail, policies: names });
    } catch (err) {
      ctx.log.warn({ err, check: name }, 'compliance check could not read its facts');
      results.push({
        name,
        status: 'error',
        detail: `The check could not be completed: ${err instanceof Error ? err.message : String(err)}`,
        policies: names,
      });
    }
  };

  // Every active person has a second factor (unless every policy that speaks of it says it is not required).
  const mfaPolicies = policies.filter((p) => typeof p.definition.requireMfa === 'boolean');
  const mfaRequired = mfaPolicies.length === 0 || mfaPolicies.some((p) => p.definition.requireMfa === true);
  await run(
    'MFA_ENROLLMENT',
    mfaPolicies.map((p) => p.name),
    async () => {
      const [without, total] = await Promise.all([repo.activeUsersWithoutMfa(ctx.db, org), repo.countActiveUsers(ctx.db, org)]);
      if (without.length === 0) return { ok: true, detail: `All ${total} active users have multi-factor authentication.` };
      const list = `${without
        .slice(0, 10)
        .map((u) => u.email)
        .join(', ')}${without.length > 10 ? ', ...' : ''}`;
      return mfaRequired
        ? { ok: false, detail: `${without.length} of ${total} active users have no multi-factor authentication: ${list}.` }
        : {
            ok: true,
            detail: `${without.length} of ${total} active users have no multi-factor authentication; no active policy requires it.`,
          };
    },
  );

  // The default retention is at least the longest minimum an active policy asks for.
  const minRetention = strictest(policies, 'minRetentionYears', Math.max);
  await run('RETENTION_MINIMUM', minRetention.policies, async () => {
    const years = await repo.defaultRetentionYears(ctx.db, org);
    if (minRetention.value === null)
      return { ok: true, detail: `Default retention is ${years} years; no active policy sets a minimum (minRetentionYears).` };
    return years >= minRetention.value
      ? { ok: true, detail: `Default retention of ${years} years meets the minimum of ${minRetention.value} years.` }
      : { ok: false, detail: `Default retention of ${years} years is below the minimum of ${minRetention.value} years.` };
  });

  // Vaulted files are still locked at least as long as recorded, and their bytes still have their sha256.
  const sample = policies.some((p) => p.definition.vaultSampleSize === 0)
    ? { value: 0, policies: policies.filter((p) => p.definition.vaultSampleSize === 0).map((p) => p.name) }
    : strictest(policies, 'vaultSampleSize', Math.max);
  await run('VAULT_LOCKS', sample.policies, () => checkVaultLocks(ctx, org, sample.value ?? COMPLIANCE_DEFAULTS.vaultSampleSize));

  // The audit chain verifies end to end.
  await run('AUDIT_CHAIN', [], async () => {
    const check = await verifyOrganizationChain(ctx, org);
    return check.isValid
      ? { ok: true, detail: `The audit chain is intact: ${check.checkedEntries} entries verified.` }
      : { ok: false, detail: `The audit chain is broken: ${check.invalidEntries.length} invalid of ${check.checkedEntries} entries.` };
  });

  // No log entry older than the archival age is still waiting in the database.
  const archiveAfter = strictest(policies, 'archiveAfterDays', Math.min);
  await run('ARCHIVAL_CURRENT', archiveAfter.policies, async () => {
    const days = archiveAfter.value ?? COMPLIANCE_DEFAULTS.archiveAfterDays;
    const { count, oldest } = await repo.countUnarchivedOlderThan(ctx.db, org, days);
    return count === 0
      ? { ok: true, detail: `No log entry older than ${days} days awaits archival.` }
      : {
          ok: false,
          detail: `Archival overdue: ${count} log entries older than ${days} days (the oldest from ${oldest?.toISOString() ?? '?'}) are not archived.`,
        };
  });

  // Every active administrator signed in recently.
  const review = strictest(policies, 'adminSignInReviewDays', Math.min);
  await run('ADMIN_SIGN_IN_REVIEW', review.policies, async () => {
    const days = review.value ?? COMPLIANCE_DEFAULTS.adminSignInReviewDays;
    const stale = await repo.adminsWithoutRecentSignIn(ctx.db, org, days);
    if (stale.length === 0) return { ok: true, detail: `Every active administrator signed in within the last ${days} days.` };
    const list = stale
      .slice(0, 10)
      .map((a) => `${a.email} (${a.lastSignInAt ? `last ${new Date(a.lastSignInAt as Date).toISOString().slice(0, 10)}` : 'never'})`)
      .join(', ');
    return {
      ok: false,
      detail: `${stale.length} active administrator(s) have not signed in within ${days} days: ${list}. Review or deactivate them.`,
    };
  });

  const summary = {
    totalChecks: results.length,
    compliant: results.filter((r) => r.status === 'compliant').length,
    nonCompliant: results.filter((r) => r.status === 'non_compliant').length,
    errors: results.filter((r) => r.status === 'error').length,
  };
  const stored = await ctx.db.transaction().execute(async (trx) => {
    const report = await repo.insertComplianceReport(trx, org, auth.user.id, summary, results);
    await auditFor(auth.user, meta)(
      trx,
      'COMPLIANCE_CHECK_COMPLETED',
      { table: 'compliance_reports', id: report.id },
      {
        ...summary,
        failed: results.filter((r) => r.status !== 'compliant').map((r) => r.name),
        policies: policies.map((p) => `${p.name} v${p.version}`),
      },
    );
    return report;
  });
  return { reportId: stored.id, organizationId: org, generatedAt: stored.generatedAt.toISOString(), summary, results };
}

/** Vaulted files (all, or a sample of `size`) still locked at least as long as recorded, their bytes unchanged. */
async function checkVaultLocks(ctx: AppContext, org: string, size: number): Promise<{ ok: boolean; detail: string }> {
  const { rows, total } = await repo.vaultedObjects(ctx.db, org, size);
  if (total === 0) return { ok: true, detail: 'No files are vaulted.' };
  const now = new Date();
  const problems: string[] = [];
  let coldSkipped = 0;
  for (const row of rows) {
    const info = await ctx.store.vaultInfo(row.objectKey);
    if (!info) {
      problems.push(`${row.path}: missing from the vault`);
      continue;
    }
    if (!info.lock || !isLockActive(info.lock, now)) problems.push(`${row.path}: not locked`);
    else if (info.lock.retainUntil.getTime() < row.retainUntil.getTime())
      problems.push(`${row.path}: locked only until ${info.lock.retainUntil.toISOString()}`);
    if (info.restore && !info.restore.readyUntil) {
      coldSkipped++;
      continue;
    }
    const sha = await ctx.store.sha256(row.objectKey);
    if (sha !== row.sha256) problems.push(`${row.path}: content changed (sha256 ${sha})`);
  }
  const scope = rows.length === total ? `all ${total}` : `a sample of ${rows.length} of ${total}`;
  const cold = coldSkipped > 0 ? ` ${coldSkipped} in cold storage were checked for their lock only.` : '';
  return problems.length === 0
    ? { ok: true, detail: `Checked ${scope} vaulted files: each locked and unchanged.${cold}` }
    : { ok: false, detail: `Checked ${scope} vaulted files; ${problems.length} problem(s): ${problems.slice(0, 10).join('; ')}.${cold}` };
}
