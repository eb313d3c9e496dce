import type { FeatureFlagName } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';

export async function insertFlags(
  db: Executor,
  organizationId: string,
  flags: Record<FeatureFlagName, boolean>,
  names: readonly FeatureFlagName[],
): Promise<void> {
  await db
    .insertInto('featureFlags')
    .values(names.map((flagName) => ({ organizationId, flagName, enabled: flags[flagName] })))
    .execute();
}

/** The stored setting of one flag, or undefined when the organization has no row for it. */
export async function findFlag(db: Executor, organizationId: string, flag: FeatureFlagName): Promise<boolean | undefined> {
  const row = await db
    .selectFrom('featureFlags')
    .select('enabled')
    .where('organizationId', '=', organizationId)
    .where('flagName', '=', flag)
    .executeTakeFirst();
  return row?.enabled;
}

/** Every stored flag of the organization. */
export function listFlags(db: Executor, organizationId: string) {
  return db.selectFrom('featureFlags').select(['flagName', 'enabled']).where('organizationId', '=', organizationId).execute();
}

export async function upsertFlag(db: Executor, organizationId: string, flagName: FeatureFlagName, enabled: boolean): Promise<void> {
  await db
    .insertInto('featureFlags')
    .values({ organizationId, flagName, enabled, updatedAt: new Date() })
    .onConflict((oc) => oc.columns(['organizationId', 'flagName']).doUpdateSet({ enabled, updatedAt: new Date() }))
    .execute();
}
