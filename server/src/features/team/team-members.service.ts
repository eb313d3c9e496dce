/**
 * Changes of a member: role, status and permissions, and their undo. The rules every change shares are those of
 * team.service.ts: the organization keeps an active admin holding canManageUsers, a change names the version it
 * was made against, every rule is checked before the step-up and again under the organization's and the user's
 * locks, and one transaction holds the change, its audit entry and its undo entry.
 */
import type {
  ChangeRoleRequest,
  ManageUserRequest,
  Permissions,
  Role,
  UpdatePermissionsRequest,
  UserChangeResponse,
  UserConflictData,
  UserStatusRequest,
} from '@strongroom/contracts';
import { DEFAULT_PERMISSIONS, PERMISSION_KEYS, TEAM_MSG } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { AppError, conflict, forbidden, notFound } from '../../shared/errors.js';
import { revokeUserSessions, type AuthContext } from '../sessions/index.js';
import { recordUndo, undoUnavailable, type UndoEntry, type UndoOffer } from '../undo/index.js';
import { changeMemberAccess, findUserById, lockMember, lockOrganization, type LockedMember, type MemberChanges } from '../users/index.js';
import { countOtherActiveManagers, deleteAllGuestGrants, findMember } from './team.repository.js';
import { mayManage, throttle, toManagedUser, type Actor } from './team.service.js';

/** An active admin holding canManageUsers: the kind the organization must always keep one of. */
function isActiveManagerAdmin(s: { role: Role; isActive: boolean; permissions: Permissions }): boolean {
  return s.isActive && s.role === 'admin' && s.permissions.canManageUsers;
}

type MemberState = { role: Role; isActive: boolean; permissions: Permissions };
type Wanted = { role?: Role; isActive?: boolean; permissions?: Partial<Permissions> };

/** The state a change leaves: a new role starts from that role's defaults, explicit switches apply over them. */
function stateAfter(current: MemberState, wanted: Wanted): MemberState {
  const role = wanted.role ?? current.role;
  const base = wanted.role !== undefined && wanted.role !== current.role ? DEFAULT_PERMISSIONS[role] : current.permissions;
  return {
    role,
    isActive: wanted.isActive ?? current.isActive,
    permissions: { ...base, ...(wanted.permissions ?? {}) },
  };
}

function samePermissions(a: Permissions, b: Permissions): boolean {
  return PERMISSION_KEYS.every((k) => a[k] === b[k]);
}

function conflictError(data: UserConflictData): AppError {
  return conflict(TEAM_MSG.conflict, { reason: 'VERSION_MISMATCH', conflictData: data });
}

function withConflictBody(err: AppError): AppError {
  const data = (err.details as { conflictData?: UserConflictData }).conflictData;
  return new AppError(err.statusCode, err.message, err.code, err.details, { success: false, message: err.message, conflictData: data });
}

function lastAdminError(): AppError {
  return new AppError(409, TEAM_MSG.operationBlocked, 'LAST_ADMIN_ERROR', undefined, { success: false, message: TEAM_MSG.lastAdmin });
}

/**
 * Every rule of one change, on the target as it is now. `db` is the pool for the early check and the
 * transaction (holding the organization's and the user's locks) for the final one.
 */
async function checkChange(
  db: Executor,
  actor: Actor,
  target: Pick<LockedMember, 'id' | 'role' | 'isActive' | 'permissions' | 'version'> & { updatedAt?: Date; updatedByName?: string | null },
  after: MemberState,
  expectedVersion: number | undefined,
): Promise<void> {
  if (expectedVersion !== undefined && expectedVersion !== target.version) {
    throw conflictError({
      updatedBy: { name: target.updatedByName ?? TEAM_MSG.conflictUnknownUser },
      updatedAt: (target.updatedAt ?? new Date()).toISOString(),
      currentVersion: target.version,
    });
  }
  if (actor.role !== 'admin' && (target.role === 'admin' || after.role === 'admin')) throw forbidden(TEAM_MSG.adminOnlyForAdmins);
  if (target.id === actor.id && target.isActive && !after.isActive) throw forbidden(TEAM_MSG.cannotDeactivateSelf);
  if (isActiveManagerAdmin({ ...target }) && !isActiveManagerAdmin(after)) {
    if ((await countOtherActiveManagers(db, actor.organizationId, target.id)) === 0) throw lastAdminError();
  }
}

type ChangeKind = 'manage' | 'permissions' | 'role' | 'deactivate' | 'reactivate';

const SUCCESS: Record<ChangeKind, (name: string) => string> = {
  manage: (name) => TEAM_MSG.updated(name),
  permissions: () => TEAM_MSG.permissionsUpdated,
  role: () => TEAM_MSG.roleChanged,
  deactivate: () => TEAM_MSG.deactivated,
  reactivate: () => TEAM_MSG.reactivated,
};

/** Writes the change, its audit entries and the user's sessions' end when deactivated; answers the new version. */
async function applyChange(
  trx: Executor,
  auth: AuthContext,
  meta: RequestMeta,
  target: LockedMember,
  after: MemberState,
  extra: { reason?: string; undoId?: string },
): Promise<boolean> {
  const { user } = auth;
  const changes: MemberChanges = {};
  if (after.role !== target.role) changes.role = after.role;
  if (after.isActive !== target.isActive) changes.isActive = after.isActive;
  if (!samePermissions(after.permissions, target.permissions)) changes.permissions = after.permissions;
  if (Object.keys(changes).length === 0) return false;
  await changeMemberAccess(trx, user.organizationId, target.id, changes, user.id);
  const audit = auditFor(user, meta);
  const on = { table: 'users', id: target.publicId };
  const common = { userId: target.publicId, email: target.email, ...(extra.reason ? { reason: extra.reason } : {}) };
  // A guest's shared matters go with the guest role.
  if (changes.role && target.role === 'guest') await deleteAllGuestGrants(trx, user.organizationId, target.id);
  const sessionsEnded = changes.isActive === false ? await revokeUserSessions(trx, target.id, 'deactivated') : undefined;
  if (extra.undoId) {
    // An undo is one entry naming the undo and every field it restored, as the other undoable changes are audited.
    await audit(trx, 'UNDO_USER_UPDATE', on, {
      ...common,
      undoId: extra.undoId,
      changes: {
        ...(changes.role ? { role: { from: target.role, to: after.role } } : {}),
        ...(changes.isActive !== undefined ? { isActive: { from: target.isActive, to: after.isActive } } : {}),
        ...(changes.permissions ? { permissions: { from: target.permissions, to: after.permissions } } : {}),
      },
      ...(sessionsEnded !== undefined ? { sessionsEnded } : {}),
    });
    return true;
  }
  if (changes.role) {
    await audit(trx, 'USER_ROLE_CHANGE', on, { ...common, from: target.role, to: after.role, permissions: after.permissions });
  } else if (changes.permissions) {
    await audit(trx, 'USER_UPDATE_PERMISSIONS', on, { ...common, before: target.permissions, after: after.permissions });
  }
  if (changes.isActive === false) {
    await audit(trx, 'USER_REMOVE', on, { ...common, sessionsEnded });
  } else if (changes.isActive === true) {
    await audit(trx, 'USER_REACTIVATE', on, common);
  }
  return true;
}

/**
 * One change of a user: permission, rate limit, the rules on the current state, then (behind a fresh code
 * when MFA_USER_MANAGEMENT is on) the rules again under the locks, the change, its audit and undo entries.
 */
async function changeUser(
  ctx: AppContext,
  auth: AuthContext,
  meta: RequestMeta,
  kind: ChangeKind,
  input: { userId: string; version?: number; reason?: string; mfaToken?: string },
  wanted: Wanted,
): Promise<UserChangeResponse> {
  const { user } = auth;
  await throttle(ctx, user);
  const seen = await findMember(ctx.db, user.organizationId, input.userId);
  if (!seen) throw notFound(TEAM_MSG.userNotFound);
  try {
    await checkChange(ctx.db, user, seen, stateAfter(seen, wanted), input.version);
    const run = async (trx: Executor) => {
      await lockOrganization(trx, user.organizationId);
      // The actor's own rights as they are now: a manager demoted a moment ago manages nobody.
      const actor = await findUserById(trx, user.id);
      if (!actor || !mayManage(actor)) throw forbidden(TEAM_MSG.noPermission);
      const target = await lockMember(trx, user.organizationId, input.userId);
      if (!target) throw notFound(TEAM_MSG.userNotFound);
      const fresh = await findMember(trx, user.organizationId, input.userId);
      const after = stateAfter(target, wanted);
      await checkChange(trx, actor, { ...target, updatedAt: fresh?.updatedAt, updatedByName: fresh?.updatedByName }, after, input.version);
      const changed = await applyChange(trx, auth, meta, target, after, { reason: input.reason });
      if (!changed) return undefined;
      return recordUndo(trx, auth, {
        kind: 'user.update',
        targetId: target.publicId,
        version: target.version + 1,
        before: { role: target.role, isActive: target.isActive, permissions: target.permissions },
      });
    };
    const offer: UndoOffer | undefined = await auth.stepUp.run(run);
    const now = await findMember(ctx.db, user.organizationId, input.userId);
    if (!now) throw notFound(TEAM_MSG.userNotFound);
    const dto = toManagedUser(now);
    return {
      success: true,
      message: SUCCESS[kind](dto.fullName),
      updatedUser: { userId: dto.id, version: dto.version },
      user: dto,
      ...(offer ?? {}),
    };
  } catch (err) {
    if (err instanceof AppError && err.code === 'CONFLICT_ERROR' && err.reason === 'VERSION_MISMATCH') throw withConflictBody(err);
    throw err;
  }
}

/** POST /_api/settings/users/manage */
export function manageUser(ctx: AppContext, auth: AuthContext, input: ManageUserRequest, meta: RequestMeta) {
  return changeUser(ctx, auth, meta, 'manage', input, input.changes);
}

/** POST /_api/settings/users/permissions */
export function updatePermissions(ctx: AppContext, auth: AuthContext, input: UpdatePermissionsRequest, meta: RequestMeta) {
  return changeUser(ctx, auth, meta, 'permissions', input, { permissions: input.permissions });
}

/** POST /_api/settings/users/role: the permissions reset to the new role's defaults. */
export function changeRole(ctx: AppContext, auth: AuthContext, input: ChangeRoleRequest, meta: RequestMeta) {
  return changeUser(ctx, auth, meta, 'role', input, { role: input.newRole });
}

/** POST /_api/settings/users/deactivate: every session of the user ends at once and sign-in is refused. */
export function deactivateUser(ctx: AppContext, auth: AuthContext, input: UserStatusRequest, meta: RequestMeta) {
  return changeUser(ctx, auth, meta, 'deactivate', input, { isActive: false });
}

/** POST /_api/settings/users/reactivate: access again, with the role and permissions the user holds. */
export function reactivateUser(ctx: AppContext, auth: AuthContext, input: UserStatusRequest, meta: RequestMeta) {
  return changeUser(ctx, auth, meta, 'reactivate', input, { isActive: true });
}

/**
 * Undo of a user change: role, status and permissions as they were, while the user is still at the version
 * the change left. The rules of a change hold for the undo too (an undo never leaves the organization
 * without an administrator); restoring an active state does not bring back ended sessions.
 */
export async function undoUserUpdate(
  trx: Executor,
  auth: AuthContext,
  entry: UndoEntry,
  meta: RequestMeta,
): Promise<{ targetId: string; matterId: null }> {
  const { user } = auth;
  await lockOrganization(trx, user.organizationId);
  const actor = await findUserById(trx, user.id);
  if (!actor || !mayManage(actor)) throw forbidden(TEAM_MSG.noPermission);
  const target = await lockMember(trx, user.organizationId, entry.targetId);
  if (!target) throw undoUnavailable('GONE');
  if (target.version !== entry.version) throw undoUnavailable('CHANGED');
  const before = entry.before as MemberState;
  const after: MemberState = { role: before.role, isActive: before.isActive, permissions: before.permissions };
  await checkChange(trx, actor, target, after, undefined);
  await applyChange(trx, auth, meta, target, after, { undoId: entry.id });
  return { targetId: target.publicId, matterId: null };
}
