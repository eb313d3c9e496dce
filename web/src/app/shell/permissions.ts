import type { SessionUser } from '@strongroom/contracts';

/** Admins, and users whose canInviteUsers permission is set, may invite people. */
export function canInviteUsers(user: SessionUser): boolean {
  return user.role === 'admin' || user.permissions.canInviteUsers;
}
