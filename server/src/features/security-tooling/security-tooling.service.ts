/**
 * The security tooling of an organization's administrators (the routes let only them in). This module holds the
 * security policies; the other tools have a service each: compliance.service.ts (the compliance check against the
 * policies), vulnerability-scan.service.ts (scans of this installation, scans/), assessment.service.ts (risk
 * levels from scans).
 */
import {
  SECURITY_TOOLING_MSG as T,
  type PolicyManageRequest,
  type PolicyManageResponse,
  type SecurityPoliciesResponse,
  type SecurityPolicy,
} from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { conflict, notFound } from '../../shared/errors.js';
import type { AuthContext } from '../sessions/index.js';
import * as repo from './security-tooling.repository.js';

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
  if (auth.stepUp.required) await checkPolicyRules(ctx.db, org, input);
  return auth.stepUp.run(apply);
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
