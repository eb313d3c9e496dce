import {
  changeRoleRequest,
  DEFAULT_PERMISSIONS,
  manageUserRequest,
  PERMISSION_KEYS,
  PERMISSION_LABELS,
  TEAM_MSG,
  updatePermissionsRequest,
  userStatusRequest,
  type Permissions,
  type Role,
} from '@strongroom/contracts';
import type { AllowRule } from '../../../shared/route-access.js';
import { changeRole, deactivateUser, manageUser, updatePermissions } from '../../team/index.js';
import { memberForPreview, type MemberForPreview } from '../approvals.repository.js';
import type { GovernedAction, GovernedEffect } from './governed-action.js';

/** The team routes' rule: people who manage users. */
const managers: readonly AllowRule[] = [{ rule: 'manageUsers', deny: TEAM_MSG.noPermission }];

const memberTouch = (m: MemberForPreview) =>
  `version ${m.version}, ${m.role}, ${m.isActive ? 'active' : 'inactive'}, ${PERMISSION_KEYS.filter((k) => m.permissions[k]).join(' ') || 'no permissions'}`;

type After = { role: Role; permissions: Permissions };

/** What a change gives a member that they did not have: the administrator role, user management. */
function grantEffect(member: MemberForPreview, after: After): GovernedEffect | null {
  const gained = PERMISSION_KEYS.filter((k) => after.permissions[k] && !member.permissions[k]);
  const becomesAdmin = after.role === 'admin' && member.role !== 'admin';
  if (!becomesAdmin && !gained.includes('canManageUsers')) return null;
  const who = `${member.fullName} (${member.email})`;
  return {
    preview: {
      action: 'GRANT_ADMIN_ACCESS',
      title: becomesAdmin ? `Make ${who} an administrator` : `Let ${who} manage users`,
      summary: `${member.fullName} gains ${becomesAdmin ? 'the administrator role and ' : ''}${gained.length === 0 ? 'no further permission' : gained.map((k) => PERMISSION_LABELS[k].label).join(', ')}.`,
      cannotBeUndone: false,
      facts: [
        { label: 'Person', value: who },
        { label: 'Role', value: becomesAdmin ? `${member.role} → admin` : member.role },
      ],
      permissionsGained: [...(becomesAdmin ? ['Administrator role'] : []), ...gained.map((k) => PERMISSION_LABELS[k].label)],
    },
    touches: { member: memberTouch(member) },
  };
}

function deactivateEffect(member: MemberForPreview): GovernedEffect | null {
  if (member.role !== 'admin' || !member.isActive) return null;
  return {
    preview: {
      action: 'DEACTIVATE_ADMIN',
      title: `Deactivate the administrator ${member.fullName} (${member.email})`,
      summary: `${member.fullName} is signed out everywhere and can no longer sign in or approve requests until reactivated.`,
      cannotBeUndone: false,
      facts: [
        { label: 'Person', value: `${member.fullName} (${member.email})` },
        { label: 'Role', value: 'admin' },
      ],
    },
    touches: { member: memberTouch(member) },
  };
}

export const grantByRole: GovernedAction = {
  action: 'GRANT_ADMIN_ACCESS',
  route: { method: 'POST', path: '/_api/settings/users/role' },
  allow: managers,
  async preview({ trx, auth, body }) {
    const input = changeRoleRequest.parse(body);
    const member = await memberForPreview(trx, auth.user.organizationId, input.userId);
    return member ? grantEffect(member, { role: input.newRole, permissions: DEFAULT_PERMISSIONS[input.newRole] }) : null;
  },
  execute: (ctx, auth, body, meta) => changeRole(ctx, auth, changeRoleRequest.parse(body), meta),
};

export const grantByPermissions: GovernedAction = {
  action: 'GRANT_ADMIN_ACCESS',
  route: { method: 'POST', path: '/_api/settings/users/permissions' },
  allow: managers,
  async preview({ trx, auth, body }) {
    const input = updatePermissionsRequest.parse(body);
    const member = await memberForPreview(trx, auth.user.organizationId, input.userId);
    return member ? grantEffect(member, { role: member.role, permissions: { ...member.permissions, ...input.permissions } }) : null;
  },
  execute: (ctx, auth, body, meta) => updatePermissions(ctx, auth, updatePermissionsRequest.parse(body), meta),
};

/** The manage call changes role, permissions and status at once: a grant or a deactivation, whichever it makes. */
function manageAfter(member: MemberForPreview, changes: { role?: Role; permissions?: Partial<Permissions> }): After {
  const role = changes.role ?? member.role;
  const base = changes.role !== undefined && changes.role !== member.role ? DEFAULT_PERMISSIONS[role] : member.permissions;
  return { role, permissions: { ...base, ...changes.permissions } };
}

export const grantByManage: GovernedAction = {
  action: 'GRANT_ADMIN_ACCESS',
  route: { method: 'POST', path: '/_api/settings/users/manage' },
  allow: managers,
  async preview({ trx, auth, body }) {
    const input = manageUserRequest.parse(body);
    const member = await memberForPreview(trx, auth.user.organizationId, input.userId);
    return member ? grantEffect(member, manageAfter(member, input.changes)) : null;
  },
  execute: (ctx, auth, body, meta) => manageUser(ctx, auth, manageUserRequest.parse(body), meta),
};

export const deactivateByManage: GovernedAction = {
  action: 'DEACTIVATE_ADMIN',
  route: { method: 'POST', path: '/_api/settings/users/manage' },
  allow: managers,
  async preview({ trx, auth, body }) {
    const input = manageUserRequest.parse(body);
    if (input.changes.isActive !== false) return null;
    const member = await memberForPreview(trx, auth.user.organizationId, input.userId);
    return member ? deactivateEffect(member) : null;
  },
  execute: (ctx, auth, body, meta) => manageUser(ctx, auth, manageUserRequest.parse(body), meta),
};

export const deactivateAdmin: GovernedAction = {
  action: 'DEACTIVATE_ADMIN',
  route: { method: 'POST', path: '/_api/settings/users/deactivate' },
  allow: managers,
  async preview({ trx, auth, body }) {
    const input = userStatusRequest.parse(body);
    const member = await memberForPreview(trx, auth.user.organizationId, input.userId);
    return member ? deactivateEffect(member) : null;
  },
  execute: (ctx, auth, body, meta) => deactivateUser(ctx, auth, userStatusRequest.parse(body), meta),
};
