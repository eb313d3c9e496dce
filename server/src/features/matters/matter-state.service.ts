/**
 * The changes other features make to a matter's state, named for what they do. The matters feature is the one
 * writer of the matters table: the version every change raises and the row lock every change takes live here.
 */
import type { Executor } from '../../platform/db/database.js';
import { lockMatterRow, markMatterVaultedRow, setMatterHoldRow, setMatterRetentionRow, type MatterRow } from './matters.repository.js';

/**
 * The matter's row, locked for the rest of the transaction, with no check of who asks (the durable jobs that
 * act for the organization: retention end). A user's change goes through lockVisibleMatter instead.
 */
export function lockMatterForChange(db: Executor, organizationId: string, matterId: string): Promise<MatterRow | undefined> {
  return lockMatterRow(db, organizationId, matterId);
}

/** Applies or removes the legal hold with its reason, raising the version; the caller holds the row lock. */
export function setMatterHold(
  db: Executor,
  matter: Pick<MatterRow, 'id' | 'organizationId' | 'version'>,
  values: { legalHold: boolean; holdReason: string | null; userId: number },
): Promise<MatterRow> {
  return setMatterHoldRow(db, matter, values);
}

/**
 * Marks the matter vaulted, read-only with its legal hold applied (its own reason kept, `holdReason` otherwise),
 * raising the version; the caller holds the row lock. Undefined when the matter was vaulted already.
 */
export function markMatterVaulted(
  db: Executor,
  matter: Pick<MatterRow, 'id' | 'organizationId' | 'version' | 'holdReason'>,
  values: { vaultedAt: Date; retentionExpiresAt: Date; holdReason: string; userId: number },
): Promise<MatterRow | undefined> {
  return markMatterVaultedRow(db, matter, values);
}

/** Moves a vaulted matter's retention end (never its vault objects: the vault extends those); the caller holds the row lock. */
export function setMatterRetention(
  db: Executor,
  matter: Pick<MatterRow, 'id' | 'organizationId' | 'version'>,
  values: { retentionExpiresAt: Date; userId: number },
): Promise<MatterRow> {
  return setMatterRetentionRow(db, matter, values);
}
