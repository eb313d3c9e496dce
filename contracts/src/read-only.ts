import { MSG } from './messages.js';
import type { Permissions, Role } from './constants.js';

/**
 * When a matter takes no changes, and why. The server refuses every write on such a matter; the browser shows
 * the same reason on the disabled controls. One rule for both, so they cannot drift.
 *
 * - Vaulted (vaulting also applies a hold, so vaulted wins) and under legal hold: the matter itself is frozen.
 * - Retention expired: the matter's records are due for disposal, so nothing may be added to or rearranged in it.
 * - Read-only for this person: they may see the matter but hold no permission that changes it (not an admin,
 *   none of canUpload, canRename, canDelete). Guests are of this kind once a matter is shared with them.
 */
export type MatterReadOnlyReason = 'VAULTED' | 'LEGAL_HOLD' | 'RETENTION_EXPIRED' | 'READ_ONLY';

type ReadOnlyUser = { role: Role; permissions: Pick<Permissions, 'canUpload' | 'canRename' | 'canDelete'> };
type ReadOnlyMatter = { isVaulted: boolean; status: string; legalHold: boolean; retentionExpiresAt?: Date | string | null };

/** Whether the person holds any permission that changes a matter or its folders and files. */
export function canChangeMatters(user: ReadOnlyUser): boolean {
  return user.role === 'admin' || user.permissions.canUpload || user.permissions.canRename || user.permissions.canDelete;
}

/** Whether the matter's retention period has ended (null: kept permanently). */
export function retentionExpired(matter: Pick<ReadOnlyMatter, 'retentionExpiresAt'>, now: number = Date.now()): boolean {
  if (!matter.retentionExpiresAt) return false;
  return new Date(matter.retentionExpiresAt).getTime() <= now;
}

/** Why the matter is read-only, or null when it takes changes. The matter's own state comes before the person's. */
export function matterReadOnlyReason(matter: ReadOnlyMatter, user?: ReadOnlyUser, now: number = Date.now()): MatterReadOnlyReason | null {
  if (matter.isVaulted || matter.status === 'Vaulted') return 'VAULTED';
  if (matter.legalHold) return 'LEGAL_HOLD';
  if (retentionExpired(matter, now)) return 'RETENTION_EXPIRED';
  if (user && !canChangeMatters(user)) return 'READ_ONLY';
  return null;
}

/** The tooltip and notice text of each reason. */
export const READ_ONLY_TEXT: Record<MatterReadOnlyReason, string> = {
  VAULTED: 'Actions are disabled for vaulted matters',
  LEGAL_HOLD: 'Actions are disabled due to legal hold',
  RETENTION_EXPIRED: MSG.readOnlyMatter,
  READ_ONLY: MSG.readOnlyMatter,
};
