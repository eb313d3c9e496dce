/**
 * The matter checks other features (nodes, uploads) build on: find a matter of the user's organization, lock it
 * for a change, and refuse changes while it is under legal hold or vaulted.
 */
import type { MatterDto, PermissionKey } from '@strongroom/contracts';
import { MATTER_MSG, MSG, canChangeMatters, retentionExpired } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { requireMemberRole, requirePermission } from '../../shared/access.js';
import { AppError, conflict, forbidden, notFound } from '../../shared/errors.js';
import type { UserRow } from '../users/index.js';
import { findMatter, hasGuestGrant, lockMatterRow, visibleMattersQuery, type MatterRow } from './matters.repository.js';

export type { MatterRow } from './matters.repository.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toMatterDto(m: MatterRow): MatterDto {
  return {
    id: m.id,
    organizationId: m.organizationId,
    matterName: m.matterName,
    matterNumber: m.matterNumber,
    clientName: m.clientName,
    description: m.description,
    responsibleLawyer: m.responsibleLawyer,
    status: m.status,
    isVaulted: m.isVaulted,
    legalHold: m.legalHold,
    holdReason: m.holdReason,
    retentionExpiresAt: iso(m.retentionExpiresAt),
    vaultedAt: iso(m.vaultedAt),
    createdAt: m.createdAt.toISOString(),
    updatedAt: m.updatedAt.toISOString(),
    version: m.version,
  };
}

/** Vaulted matters are shown only to holders of canViewVaulted; to anyone else they answer 403. */
export function requireVisible<M extends Pick<MatterRow, 'isVaulted'>>(user: Pick<UserRow, 'permissions'>, matter: M): M {
  if (matter.isVaulted && !user.permissions.canViewVaulted) throw forbidden(MATTER_MSG.vaultedHidden);
  return matter;
}

/** Who is asking; id and role decide a guest's access (a caller without them is not a guest). */
type Viewer = Pick<UserRow, 'organizationId' | 'permissions'> & Partial<Pick<UserRow, 'id' | 'role'>>;

/**
 * A guest reads only the matters an administrator shared with them: any other matter of the organization
 * answers 403 Access denied (its existence is no secret inside the firm, its contents are).
 */
async function requireGuestGrant(db: Executor, user: Viewer, matter: MatterRow): Promise<MatterRow> {
  if (user.role !== 'guest') return matter;
  if (user.id === undefined || !(await hasGuestGrant(db, user.organizationId, matter.id, user.id))) {
    throw forbidden(MSG.accessDenied('guest'));
  }
  return matter;
}

/**
 * The list filter of a viewer: a guest's lists (matters, suggestions) hold only the matters shared with them.
 * Admins, users and guests may read; whatever changes something still needs a member's role and permission.
 */
export function matterReadScope(user: Pick<UserRow, 'id' | 'role'>): { guestUserId?: number } {
  return user.role === 'guest' ? { guestUserId: user.id } : {};
}

/**
 * Every matter of the viewer's organization the viewer may see (the query, not yet run, to select from or to use
 * as a subquery): vaulted ones only with canViewVaulted, for a guest only the matters shared with them.
 */
export function visibleMatters(db: Executor, user: Pick<UserRow, 'organizationId' | 'permissions' | 'id' | 'role'>) {
  return visibleMattersQuery(db, {
    organizationId: user.organizationId,
    includeVaulted: user.permissions.canViewVaulted,
    ...matterReadScope(user),
  });
}

/** A matter of the user's organization that the user may see; another organization's id answers 404. */
export async function getVisibleMatter(db: Executor, user: Viewer, matterId: string): Promise<MatterRow> {
  const matter = await findMatter(db, user.organizationId, matterId);
  if (!matter) throw notFound(MATTER_MSG.matterNotFound);
  return requireGuestGrant(db, user, requireVisible(user, matter));
}

/** The same, with the row locked for the rest of the transaction (every change to a matter or its tree). */
export async function lockVisibleMatter(trx: Executor, user: Viewer, matterId: string): Promise<MatterRow> {
  const matter = await lockMatterRow(trx, user.organizationId, matterId);
  if (!matter) throw notFound(MATTER_MSG.matterNotFound);
  return requireGuestGrant(trx, user, requireVisible(user, matter));
}

export type ReadOnlyMessages = { legalHold: string; vaulted: string };

/**
 * Refuses a change to a vaulted matter or one under legal hold (reading stays allowed): 409 with the
 * restriction's text and details.reason 'VAULTED' or 'LEGAL_HOLD'. Vaulted wins: vaulting applies a hold too.
 */
export function requireMatterWritable(
  matter: Pick<MatterRow, 'isVaulted' | 'status' | 'legalHold'> & { retentionExpiresAt?: Date | null },
  messages: ReadOnlyMessages = { legalHold: MATTER_MSG.legalHold, vaulted: MATTER_MSG.vaulted },
): void {
  if (matter.isVaulted || matter.status === 'Vaulted') throw conflict(messages.vaulted, { reason: 'VAULTED' });
  if (matter.legalHold) throw conflict(messages.legalHold, { reason: 'LEGAL_HOLD' });
  // A matter whose retention period has ended is due for disposal: nothing is added to it or rearranged in it.
  if (retentionExpired(matter)) throw conflict(MSG.readOnlyMatter, { reason: 'RETENTION_EXPIRED' });
}

/** The refusal of a member who may change no matter (see requireMatterWriter), or undefined for anyone else. */
export function readOnlyRefusal(user: Pick<UserRow, 'role' | 'permissions'>): AppError | undefined {
  if (user.role === 'guest' || canChangeMatters(user)) return undefined;
  return new AppError(403, MSG.readOnlyMatter, 'PERMISSION_ERROR', { reason: 'READ_ONLY' });
}

/**
 * A person who may see matters but holds no permission that changes them (not an admin, none of canUpload,
 * canRename, canDelete) sees every matter read-only: a change is refused with 403, the read-only text and
 * details.reason 'READ_ONLY'. Anyone else still needs the named permission of the change.
 */
export function requireMatterWriter(user: Pick<UserRow, 'role' | 'permissions'>, permission: PermissionKey | 'editor'): void {
  requireMemberRole(user);
  const readOnly = readOnlyRefusal(user);
  if (readOnly) throw readOnly;
  // Matter details are edited by admins and holders of canUpload, the same people who create matters.
  if (permission === 'editor') {
    if (user.role !== 'admin' && !user.permissions.canUpload) throw forbidden();
    return;
  }
  requirePermission(user, permission);
}
