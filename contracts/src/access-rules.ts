import type { Permissions, Role } from './constants.js';
import { canInviteMembers } from './team-permissions.js';

/** Who is asking, as far as the rules below need to know. */
export type AccessSubject = { role: Role; permissions: Permissions; isActive?: boolean };

const member = (u: AccessSubject): boolean => u.role !== 'guest';
const manageUsers = (u: AccessSubject): boolean => u.isActive !== false && member(u) && u.permissions.canManageUsers;

/**
 * Who may call what, once for both sides: the server's route declarations name one of these rules and refuse the
 * call when it does not hold, and the web app shows a button, link or page exactly when the same rule holds.
 * - anyone: every signed-in person, guests included (their own profile, password, second factor);
 * - member: administrators and users (matters, folders, files, the audit log); guests are refused;
 * - admin: administrators (legal holds, organization settings, feature flags, security tooling, archival);
 * - createMatters / upload: members holding canUpload;
 * - rename: members holding canRename (renaming a folder or a file);
 * - vault: administrators, and users holding canVault;
 * - viewVaulted: members holding canViewVaulted (the vault's lists, reports and certificates);
 * - reviewDisposition: administrators and members holding canViewVaulted (the disposition review's queue);
 * - manageUsers: active members holding canManageUsers (the team's changes);
 * - seeTeam: whoever manages users or may invite someone (the team list, read-only for inviters);
 * - invite: whoever may invite at least one role (see invitableRoles);
 * - shareWithGuests / resetMfa: administrators who manage users.
 */
export const ACCESS_RULES = {
  anyone: () => true,
  member,
  admin: (u: AccessSubject) => u.role === 'admin',
  createMatters: (u: AccessSubject) => member(u) && u.permissions.canUpload,
  upload: (u: AccessSubject) => member(u) && u.permissions.canUpload,
  rename: (u: AccessSubject) => member(u) && u.permissions.canRename,
  vault: (u: AccessSubject) => member(u) && (u.role === 'admin' || u.permissions.canVault),
  viewVaulted: (u: AccessSubject) => member(u) && u.permissions.canViewVaulted,
  reviewDisposition: (u: AccessSubject) => member(u) && (u.role === 'admin' || u.permissions.canViewVaulted),
  manageUsers,
  seeTeam: (u: AccessSubject) => manageUsers(u) || canInviteMembers(u),
  invite: (u: AccessSubject) => canInviteMembers(u),
  shareWithGuests: (u: AccessSubject) => u.role === 'admin' && manageUsers(u),
  resetMfa: (u: AccessSubject) => u.role === 'admin' && manageUsers(u),
} as const satisfies Record<string, (u: AccessSubject) => boolean>;

export type AccessRule = keyof typeof ACCESS_RULES;

/** Whether `user` may do what `rule` governs. */
export function may(user: AccessSubject, rule: AccessRule): boolean {
  return ACCESS_RULES[rule](user);
}
