import type { FeatureFlagName } from '@strongroom/contracts';
import { FEATURE_FLAG_NAMES } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { findFlag, insertFlags } from './feature-flags.repository.js';

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
