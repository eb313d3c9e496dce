/**
 * The vault's part of the disposition review: the matter's files as a destruction would remove them, and a longer
 * retention carried into the store. Extending is done under the matter's row lock the caller holds: every object
 * still in the vault gets the later retain-until date in the store first (a store that cannot keep it fails the
 * whole change, and since the store never shortens a date, running it again is safe), then in its row, so that
 * the continuous verification finds the store and the rows agreeing.
 */
import type { Executor } from '../../platform/db/database.js';
import { BlobNotSupportedError } from '../../platform/storage/blob-store.js';
import type { AppContext } from '../../shared/context.js';
import { objectsInVault, setObjectRetainUntil, setTransferRetention } from './vault-disposition.repository.js';

export type VaultedFile = { path: string; versionNumber: number; sizeBytes: number; sha256: string; objectKey: string; nodeId: string };

/** The matter's objects still in the vault: every file and version a destruction would remove. */
export async function filesInVault(db: Executor, organizationId: string, matterId: string): Promise<VaultedFile[]> {
  const rows = await objectsInVault(db, organizationId, matterId);
  return rows.map((o) => ({
    path: o.path,
    versionNumber: o.versionNumber,
    sizeBytes: Number(o.size),
    sha256: o.sha256,
    objectKey: o.objectKey,
    nodeId: o.nodeId,
  }));
}

/** Extends the retention of every object of the matter still in the vault to `retainUntil`, store then rows. */
export async function extendVaultRetention(
  ctx: AppContext,
  trx: Executor,
  organizationId: string,
  matterId: string,
  retainUntil: Date,
): Promise<{ objects: number }> {
  const objects = await objectsInVault(trx, organizationId, matterId);
  for (const o of objects) {
    if (o.retainUntil.getTime() >= retainUntil.getTime()) continue;
    let until = retainUntil;
    try {
      until = (await ctx.store.extendRetention(o.objectKey, retainUntil)).retainUntil;
    } catch (err) {
      // A store that keeps no retention at all (allowed only by VAULT_ALLOW_UNLOCKED_STORE) has none to extend.
      if (!(err instanceof BlobNotSupportedError && ctx.config.vaultAllowUnlockedStore)) throw err;
    }
    await setObjectRetainUntil(trx, organizationId, o.id, until);
  }
  await setTransferRetention(trx, organizationId, matterId, retainUntil);
  return { objects: objects.length };
}
