import type { PermissionKey } from '@strongroom/contracts';
import { MSG, PAGE_ROLES } from '@strongroom/contracts';
import { forbidden } from './errors.js';

type Actor = { role: 'admin' | 'user' | 'guest'; permissions: Record<PermissionKey, boolean> };

/** Matters, folders and files are for admins and users; guests see 'Access denied'. */
export function requireMemberRole(user: Actor): void {
  if (!PAGE_ROLES.includes(user.role)) throw forbidden(MSG.accessDenied(user.role));
}

/**
 * A permission that reads and never changes (downloading files): guests may hold it too, for the matters shared
 * with them (the matter check enforces that), so only the flag is checked here.
 */
export function requireReadPermission(user: Actor, permission: 'canRetrieve'): void {
  if (!user.permissions[permission]) throw forbidden();
}

/** A named permission flag, after the role check. */
export function requirePermission(user: Actor, permission: PermissionKey): void {
  requireMemberRole(user);
  if (!user.permissions[permission]) throw forbidden();
}
