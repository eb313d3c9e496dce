/**
 * Security assessments: scans of the organization combined into one risk level.
 */
import {
  SECURITY_TOOLING_MSG as T,
  SEVERITIES,
  type RiskLevel,
  type SecurityAssessmentRequest,
  type SecurityAssessmentResponse,
  type Severity,
} from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { notFound } from '../../shared/errors.js';
import type { AuthContext } from '../sessions/index.js';
import * as repo from './security-tooling.repository.js';
import { VULNERABLE } from './vulnerability-scan.service.js';

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
