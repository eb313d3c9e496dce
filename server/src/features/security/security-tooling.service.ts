import {
  SECURITY_TOOLING_MSG as T,
  SEVERITIES,
  type ComplianceCheckName,
  type ComplianceCheckResult,
  type ComplianceReport,
  type PolicyManageRequest,
  type PolicyManageResponse,
  type RiskLevel,
  type SecurityAssessmentRequest,
  type SecurityAssessmentResponse,
  type SecurityPoliciesResponse,
  type SecurityPolicy,
  type Severity,
  type VulnerabilityScanRequest,
  type VulnerabilityScanResponse,
} from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { isLockActive } from '../../platform/storage/blob-store.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { conflict, forbidden, notFound } from '../../shared/errors.js';
import { verifyOrganizationChain } from '../audit/index.js';
import { isFlagEnabled } from '../feature-flags/feature-flags.service.js';
import { withFreshMfa } from '../mfa/index.js';
import type { AuthContext } from '../sessions/index.js';
import { SECURITY_ADVISORIES } from './security-advisories.js';
import { installedVersion, scanTarget, type HttpProbe, type ScanDeps } from './security-scan.js';
import * as repo from './security-tooling.repository.js';

type Actor = AuthContext['user'];

/** The security tooling is for the organization's administrators only. */
function requireAdmin(user: Actor): void {
  if (user.role !== 'admin') throw forbidden(T.adminsOnly);
}

function toPolicy(p: repo.PolicyRow): SecurityPolicy {
  return {
    id: p.id,
    name: p.name,
    description: p.description,
    definition: p.definition,
    version: p.version,
    isActive: p.isActive,
    organizationId: p.organizationId,
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
  };
}

// ---------------------------------------------------------------- policies

export async function listSecurityPolicies(ctx: AppContext, auth: AuthContext): Promise<SecurityPoliciesResponse> {
  requireAdmin(auth.user);
  return { policies: (await repo.listPolicies(ctx.db, auth.user.organizationId)).map(toPolicy) };
}

/**
 * Creates, updates or deletes a security policy. Names are unique among the organization's live policies. Every
 * change writes the version it produced to the policy's history: an update raises the version by one (a client
 * that sends the version it read is refused with VERSION_MISMATCH when someone changed it since), a deletion
 * keeps the row and its history and frees the name. Each change is audited in its own transaction.
 */
export async function managePolicy(
  ctx: AppContext,
  auth: AuthContext,
  input: PolicyManageRequest,
  meta: RequestMeta,
): Promise<PolicyManageResponse> {
  requireAdmin(auth.user);
  const org = auth.user.organizationId;
  const by = auth.user.id;
  const audit = auditFor(auth.user, meta);
  const apply = async (trx: Executor): Promise<PolicyManageResponse> => {
    const rule = await checkPolicyRules(trx, org, input);
    if (rule.operation === 'create') {
      const p = input.policy!;
      const row = await repo.insertPolicy(trx, org, { ...p, version: p.version ?? 1 }, by);
      if (!row) throw conflict(T.policyExists(p.name), { reason: 'NAME_TAKEN', field: 'name' });
      await repo.insertPolicyVersion(trx, row, 'create', by);
      await audit(
        trx,
        'SECURITY_POLICY_CREATED',
        { table: 'security_policies', id: row.id },
        {
          name: row.name,
          version: row.version,
          isActive: row.isActive,
          definition: row.definition,
        },
      );
      return { message: T.policyCreated(row.name), policy: toPolicy(row) };
    }
    const current = rule.current;
    if (rule.operation === 'update') {
      const p = input.policy!;
      const row = await repo.updatePolicy(trx, org, current.id, { ...p, version: current.version + 1 }, by);
      await repo.insertPolicyVersion(trx, row, 'update', by);
      await audit(
        trx,
        'SECURITY_POLICY_UPDATED',
        { table: 'security_policies', id: row.id },
        {
          name: row.name,
          version: { from: current.version, to: row.version },
          changes: changedFields(current, row),
        },
      );
      return { message: T.policyUpdated(row.name, row.version), policy: toPolicy(row) };
    }
    await repo.markPolicyDeleted(trx, org, current.id, by);
    await repo.insertPolicyVersion(trx, { ...current, isActive: false }, 'delete', by);
    await audit(
      trx,
      'SECURITY_POLICY_DELETED',
      { table: 'security_policies', id: current.id },
      { name: current.name, version: current.version },
    );
    return { message: T.policyDeleted(current.name), policy: null };
  };
  // Managing policies is a system operation: while the organization asks for MFA on those, a fresh code is
  // needed, asked for only once the request is known to be acceptable (the rules run again under lock after).
  if (await isFlagEnabled(ctx.db, org, 'MFA_SYSTEM_OPERATIONS')) {
    await checkPolicyRules(ctx.db, org, input);
    return withFreshMfa(ctx, auth, 'MFA_SYSTEM_OPERATIONS', input.mfaToken, meta.ip, (trx) => apply(trx));
  }
  return ctx.db.transaction().execute(apply);
}

type RuleCheck = { operation: 'create' } | { operation: 'update' | 'delete'; current: repo.PolicyRow };

/** The rules of a policy change, read under lock when run inside the change's transaction. */
async function checkPolicyRules(db: Executor, org: string, input: PolicyManageRequest): Promise<RuleCheck> {
  if (input.operation === 'create') {
    const name = input.policy!.name;
    if (await repo.lockPolicyByName(db, org, name)) throw conflict(T.policyExists(name), { reason: 'NAME_TAKEN', field: 'name' });
    return { operation: 'create' };
  }
  const targetName = input.operation === 'update' ? (input.policyName ?? input.policy!.name) : input.policyName!;
  const current = await repo.lockPolicyByName(db, org, targetName);
  if (!current) throw notFound(T.policyNotFound(targetName));
  if (input.operation === 'update') {
    const p = input.policy!;
    if (p.version !== undefined && p.version !== current.version) {
      throw conflict(T.policyVersionStale, { reason: 'VERSION_MISMATCH', currentVersion: current.version });
    }
    if (p.name !== current.name && (await repo.lockPolicyByName(db, org, p.name))) {
      throw conflict(T.policyExists(p.name), { reason: 'NAME_TAKEN', field: 'name' });
    }
  }
  return { operation: input.operation, current };
}

function changedFields(a: repo.PolicyRow, b: repo.PolicyRow): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const k of ['name', 'description', 'isActive'] as const) if (a[k] !== b[k]) out[k] = { from: a[k], to: b[k] };
  if (JSON.stringify(a.definition) !== JSON.stringify(b.definition)) out.definition = { from: a.definition, to: b.definition };
  return out;
}

// ---------------------------------------------------------------- compliance

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
  requireAdmin(auth.user);
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
  await run('VAULT_LOCKS', sample.policies, async () => {
    const size = sample.value ?? COMPLIANCE_DEFAULTS.vaultSampleSize;
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
  });

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

// ---------------------------------------------------------------- scans

const VULNERABLE: Severity[] = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'];

function countBySeverity(items: { severity: Severity }[]): Record<Severity, number> {
  const out = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const f of items) out[f.severity]++;
  return out;
}

/**
 * Scans one target of this installation (the identifier is the administrator's label for it, stored with the
 * scan), stores the scan and its findings and audits VULNERABILITY_SCAN_COMPLETED. INFO findings are facts, not
 * vulnerabilities.
 */
export async function runVulnerabilityScan(
  ctx: AppContext,
  auth: AuthContext,
  input: VulnerabilityScanRequest,
  meta: RequestMeta,
  probe: HttpProbe,
  deps: Partial<Omit<ScanDeps, 'probe'>> = {},
): Promise<VulnerabilityScanResponse> {
  requireAdmin(auth.user);
  const org = auth.user.organizationId;
  const findings = await scanTarget(ctx, input.targetType, {
    probe,
    advisories: deps.advisories ?? SECURITY_ADVISORIES,
    installedVersion: deps.installedVersion ?? installedVersion,
  });
  findings.sort((a, b) => SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity));
  const bySeverity = countBySeverity(findings);
  const total = VULNERABLE.reduce((n, s) => n + bySeverity[s], 0);
  const { scan, rows } = await ctx.db.transaction().execute(async (trx) => {
    const scan = await repo.insertScan(trx, org, {
      targetType: input.targetType,
      targetIdentifier: input.targetIdentifier,
      by: auth.user.id,
      total,
      bySeverity,
    });
    const rows = await repo.insertFindings(trx, org, scan.id, findings);
    await auditFor(auth.user, meta)(
      trx,
      'VULNERABILITY_SCAN_COMPLETED',
      { table: 'vulnerability_scans', id: scan.id },
      {
        targetType: input.targetType,
        targetIdentifier: input.targetIdentifier,
        totalVulnerabilities: total,
        bySeverity,
      },
    );
    return { scan, rows };
  });
  return {
    message: total === 0 ? T.scanClean : T.scanFound(total),
    scanId: scan.id,
    assessmentId: null,
    targetType: input.targetType,
    targetIdentifier: input.targetIdentifier,
    createdAt: scan.createdAt.toISOString(),
    summary: { totalVulnerabilities: total, bySeverity },
    findings: rows.map((r) => ({
      id: r.id,
      check: r.checkName,
      severity: r.severity,
      title: r.title,
      detail: r.detail,
      recommendation: r.recommendation,
    })),
  };
}

// ---------------------------------------------------------------- assessments

/** Five or more MEDIUM findings together weigh as one HIGH: many small gaps make a large one. */
const MEDIUMS_MAKING_HIGH = 5;

export function riskLevelOf(bySeverity: Record<Severity, number>): RiskLevel {
  if (bySeverity.CRITICAL > 0) return 'CRITICAL';
  if (bySeverity.HIGH > 0 || bySeverity.MEDIUM >= MEDIUMS_MAKING_HIGH) return 'HIGH';
  if (bySeverity.MEDIUM > 0) return 'MEDIUM';
  return 'LOW';
}

/**
 * Combines scans of the organization into one risk level: the worst severity found (see riskLevelOf), with the
 * counts and the worst findings named. A scan id of another organization, or none, answers 404.
 */
export async function runSecurityAssessment(
  ctx: AppContext,
  auth: AuthContext,
  input: SecurityAssessmentRequest,
  meta: RequestMeta,
): Promise<SecurityAssessmentResponse> {
  requireAdmin(auth.user);
  const org = auth.user.organizationId;
  const ids = [...new Set(input.scanIds.map((s) => s.toLowerCase()))];
  const scans = await repo.scansByIds(ctx.db, org, ids);
  if (scans.length !== ids.length) throw notFound(T.scanNotFound);
  const bySeverity = Object.fromEntries(SEVERITIES.map((s) => [s, 0])) as Record<Severity, number>;
  for (const s of scans) for (const sev of SEVERITIES) bySeverity[sev] += Number((s.bySeverity as Record<string, number>)[sev] ?? 0);
  const totalVulnerabilities = VULNERABLE.reduce((n, s) => n + bySeverity[s], 0);
  const level = riskLevelOf(bySeverity);
  const worst = await repo.worstFindings(ctx.db, org, ids, 3);
  const targets = [...new Set(scans.map((s) => s.targetType))].sort().join(', ');
  const text =
    totalVulnerabilities === 0
      ? `${scans.length} scan(s) of ${targets}: no vulnerabilities found.`
      : `${scans.length} scan(s) of ${targets}: ${totalVulnerabilities} vulnerabilit${totalVulnerabilities === 1 ? 'y' : 'ies'} (${VULNERABLE.filter(
          (s) => bySeverity[s] > 0,
        )
          .map((s) => `${bySeverity[s]} ${s}`)
          .join(', ')}). Fix first: ${worst.map((w) => `${w.title} (${w.severity})`).join('; ')}.`;
  const summary = { scans: scans.length, totalVulnerabilities, bySeverity, text };
  const assessment = await ctx.db.transaction().execute(async (trx) => {
    const a = await repo.insertAssessment(trx, org, { scanIds: ids, level, summary, by: auth.user.id });
    await auditFor(auth.user, meta)(
      trx,
      'SECURITY_ASSESSMENT_COMPLETED',
      { table: 'security_assessments', id: a.id },
      {
        scanIds: ids,
        overallRiskLevel: level,
        totalVulnerabilities,
        bySeverity,
      },
    );
    return a;
  });
  return { message: T.assessmentDone(level), assessmentId: assessment.id, overallRiskLevel: level, summary };
}
