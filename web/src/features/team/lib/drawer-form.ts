import {
  DEFAULT_PERMISSIONS,
  PERMISSION_KEYS,
  TEAM_MSG,
  type ManagedUser,
  type ManageUserRequest,
  type PermissionKey,
  type Permissions,
  type Role,
  type UserChanges,
} from '@strongroom/contracts';
import { isApiError } from '@/lib/api-error';

/** What the Manage drawer edits: the role, the account status and the eight permission switches. */
export type DrawerValues = { role: Role; isActive: boolean; permissions: Permissions };

export function drawerValues(user: ManagedUser): DrawerValues {
  return { role: user.role, isActive: user.status === 'active', permissions: { ...user.permissions } };
}

/** A new role starts from that role's default switches. */
export function withRole(values: DrawerValues, role: Role): DrawerValues {
  return { ...values, role, permissions: { ...DEFAULT_PERMISSIONS[role] } };
}

export function withPermission(values: DrawerValues, key: PermissionKey, on: boolean): DrawerValues {
  return { ...values, permissions: { ...values.permissions, [key]: on } };
}

/**
 * The changes between the user as read and the form, or null when there are none. A role change sends the
 * whole set of switches (the role's defaults as the person adjusted them); otherwise only the switches moved.
 */
export function changesOf(user: ManagedUser, values: DrawerValues): UserChanges | null {
  const original = drawerValues(user);
  const changes: UserChanges = {};
  if (values.role !== original.role) changes.role = values.role;
  if (values.isActive !== original.isActive) changes.isActive = values.isActive;
  const moved = PERMISSION_KEYS.filter((k) => values.permissions[k] !== original.permissions[k]);
  if (changes.role) changes.permissions = { ...values.permissions };
  else if (moved.length > 0) changes.permissions = Object.fromEntries(moved.map((k) => [k, values.permissions[k]])) as Partial<Permissions>;
  return Object.keys(changes).length > 0 ? changes : null;
}

/** The manage request of a save: against the version last read, in the name of the person saving. */
export function manageBody(user: ManagedUser, changes: UserChanges, updatedBy: string, reason?: string): ManageUserRequest {
  return {
    userId: user.id,
    changes,
    updatedBy,
    version: user.version,
    timestamp: new Date().toISOString(),
    ...(reason ? { reason } : {}),
  };
}

/**
 * The text of a failed save. The server's code decides; a bare failure falls back to the words of its text,
 * and a non-error value to the generic text.
 */
export function manageErrorText(error: unknown): string {
  if (isApiError(error)) {
    switch (error.code) {
      case 'RATE_LIMIT_EXCEEDED':
        return error.message || TEAM_MSG.rateLimited;
      case 'CONFLICT_ERROR':
        return TEAM_MSG.conflictThrown;
      case 'PERMISSION_ERROR':
        return error.message || TEAM_MSG.permissionThrown;
      case 'NETWORK_ERROR':
        return TEAM_MSG.networkThrown;
      case 'LAST_ADMIN_ERROR':
      case 'NOT_FOUND':
      case 'VALIDATION_ERROR':
        return error.message || TEAM_MSG.unknownError;
      default:
        break;
    }
  }
  if (error instanceof Error) {
    const m = error.message.toLowerCase();
    if (m.includes('rate limit')) return TEAM_MSG.rateLimited;
    if (m.includes('conflict')) return TEAM_MSG.conflictThrown;
    if (m.includes('permission')) return TEAM_MSG.permissionThrown;
    if (m.includes('network')) return TEAM_MSG.networkThrown;
    return TEAM_MSG.updateFailed;
  }
  return TEAM_MSG.unexpected;
}

/** How long Save stays disabled after a rate-limit refusal: the server's wait when it names one. */
export function retryAfterSeconds(error: unknown, fallback: number): number {
  if (!isApiError(error)) return fallback;
  const d = (typeof error.details === 'object' && error.details !== null ? error.details : {}) as Record<string, unknown>;
  const value = d.retryAfterSeconds ?? d.retryAfter;
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.ceil(value) : fallback;
}

/** Who changed the user and when, from a CONFLICT_ERROR answer (`details.conflictData`, or the details themselves). */
export function conflictDataOf(error: unknown): { name: string; updatedAt: string | null } {
  const details =
    isApiError(error) && typeof error.details === 'object' && error.details !== null ? (error.details as Record<string, unknown>) : {};
  const data = (typeof details.conflictData === 'object' && details.conflictData !== null ? details.conflictData : details) as {
    updatedBy?: { name?: unknown };
    updatedAt?: unknown;
  };
  const name = typeof data.updatedBy?.name === 'string' && data.updatedBy.name ? data.updatedBy.name : TEAM_MSG.conflictUnknownUser;
  return { name, updatedAt: typeof data.updatedAt === 'string' ? data.updatedAt : null };
}
