/**
 * What the vault may claim about the store's protection. Vaulting needs a store that enforces write-once (S3
 * Object Lock, or the local store's own rule); an administrator may allow an unlocked store for evaluation only
 * (VAULT_ALLOW_UNLOCKED_STORE=true), and the certificates then say the files are not protected. The lock a
 * certificate states is the one the store answers when asked after the copy, never the one that was requested.
 */
import { VAULT_MSG, type StoreProtection, type VaultCertificatePayload } from '@strongroom/contracts';
import type { VaultLock, VaultObjectInfo, WriteOnceStatus } from '../../platform/storage/blob-store.js';
import type { AppContext } from '../../shared/context.js';
import { conflict } from '../../shared/errors.js';

type CertificateFile = VaultCertificatePayload['files'][number];

/** The store's write-once status; an error while asking counts as not enforced, with the error as the reason. */
export async function readWriteOnceStatus(ctx: AppContext): Promise<WriteOnceStatus> {
  try {
    return await ctx.store.writeOnceStatus();
  } catch (err) {
    return {
      enforced: false,
      store: ctx.store.kind,
      mode: null,
      detail: `its write-once status could not be read: ${err instanceof Error ? err.message : String(err)}`,
    };
  }
}

/**
 * Refuses (409) when the store does not enforce write-once and no administrator allowed that; answers the status
 * otherwise. Asked at the vault request and again by every transfer run, since the store can change in between.
 */
export async function requireWriteOnceStore(ctx: AppContext): Promise<WriteOnceStatus> {
  const status = await readWriteOnceStatus(ctx);
  if (!status.enforced && !ctx.config.vaultAllowUnlockedStore) {
    throw conflict(VAULT_MSG.unlockedStoreRefused(status.detail), { store: status.store, writeOnce: false });
  }
  return status;
}

/** The sentence a certificate carries about the store's protection. */
export function storeProtection(writeOnce: boolean): StoreProtection {
  return { writeOnce, statement: writeOnce ? VAULT_MSG.storeProtected : VAULT_MSG.storeUnprotected };
}

/**
 * How the lock the store answered falls short of the one asked for, in words; null when it holds at least as
 * much: a COMPLIANCE lock, retained at least as long, and the legal hold on whenever it was asked on.
 */
export function lockShortfall(found: VaultLock | null, asked: VaultLock): string | null {
  if (!found) return 'the store answered no lock on the vault copy';
  const problems: string[] = [];
  if (found.mode !== asked.mode) problems.push(`lock mode ${String(found.mode)} instead of ${asked.mode}`);
  if (found.retainUntil.getTime() < asked.retainUntil.getTime()) {
    problems.push(`retained until ${found.retainUntil.toISOString()}, earlier than ${asked.retainUntil.toISOString()}`);
  }
  if (asked.legalHold && !found.legalHold) problems.push('the legal hold is off');
  return problems.length ? `the store answered a weaker lock: ${problems.join('; ')}` : null;
}

/** A certificate's lock fields for an object, as the store answered them. */
export function certifiedLock(info: VaultObjectInfo): Pick<CertificateFile, 'versionId' | 'retainUntil' | 'lockMode' | 'legalHold'> {
  return {
    versionId: info.versionId,
    retainUntil: info.lock ? info.lock.retainUntil.toISOString() : null,
    lockMode: info.lock ? info.lock.mode : null,
    legalHold: info.lock ? info.lock.legalHold : false,
  };
}
