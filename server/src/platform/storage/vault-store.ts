/**
 * VaultStore: the write-once part of the store, apart from the plain object store (ObjectStore, blob-store.ts).
 * Both adapters implement both: the local store (local/vault.ts, local/locks.ts) and the S3 store (s3/vault.ts).
 *
 * Vault (write-once storage): `copyToVault` / `putLocked` store an object under a lock (mode COMPLIANCE, a
 * retain-until date, a legal hold). Until the retain-until date has passed and the hold is off, no call removes or
 * replaces a locked object: S3 refuses by itself (Object Lock), the local store refuses in the store itself,
 * whichever code path asks. Nothing shortens a retention; extendRetention lengthens one.
 */
import { BlobInvalidArgumentError } from './blob-store.js';

export interface VaultStore {
  /**
   * Copies a stored object to vaultKey under the lock. Idempotent: when vaultKey already holds the same bytes
   * (same size and ETag/sha256) its info is answered; other bytes throw BlobObjectExistsError. Files over 5 GiB
   * copy by parts on S3. storageClass: S3 only (default from config VAULT_STORAGE_CLASS, default GLACIER_IR).
   * The copy is verified (size and ETag) before it answers.
   */
  copyToVault(input: CopyToVaultInput): Promise<VaultObjectInfo>;
  /** Writes small bytes (a certificate) straight under the lock; same idempotency rule. */
  putLocked(input: PutLockedInput): Promise<VaultObjectInfo>;
  /** The vault facts of an object; null when there is no object. A non-vault object answers lock null -> use head(). */
  vaultInfo(key: string): Promise<VaultObjectInfo | null>;
  /** Turns the object's legal hold on or off. Never changes the retention. */
  setLegalHold(key: string, on: boolean): Promise<void>;
  /**
   * Extends the object's retention (COMPLIANCE) to `retainUntil`: never shortens it (a date not later than the one
   * in force changes nothing) and never touches the legal hold. Answers the lock in force afterwards. Throws
   * BlobNotFoundError when there is no object, BlobLockedError when its lock cannot be read (local store),
   * BlobNotSupportedError when the store keeps no retention (S3 without Object Lock).
   */
  extendRetention(key: string, retainUntil: Date): Promise<VaultLock>;
  /** Starts a restore for a class that needs one (S3); no-op elsewhere. Answers the restore state. */
  requestRestore(key: string, days: number): Promise<VaultObjectInfo['restore']>;
  /** Whether the store really enforces write-once (S3: bucket Object Lock enabled; local: always, enforced by the store). */
  writeOnceStatus(): Promise<WriteOnceStatus>;
}

/** The lock of a vault object: COMPLIANCE mode (nobody may shorten it), the date it runs to, and the legal hold. */
export type VaultLock = { mode: 'COMPLIANCE'; retainUntil: Date; legalHold: boolean };

export type VaultObjectInfo = {
  key: string;
  versionId: string | null;
  size: number;
  etag: string;
  /** null: the object exists but is not a vault object (no lock). */
  lock: VaultLock | null;
  storageClass: string | null;
  /** S3 classes that need a restore before reading (GLACIER, DEEP_ARCHIVE): the restore state; null otherwise. */
  restore: { required: true; ongoing: boolean; readyUntil: Date | null } | null;
  /**
   * The sha256 of the stored bytes, when the store read them back from where it stored them as part of storing
   * them (the local store's copy does): a caller that must check the stored bytes need not read them again.
   * Absent when the store did not read them (S3): the caller reads them back itself.
   */
  readBackSha256?: string;
};

export type WriteOnceStatus = { enforced: boolean; store: 'local' | 's3'; mode: 'COMPLIANCE' | null; detail: string };

export type CopyToVaultInput = { sourceKey: string; vaultKey: string; lock: VaultLock; storageClass?: string };
export type PutLockedInput = { key: string; body: Buffer; contentType: string; lock: VaultLock };

/** Whether a lock still protects its object at `now`: retention not yet over, or the legal hold on. */
export function isLockActive(lock: VaultLock | null, now: Date): boolean {
  if (!lock) return false;
  return lock.legalHold || lock.retainUntil.getTime() > now.getTime();
}

/** Checks a caller's lock: COMPLIANCE mode and a valid date. */
function assertVaultLock(lock: VaultLock): void {
  if (!lock || lock.mode !== 'COMPLIANCE') throw new BlobInvalidArgumentError('A vault lock must use mode COMPLIANCE');
  if (!(lock.retainUntil instanceof Date) || Number.isNaN(lock.retainUntil.getTime())) {
    throw new BlobInvalidArgumentError('A vault lock needs a valid retainUntil date');
  }
  if (typeof lock.legalHold !== 'boolean') throw new BlobInvalidArgumentError('A vault lock needs legalHold true or false');
}

/** Checks the lock of an object about to be locked: valid, and its retain-until date still ahead of `now`. */
export function assertNewVaultLock(lock: VaultLock, now: Date): void {
  assertVaultLock(lock);
  if (lock.retainUntil.getTime() <= now.getTime()) {
    throw new BlobInvalidArgumentError('A vault lock needs a retainUntil date in the future');
  }
}
