import type { ScanTargetType } from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { scanApplication } from './scans/application.js';
import type { ScanDeps } from './scans/common.js';
import { scanDatabase } from './scans/database.js';
import { scanInfrastructure } from './scans/infrastructure.js';
import { scanNetwork } from './scans/network.js';
import type { FindingValues } from './security-tooling.repository.js';

export type { HttpProbe, ScanDeps } from './scans/common.js';
export { installedVersion } from './scans/versions.js';

/**
 * What each vulnerability scan target looks at, one module each under scans/. Every check reads the running
 * installation (its answers, its configuration, its database, its object store through the storage layer);
 * nothing is assumed. A check that cannot read its facts says so as an INFO finding instead of passing silently.
 */
export async function scanTarget(ctx: AppContext, targetType: ScanTargetType, deps: ScanDeps): Promise<FindingValues[]> {
  switch (targetType) {
    case 'APPLICATION':
      return scanApplication(ctx, deps);
    case 'DATABASE':
      return scanDatabase(ctx);
    case 'INFRASTRUCTURE':
      return scanInfrastructure(ctx);
    case 'NETWORK':
      return scanNetwork(ctx, deps);
  }
}
