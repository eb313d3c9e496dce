import type { ApprovalRequestAction } from '@strongroom/contracts';
import type { GovernedAction } from './governed-action.js';
import { destroyAtRetentionEnd } from './destroy-at-retention-end.js';
import { deleteLargeFolder, removeLegalHold, vaultMatter } from './matters.js';
import { archiveAuditLogs, changeApprovalPolicy, disableMfaFlag } from './organization.js';
import { deactivateAdmin, deactivateByManage, grantByManage, grantByPermissions, grantByRole } from './people.js';

export type { GovernedAction, GovernedEffect } from './governed-action.js';

/** Every governed action's preview and execution, one entry per route that can ask for it. */
const GOVERNED_ACTIONS: readonly GovernedAction[] = [
  vaultMatter,
  removeLegalHold,
  deleteLargeFolder,
  disableMfaFlag,
  archiveAuditLogs,
  changeApprovalPolicy,
  grantByRole,
  grantByPermissions,
  grantByManage,
  deactivateByManage,
  deactivateAdmin,
  destroyAtRetentionEnd,
];

/** The entry of an action asked for through one route, if that route can ask for it. */
export function governedActionOf(action: ApprovalRequestAction, path: string): GovernedAction | undefined {
  return GOVERNED_ACTIONS.find((g) => g.action === action && g.route.path === path);
}

/** Every route path that asks for some governed action (the route declarations are checked against it). */
export const governedRoutes = (): readonly { action: ApprovalRequestAction; path: string }[] =>
  GOVERNED_ACTIONS.map((g) => ({ action: g.action, path: g.route.path }));
