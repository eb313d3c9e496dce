/**
 * Vault objects in the local store: copies (and small documents) stored under a lock the store itself enforces.
 *
 * A copy is made into a temp file by the kernel, fsynced, read back and hashed by a hash worker (its size and
 * MD5 must be the source's), made read-only (0400, owner read-only, as DATA_DIR is owner-only), and only then put in place: first the lock
 * record (locks.ts), then the object, linked under its key (link never replaces a file) and its folder fsynced.
 * So a kill -9 at any point leaves either no object under the vault key (at most a lock record, which a retry
 * reuses) or the whole verified object with its lock; never a partial object, never an object without a lock.
 *
 * Idempotent: a key that already holds the same bytes (size and MD5) answers its info (the lock kept at the
 * stronger of the two); other bytes throw BlobObjectExistsError. Nothing here shortens a retention.
 */
import { createHash } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { hashPool } from '../hash-pool.js';
import {
  assertValidKey,
  BlobInvalidArgumentError,
  BlobLockedError,
  BlobNotFoundError,
  BlobObjectExistsError,
  quoteEtag,
  safeContentType,
} from '../blob-store.js';
import { assertNewVaultLock } from '../vault-store.js';
import type { CopyToVaultInput, PutLockedInput, VaultLock, VaultObjectInfo } from '../vault-store.js';
import { isCode, type LocalLayout } from './layout.js';
import { assertVaultKey, fsyncDir, lockOf, strongerLock, type LocalLocks, type LockRecord } from './locks.js';
import type { LocalObjects } from './objects.js';

/** A copy whose bytes on disk differ from the bytes read: never answered as a success. */
class VaultCopyVerificationError extends Error {
  constructor(key: string, detail: string) {
    super(`The vault copy of ${key} did not verify: ${detail}`);
    this.name = 'VaultCopyVerificationError';
  }
}

async function fsyncFile(file: string): Promise<void> {
  const handle = await fs.open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export class LocalVault {
  constructor(
    private readonly layout: LocalLayout,
    private readonly locks: LocalLocks,
    private readonly objects: LocalObjects,
  ) {}

  async copyToVault(input: CopyToVaultInput): Promise<VaultObjectInfo> {
    assertValidKey(input.sourceKey);
    assertVaultKey(input.vaultKey);
    assertNewVaultLock(input.lock, this.locks.now());
    if (input.sourceKey === input.vaultKey) throw new BlobInvalidArgumentError('A vault copy needs a source other than its target');
    return this.locks.serialize(input.vaultKey, async () => {
      const source = this.layout.objectPath(input.sourceKey);
      const sourceHead = await this.objects.head(input.sourceKey);
      if (!sourceHead) throw new BlobNotFoundError(input.sourceKey);
      const existing = await this.sizeOf(input.vaultKey);
      if (existing !== null) {
        // A retry: the same bytes answer the stored object; other bytes are refused.
        if (existing !== sourceHead.size) throw new BlobObjectExistsError(input.vaultKey);
        const [mine, theirs] = await Promise.all([
          hashPool.file(source, 'md5'),
          hashPool.fileHashes(this.layout.objectPath(input.vaultKey)),
        ]);
        if (mine.hex !== theirs.md5 || mine.size !== theirs.size) throw new BlobObjectExistsError(input.vaultKey);
        const adopted = await this.adopt(input.vaultKey, theirs.md5, theirs.size, input.lock, sourceHead.contentType);
        return { ...adopted, readBackSha256: theirs.sha256 };
      }
      // The kernel copies the bytes (copy_file_range: nothing passes through this process's memory), the copy
      // is fsynced, then read back by a hash worker: its size and MD5 must be the source's (the MD5 recorded when
      // it was stored; for an object assembled from parts, whose ETag is not a plain MD5, the source is hashed).
      // The same read gives the copy's sha256, answered with the object so that the caller need not read it again.
      const tmp = await this.layout.tempFile();
      try {
        await fs.copyFile(source, tmp, fsConstants.COPYFILE_EXCL);
        const plain = /^"([0-9a-f]{32})"$/.exec(sourceHead.etag)?.[1];
        // The flush to disk and the read-back run side by side; both must succeed before the copy is placed.
        const [, written, expected] = await Promise.all([
          fsyncFile(tmp),
          hashPool.fileHashes(tmp),
          plain ? Promise.resolve({ hex: plain, size: sourceHead.size }) : hashPool.file(source, 'md5'),
        ]);
        if (written.size !== expected.size) {
          throw new VaultCopyVerificationError(input.vaultKey, `${written.size} bytes written, the source has ${expected.size}`);
        }
        if (written.md5 !== expected.hex) {
          throw new VaultCopyVerificationError(input.vaultKey, 'the bytes written differ from the source (size and MD5 checked)');
        }
        const placed = await this.place(input.vaultKey, tmp, written.md5, written.size, input.lock, sourceHead.contentType);
        return { ...placed, readBackSha256: written.sha256 };
      } catch (err) {
        if (isCode(err, 'ENOENT') && !(await this.objects.head(input.sourceKey)))
          throw new BlobNotFoundError(input.sourceKey, { cause: err });
        throw err;
      } finally {
        await fs.rm(tmp, { force: true });
      }
    });
  }

  async putLocked(input: PutLockedInput): Promise<VaultObjectInfo> {
    assertVaultKey(input.key);
    assertNewVaultLock(input.lock, this.locks.now());
    if (!Buffer.isBuffer(input.body)) throw new BlobInvalidArgumentError('putLocked takes the bytes as a Buffer');
    const contentType = safeContentType(input.contentType);
    const md5 = createHash('md5').update(input.body).digest('hex');
    return this.locks.serialize(input.key, async () => {
      const existing = await this.sizeOf(input.key);
      if (existing !== null) {
        if (existing !== input.body.length) throw new BlobObjectExistsError(input.key);
        const theirs = await hashPool.file(this.layout.objectPath(input.key), 'md5');
        if (theirs.hex !== md5) throw new BlobObjectExistsError(input.key);
        return this.adopt(input.key, md5, input.body.length, input.lock, contentType);
      }
      const tmp = await this.layout.tempFile();
      try {
        const handle = await fs.open(tmp, 'wx', 0o600);
        try {
          await handle.writeFile(input.body);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await this.verify(input.key, tmp, md5, input.body.length);
        return await this.place(input.key, tmp, md5, input.body.length, input.lock, contentType);
      } finally {
        await fs.rm(tmp, { force: true });
      }
    });
  }

  async vaultInfo(key: string): Promise<VaultObjectInfo | null> {
    assertValidKey(key);
    const size = await this.sizeOf(key);
    if (size === null) return null;
    const record = await this.locks.read(key);
    const valid = record !== null && record !== 'unreadable' ? record : null;
    const etag = valid && valid.size === size ? valid.etag : ((await this.objects.head(key))?.etag ?? '');
    return this.info(key, size, etag, valid ? lockOf(valid) : null);
  }

  async setLegalHold(key: string, on: boolean): Promise<void> {
    assertVaultKey(key);
    if (typeof on !== 'boolean') throw new BlobInvalidArgumentError('setLegalHold takes true or false');
    await this.locks.serialize(key, async () => {
      const record = await this.locks.read(key);
      if (record === 'unreadable') throw new BlobLockedError(key, 'its lock record cannot be read');
      if (record === null) {
        if ((await this.sizeOf(key)) === null) throw new BlobNotFoundError(key);
        throw new BlobLockedError(key, 'its lock record is missing');
      }
      if (record.legalHold === on) return;
      // Only the hold changes; the retain-until date is kept as it is.
      await this.locks.write(key, { ...record, legalHold: on });
    });
  }

  /** Moves the retain-until date later (never earlier); the hold is kept as it is. */
  async extendRetention(key: string, retainUntil: Date): Promise<VaultLock> {
    assertVaultKey(key);
    if (!(retainUntil instanceof Date) || Number.isNaN(retainUntil.getTime())) {
      throw new BlobInvalidArgumentError('extendRetention needs a valid retainUntil date');
    }
    return this.locks.serialize(key, async () => {
      const record = await this.locks.read(key);
      if (record === 'unreadable') throw new BlobLockedError(key, 'its lock record cannot be read');
      if (record === null) {
        if ((await this.sizeOf(key)) === null) throw new BlobNotFoundError(key);
        throw new BlobLockedError(key, 'its lock record is missing');
      }
      if (new Date(record.retainUntil).getTime() >= retainUntil.getTime()) return lockOf(record);
      const extended: LockRecord = { ...record, retainUntil: retainUntil.toISOString() };
      await this.locks.write(key, extended);
      return lockOf(extended);
    });
  }

  /** Removes a vault object once its lock allows it (retain-until passed, hold off); refuses otherwise. */
  async delete(key: string): Promise<void> {
    await this.locks.serialize(key, async () => {
      const exists = (await this.sizeOf(key)) !== null;
      const record = await this.locks.assertMayRemove(key, exists);
      const file = this.layout.objectPath(key);
      await fs.rm(file, { force: true });
      await fs.rm(this.layout.metaPath(key), { force: true });
      await fsyncDir(path.dirname(file)).catch((err: unknown) => {
        if (!isCode(err, 'ENOENT')) throw err;
      });
      if (record) await this.locks.remove(key);
    });
  }

  // ---------------------------------------------------------------- internals

  /** Size of the object under key, null when there is none. */
  private async sizeOf(key: string): Promise<number | null> {
    try {
      const stat = await fs.stat(this.layout.objectPath(key));
      return stat.isFile() ? stat.size : null;
    } catch (err) {
      if (isCode(err, 'ENOENT') || isCode(err, 'ENOTDIR')) return null;
      throw err;
    }
  }

  /** Reads the written file back: it must have the size and MD5 of what was meant to be written. */
  private async verify(key: string, file: string, md5: string, size: number): Promise<void> {
    const check = await hashPool.file(file, 'md5');
    if (check.size !== size) throw new VaultCopyVerificationError(key, `${check.size} bytes written, ${size} expected`);
    if (check.hex !== md5) throw new VaultCopyVerificationError(key, 'the bytes read back differ from the bytes written');
  }

  /** Puts a verified temp file in place under its lock: read-only file, lock record, the link, then metadata. */
  private async place(
    key: string,
    tmp: string,
    md5: string,
    size: number,
    lock: VaultLock,
    contentType: string | undefined,
  ): Promise<VaultObjectInfo> {
    await fs.chmod(tmp, 0o400);
    const record = await this.lockRecord(key, lock, size, md5);
    const etag = quoteEtag(md5);
    const target = this.layout.objectPath(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    try {
      await fs.link(tmp, target);
    } catch (err) {
      if (!isCode(err, 'EEXIST')) throw err;
      // Another process stored the key meanwhile: the same bytes are the same object; others are refused.
      const theirs = await hashPool.file(target, 'md5');
      if (theirs.hex !== md5 || theirs.size !== size) throw new BlobObjectExistsError(key, { cause: err });
    }
    await fsyncDir(path.dirname(target));
    // The metadata follows the object (a crash before it: head() rebuilds it from the bytes).
    await this.layout.writeMeta(key, { etag, size, ...(contentType ? { contentType } : {}) });
    return this.info(key, size, etag, lockOf(record));
  }

  /** An object already under the key with the wanted bytes: its lock becomes the stronger of both; read-only. */
  private async adopt(key: string, md5: string, size: number, lock: VaultLock, contentType: string | undefined): Promise<VaultObjectInfo> {
    const record = await this.lockRecord(key, lock, size, md5);
    await fs.chmod(this.layout.objectPath(key), 0o400);
    const etag = quoteEtag(md5);
    const head = await this.objects.head(key);
    if (!head || head.etag !== etag) await this.layout.writeMeta(key, { etag, size, ...(contentType ? { contentType } : {}) });
    return this.info(key, size, etag, lockOf(record));
  }

  /** Writes (when it changes) the key's record: the stronger of the lock found and the lock wanted. */
  private async lockRecord(key: string, lock: VaultLock, size: number, md5: string): Promise<LockRecord> {
    const found = await this.locks.read(key);
    if (found === 'unreadable') throw new BlobLockedError(key, 'its lock record cannot be read');
    const merged = strongerLock(found ? lockOf(found) : null, lock);
    const record: LockRecord = {
      mode: 'COMPLIANCE',
      retainUntil: merged.retainUntil.toISOString(),
      legalHold: merged.legalHold,
      size,
      etag: quoteEtag(md5),
      lockedAt: found?.lockedAt ?? this.locks.now().toISOString(),
    };
    if (!found || JSON.stringify(found) !== JSON.stringify(record)) await this.locks.write(key, record);
    return record;
  }

  private info(key: string, size: number, etag: string, lock: VaultLock | null): VaultObjectInfo {
    return { key, versionId: null, size, etag, lock, storageClass: null, restore: null };
  }
}
