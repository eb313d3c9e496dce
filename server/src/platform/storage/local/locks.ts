/**
 * The local store's vault locks. Each vault object (a key under `vault/`) has a lock record the store owns:
 *   .locks/<key>.json   { mode, retainUntil, legalHold, size, etag, lockedAt }
 * Keys never start a segment with a dot, so no key (and no signed URL) can read, write or replace a record.
 *
 * The rules the store keeps with them, whatever code path asks:
 * - a key under `vault/` is written only by copyToVault / putLocked (ordinary PUTs, multipart uploads refused);
 * - a vault object is removed only when its record says the retain-until date has passed and the hold is off;
 *   a missing or unreadable record counts as locked (fail closed);
 * - no call shortens a retention: a new lock for a key keeps the later date of the two, and a copy never turns a
 *   hold off (only setLegalHold does).
 * Records are written whole into a temp file, fsynced, renamed into place and the folder fsynced, so a crash
 * leaves the old record or the new one. Changes to one key run one at a time (a queue per key).
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { assertValidKey, BlobInvalidKeyError, BlobLockedError } from '../blob-store.js';
import { isLockActive, type VaultLock } from '../vault-store.js';
import { isCode, type LocalLayout } from './layout.js';

/** Every vault object lives under this prefix; nothing else may write there. */
const VAULT_PREFIX = 'vault/';

export type LockRecord = {
  mode: 'COMPLIANCE';
  /** ISO date */
  retainUntil: string;
  legalHold: boolean;
  size: number;
  /** Quoted MD5 of the bytes, as an S3 ETag. */
  etag: string;
  /** ISO date the object was first locked. */
  lockedAt: string;
};

export function isVaultKey(key: string): boolean {
  return key.startsWith(VAULT_PREFIX);
}

export function assertVaultKey(key: string): void {
  assertValidKey(key);
  if (!isVaultKey(key)) throw new BlobInvalidKeyError(`vault objects live under ${VAULT_PREFIX}`);
}

/**
 * Refuses an ordinary write (single PUT, multipart upload) or an ordinary delete of a vault key: those keys are
 * written only under a lock, by copyToVault / putLocked, and removed only when the lock allows it.
 */
export function assertOrdinaryKey(key: string): void {
  if (isVaultKey(key)) {
    throw new BlobLockedError(key, 'vault objects are write-once: written only by the vault copy, never replaced');
  }
}

export function lockOf(record: LockRecord): VaultLock {
  return { mode: record.mode, retainUntil: new Date(record.retainUntil), legalHold: record.legalHold };
}

/** The lock that keeps the stronger of both: the later retain-until date, the hold on if either has it on. */
export function strongerLock(existing: VaultLock | null, wanted: VaultLock): VaultLock {
  if (!existing) return wanted;
  return {
    mode: 'COMPLIANCE',
    retainUntil: existing.retainUntil.getTime() > wanted.retainUntil.getTime() ? existing.retainUntil : wanted.retainUntil,
    legalHold: existing.legalHold || wanted.legalHold,
  };
}

/** Why a lock still protects its object, in words for the error message. */
function lockReason(lock: VaultLock, now: Date): string {
  const reasons: string[] = [];
  if (lock.retainUntil.getTime() > now.getTime()) reasons.push(`retained until ${lock.retainUntil.toISOString()}`);
  if (lock.legalHold) reasons.push('legal hold on');
  return reasons.join(', ');
}

/** fsync of a folder, so a rename or link inside it survives a crash. */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class LocalLocks {
  readonly dir: string;
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly layout: LocalLayout,
    readonly now: () => Date,
  ) {
    this.dir = path.join(layout.root, '.locks');
  }

  recordPath(key: string): string {
    assertValidKey(key);
    return path.join(this.dir, ...key.split('/')) + '.json';
  }

  /**
   * The key's lock record: null when there is none; 'unreadable' when one exists but cannot be read as a record
   * (treated as locked by every caller).
   */
  async read(key: string): Promise<LockRecord | null | 'unreadable'> {
    let text: string;
    try {
      text = await fs.readFile(this.recordPath(key), 'utf8');
    } catch (err) {
      if (isCode(err, 'ENOENT') || isCode(err, 'ENOTDIR')) return null;
      throw err;
    }
    try {
      const record = JSON.parse(text) as LockRecord;
      if (
        record.mode !== 'COMPLIANCE' ||
        typeof record.legalHold !== 'boolean' ||
        Number.isNaN(Date.parse(record.retainUntil)) ||
        typeof record.size !== 'number' ||
        typeof record.etag !== 'string'
      ) {
        return 'unreadable';
      }
      return record;
    } catch {
      return 'unreadable';
    }
  }

  /** Writes the record atomically (temp file, fsync, rename, folder fsync); the file is read-only (0400, owner read-only, as DATA_DIR is owner-only). */
  async write(key: string, record: LockRecord): Promise<void> {
    const file = this.recordPath(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = await this.layout.tempFile(`lock-${randomUUID()}.json`);
    try {
      const handle = await fs.open(tmp, 'wx', 0o400);
      try {
        await handle.writeFile(JSON.stringify(record));
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.rename(tmp, file);
      await fsyncDir(path.dirname(file));
    } finally {
      await fs.rm(tmp, { force: true });
    }
  }

  async remove(key: string): Promise<void> {
    const file = this.recordPath(key);
    await fs.rm(file, { force: true });
    await fsyncDir(path.dirname(file)).catch((err: unknown) => {
      if (!isCode(err, 'ENOENT')) throw err;
    });
  }

  /** Refuses removing a vault object whose lock is still active, or whose lock record is missing or unreadable. */
  async assertMayRemove(key: string, objectExists: boolean): Promise<LockRecord | null> {
    if (!isVaultKey(key)) return null;
    const record = await this.read(key);
    if (record === 'unreadable') throw new BlobLockedError(key, 'its lock record cannot be read, so it is kept');
    if (record === null) {
      if (objectExists) throw new BlobLockedError(key, 'its lock record is missing, so it is kept');
      return null;
    }
    const lock = lockOf(record);
    const now = this.now();
    if (isLockActive(lock, now)) throw new BlobLockedError(key, lockReason(lock, now));
    return record;
  }

  /** Runs `fn` after every earlier change to the same key has finished (one change per key at a time). */
  serialize<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(key) ?? Promise.resolve();
    const run = previous.then(fn, fn);
    const tail = run.then(
      () => undefined,
      () => undefined,
    );
    this.queues.set(key, tail);
    void tail.then(() => {
      if (this.queues.get(key) === tail) this.queues.delete(key);
    });
    return run;
  }
}
