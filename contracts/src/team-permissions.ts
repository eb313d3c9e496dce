import type { Permissions, Role } from './constants.js';

/** Who is asking: the role and the two permissions that govern inviting. */
type Inviter = { role: Role; permissions: Pick<Permissions, 'canManageUsers' | 'canInviteUsers'> };

/**
 * The roles a person may invite, one rule for the server's check and the web's buttons: an admin invites any
 * role; a user holding canManageUsers invites users and guests; a user holding only canInviteUsers invites
 * guests; a guest invites nobody, whatever their permissions say.
 */
export function invitableRoles(user: Inviter): Role[] {
  if (user.role === 'admin') return ['admin', 'user', 'guest'];
  if (user.role === 'guest') return [];
  if (user.permissions.canManageUsers) return ['user', 'guest'];
  if (user.permissions.canInviteUsers) return ['guest'];
  return [];
}

/** Whether the person may invite anyone at all (the Invite User buttons show exactly then). */
export function canInviteMembers(user: Inviter): boolean {
  return invitableRoles(user).length > 0;
}
