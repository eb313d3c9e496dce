import type {
  FeatureFlag,
  FeatureFlagName,
  FeatureFlagsResponse,
  UpdateFeatureFlagsRequest,
  UpdateFeatureFlagsResponse,
} from '@strongroom/contracts';
import { FEATURE_FLAG_DESCRIPTIONS, FEATURE_FLAG_NAMES, SETTINGS_MSG } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { notFound } from '../../shared/errors.js';
import type { AuthContext } from '../sessions/index.js';
import { lockOrganization } from '../users/index.js';
import { findFlag, insertFlags, listFlags, upsertFlag } from './feature-flags.repository.js';

/** A new organization asks for a fresh second factor on every critical operation. */
const DEFAULT_FLAGS: Record<FeatureFlagName, boolean> = {
  MFA_USER_MANAGEMENT: true,
  MFA_ORGANIZATION_SETTINGS: true,
  MFA_VAULT_OPERATIONS: true,
  MFA_RETENTION_POLICIES: true,
  MFA_SYSTEM_OPERATIONS: true,
  enhanced_user_management: false,
};

export async function insertDefaultFlags(trx: Executor, organizationId: string): Promise<void> {
  await insertFlags(trx, organizationId, DEFAULT_FLAGS, FEATURE_FLAG_NAMES);
}

/** A missing row reads as the default, so a flag added later is on for MFA flags without a migration. */
export async function isFlagEnabled(db: Executor, organizationId: string, flag: FeatureFlagName): Promise<boolean> {
  return (await findFlag(db, organizationId, flag)) ?? DEFAULT_FLAGS[flag];
}

/** The six flags of the organization in their fixed order, a missing row read as its default. */
async function flagsOf(db: Executor, organizationId: string): Promise<FeatureFlag[]> {
  const stored = new Map((await listFlags(db, organizationId)).map((r) => [r.flagName, r.enabled]));
  return FEATURE_FLAG_NAMES.map((flagName) => ({
    flagName,
    description: FEATURE_FLAG_DESCRIPTIONS[flagName],
    enabled: stored.get(flagName) ?? DEFAULT_FLAGS[flagName],
  }));
}

/** GET /_api/settings/feature-flags (admins). */
export async function getFeatureFlags(ctx: AppContext, auth: AuthContext): Promise<FeatureFlagsResponse> {
  return { featureFlags: await flagsOf(ctx.db, auth.user.organizationId) };
}

/** The flags that make actions ask for a fresh code (enhanced_user_management guards nothing). */
const isMfaFlag = (name: FeatureFlagName) => name.startsWith('MFA_');

/**
 * POST /_api/settings/feature-flags (admins). Every update needs system-level MFA (operation MANAGE_FEATURE_FLAGS:
 * a fresh code, or a live system token of the organization class), whatever the flags say. Turning an MFA flag
 * off removes a safeguard, so that takes a fresh code of the user's method: a system token of any class answers
 * MFA_REQUIRED (decided under the organization's lock, against the flags as they are then). A body naming another
 * organization is refused before any code is asked for. Audited as UPDATE_FEATURE_FLAGS with every flag's value
 * before and after, and how MFA was given.
 */
export async function updateFeatureFlags(
  auth: AuthContext,
  input: UpdateFeatureFlagsRequest,
  meta: RequestMeta,
): Promise<UpdateFeatureFlagsResponse> {
  const orgId = auth.user.organizationId;
  const featureFlags = await auth.stepUp.run(async (trx, via) => {
    // Flag changes of one organization run one at a time, under the organization's row lock.
    if (!(await lockOrganization(trx, orgId))) throw notFound();
    const before = Object.fromEntries((await flagsOf(trx, orgId)).map((f) => [f.flagName, f.enabled]));
    const turnsSafeguardOff = input.flagsToUpdate.some((f) => isMfaFlag(f.flagName) && before[f.flagName] && !f.enabled);
    // A fresh code of the person asking; or, for a request two people approved, the requester's code when asked and
    // the approver's when approved.
    if (turnsSafeguardOff && via !== 'code' && via !== 'approval') throw auth.stepUp.freshCodeRequired();
    for (const f of input.flagsToUpdate) await upsertFlag(trx, orgId, f.flagName, f.enabled);
    const now = await flagsOf(trx, orgId);
    const after = Object.fromEntries(now.map((f) => [f.flagName, f.enabled]));
    const changed = input.flagsToUpdate.filter((f) => before[f.flagName] !== f.enabled).map((f) => f.flagName);
    await auditFor(auth.user, meta)(
      trx,
      'UPDATE_FEATURE_FLAGS',
      { table: 'feature_flags', id: orgId },
      { before, after, changed, mfa: via },
    );
    return now;
  });
  return { success: true, message: SETTINGS_MSG.flagsUpdated, featureFlags };
}
