import type { FeatureFlagName } from '@strongroom/contracts';
import { FEATURE_FLAG_NAMES } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';

/** A new organization asks for a fresh second factor on every critical operation. */
export const DEFAULT_FLAGS: Record<FeatureFlagName, boolean> = {
  MFA_USER_MANAGEMENT: true,
  MFA_ORGANIZATION_SETTINGS: true,
  MFA_VAULT_OPERATIONS: true,
  MFA_RETENTION_POLICIES: true,
  MFA_SYSTEM_OPERATIONS: true,
  enhanced_user_management: false,
};

export async function insertDefaultFlags(trx: Executor, organizationId: string): Promise<void> {
  await trx
    .insertInto('featureFlags')
    .values(FEATURE_FLAG_NAMES.map((flagName) => ({ organizationId, flagName, enabled: DEFAULT_FLAGS[flagName] })))
    .execute();
}

/** A missing row reads as the default, so a flag added later is on for MFA flags without a migration. */
export async function isFlagEnabled(db: Executor, organizationId: string, flag: FeatureFlagName): Promise<boolean> {
  const row = await db.selectFrom('featureFlags').select('enabled').where('organizationId', '=', organizationId).where('flagName', '=', flag).executeTakeFirst();
  return row ? row.enabled : DEFAULT_FLAGS[flag];
}
