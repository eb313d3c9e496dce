import {
  APPROVAL_MSG,
  type ApprovalSettingsResponse,
  type UpdateApprovalSettingsRequest,
  type UpdateApprovalSettingsResponse,
} from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { conflict } from '../../shared/errors.js';
import { lockOrganization } from '../users/index.js';
import type { AuthContext } from '../sessions/index.js';
import { countActiveAdministrators, readApprovalPolicy, saveApprovalPolicy, type ApprovalPolicy } from './approvals.repository.js';

async function settingsOf(db: Executor, organizationId: string, policy?: ApprovalPolicy): Promise<ApprovalSettingsResponse> {
  const p = policy ?? (await readApprovalPolicy(db, organizationId));
  return { ...p, activeAdministrators: await countActiveAdministrators(db, organizationId) };
}

/** GET /_api/settings/approvals */
export function getApprovalSettings(ctx: AppContext, auth: AuthContext): Promise<ApprovalSettingsResponse> {
  return settingsOf(ctx.db, auth.user.organizationId);
}

/**
 * POST /_api/settings/approvals: the actions listed need a second approver from now on. A rule needs someone to
 * approve: with fewer than two active administrators no rule can be turned on. Under the organization's lock,
 * so two changes of the rules (or a change and an administrator leaving) do not interleave.
 */
export async function updateApprovalPolicy(
  _ctx: AppContext,
  auth: AuthContext,
  input: UpdateApprovalSettingsRequest,
  meta: RequestMeta,
): Promise<UpdateApprovalSettingsResponse> {
  const orgId = auth.user.organizationId;
  const settings = await auth.stepUp.run(async (trx) => {
    await lockOrganization(trx, orgId);
    const before = await readApprovalPolicy(trx, orgId, true);
    const after: ApprovalPolicy = {
      actions: [...input.actions],
      expiryHours: input.expiryHours ?? before.expiryHours,
      folderFileThreshold: input.folderFileThreshold ?? before.folderFileThreshold,
      dispositionLeadDays: input.dispositionLeadDays ?? before.dispositionLeadDays,
    };
    if (after.actions.length > 0 && (await countActiveAdministrators(trx, orgId)) < 2) {
      throw conflict(APPROVAL_MSG.secondApproverNeeded, { reason: 'SECOND_APPROVER_NEEDED' });
    }
    await saveApprovalPolicy(trx, orgId, after);
    const changed = Object.fromEntries(
      (Object.keys(after) as (keyof ApprovalPolicy)[])
        .filter((k) => JSON.stringify(after[k]) !== JSON.stringify(before[k]))
        .map((k) => [k, { from: before[k], to: after[k] }]),
    );
    await auditFor(auth.user, meta)(
      trx,
      'UPDATE_APPROVAL_POLICY',
      { table: 'approval_settings', id: orgId },
      { changes: changed, actions: after.actions, ...(input.reason ? { reason: input.reason } : {}) },
    );
    return settingsOf(trx, orgId, after);
  });
  return { success: true, message: APPROVAL_MSG.policySaved, settings };
}
