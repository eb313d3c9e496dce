/**
 * Vault objects on S3: verified copies (and small documents) stored under an Object Lock in COMPLIANCE mode, with
 * a retain-until date and a legal hold. S3 itself refuses to remove or replace a locked version; the store adds
 * the checks S3 cannot make: the copy is of the bytes that were looked at and is verified before it is answered,
 * a retry over the same bytes answers the stored object, and no call shortens a retention.
 */
import { createHash } from 'node:crypto';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  PutObjectCommand,
  PutObjectLegalHoldCommand,
  PutObjectRetentionCommand,
  RestoreObjectCommand,
} from '@aws-sdk/client-s3';
import type { ArchiveStatus, StorageClass } from '@aws-sdk/client-s3';
import {
  assertValidKey,
  BlobInvalidArgumentError,
  BlobLockedError,
  BlobNotFoundError,
  BlobNotSupportedError,
  BlobObjectExistsError,
  quoteEtag,
  safeContentType,
} from '../blob-store.js';
import { assertNewVaultLock, isLockActive } from '../vault-store.js';
import type { CopyToVaultInput, PutLockedInput, VaultLock, VaultObjectInfo } from '../vault-store.js';
import { assertVaultKey, copySource, type S3Bucket } from './bucket.js';
import { copyByParts } from './copy.js';
import { errorName, httpStatus, isNotFound, isPreconditionFailed, isUnsupported, mapLockError } from './errors.js';
import type { S3Multipart } from './multipart.js';
import type { S3Objects } from './objects.js';

/** Classes whose objects must be restored before they can be read. */
const RESTORE_CLASSES = new Set(['GLACIER', 'DEEP_ARCHIVE']);

export type S3VaultOptions = {
  /** Storage class of vault copies unless the caller names one. */
  storageClass: string;
  /** Vault copies larger than this go by parts (copy.ts). */
  multipartCopyThreshold: number;
  /** Part size of such copies. */
  copyPartSize: number;
};

export class S3Vault {
  constructor(
    private readonly s3: S3Bucket,
    private readonly objects: S3Objects,
    private readonly multipart: S3Multipart,
    private readonly options: S3VaultOptions,
  ) {}

  async copyToVault(input: CopyToVaultInput): Promise<VaultObjectInfo> {
    assertValidKey(input.sourceKey);
    assertVaultKey(input.vaultKey);
    assertNewVaultLock(input.lock, this.s3.now());
    if (input.sourceKey === input.vaultKey) throw new BlobInvalidArgumentError('A vault copy needs a source other than its target');
    const storageClass = (input.storageClass ?? this.options.storageClass) as StorageClass;
    const source = await this.objects.headFull(input.sourceKey);
    if (!source) throw new BlobNotFoundError(input.sourceKey);
    const size = source.ContentLength ?? 0;
    const sourceEtag = quoteEtag(source.ETag ?? '');
    const existing = await this.vaultInfo(input.vaultKey);
    if (existing) return this.adopt(input.vaultKey, existing, size, sourceEtag, input.lock, () => this.objects.sha256(input.sourceKey));
    try {
      if (size > this.options.multipartCopyThreshold) {
        await copyByParts(this.s3, this.objects, this.multipart, {
          sourceKey: input.sourceKey,
          vaultKey: input.vaultKey,
          size,
          sourceEtag,
          contentType: source.ContentType,
          lockHeaders: lockHeaders(input.lock),
          storageClass,
          partSize: this.options.copyPartSize,
        });
      } else {
        await this.s3.client.send(
          new CopyObjectCommand({
            Bucket: this.s3.bucket,
            Key: input.vaultKey,
            CopySource: copySource(this.s3, input.sourceKey),
            // The copy is of exactly the bytes that were looked at (a changed source fails with 412).
            CopySourceIfMatch: sourceEtag,
            MetadataDirective: 'COPY',
            StorageClass: storageClass,
            ...lockHeaders(input.lock),
          }),
        );
      }
    } catch (err) {
      throw mapLockError(input.vaultKey, err);
    }
    const info = await this.vaultInfo(input.vaultKey);
    if (!info) throw new BlobNotFoundError(input.vaultKey);
    // Verified before answering: the stored size, and the ETag wherever both are plain MD5s (a part-copied object's
    // ETag is the MD5 of its part MD5s, so there the size, and the caller's sha256 read-back, decide).
    if (info.size !== size) throw new VaultCopyMismatchError(input.vaultKey, `${info.size} bytes stored, ${size} expected`);
    if (isPlainMd5(sourceEtag) && isPlainMd5(info.etag) && info.etag !== sourceEtag) {
      throw new VaultCopyMismatchError(input.vaultKey, `ETag ${info.etag}, the source has ${sourceEtag}`);
    }
    return info;
  }

  async putLocked(input: PutLockedInput): Promise<VaultObjectInfo> {
    assertVaultKey(input.key);
    assertNewVaultLock(input.lock, this.s3.now());
    if (!Buffer.isBuffer(input.body)) throw new BlobInvalidArgumentError('putLocked takes the bytes as a Buffer');
    const md5 = createHash('md5').update(input.body);
    const md5Hex = md5.copy().digest('hex');
    const existing = await this.vaultInfo(input.key);
    if (existing) {
      const body = input.body;
      return this.adopt(input.key, existing, body.length, quoteEtag(md5Hex), input.lock, async () =>
        createHash('sha256').update(body).digest('hex'),
      );
    }
    try {
      await this.s3.client.send(
        new PutObjectCommand({
          Bucket: this.s3.bucket,
          Key: input.key,
          Body: input.body,
          ContentLength: input.body.length,
          // S3 asks for an MD5 (or checksum) on every write with Object Lock settings.
          ContentMD5: md5.digest('base64'),
          ContentType: safeContentType(input.contentType),
          IfNoneMatch: '*',
          ...lockHeaders(input.lock),
        }),
      );
    } catch (err) {
      if (isPreconditionFailed(err)) {
        const now = await this.vaultInfo(input.key);
        if (now && now.size === input.body.length && now.etag === quoteEtag(md5Hex)) return now;
        throw new BlobObjectExistsError(input.key, { cause: err });
      }
      throw mapLockError(input.key, err);
    }
    const info = await this.vaultInfo(input.key);
    if (!info) throw new BlobNotFoundError(input.key);
    if (info.size !== input.body.length || info.etag !== quoteEtag(md5Hex)) {
      throw new VaultCopyMismatchError(input.key, `stored ${info.size} bytes with ETag ${info.etag}`);
    }
    return info;
  }

  /**
   * The vault key already holds an object: the same bytes (size, then ETag when both are plain MD5s, else the
   * sha256 of both) answer it, with its lock raised to the wanted one where that is stronger; other bytes throw.
   */
  private async adopt(
    key: string,
    existing: VaultObjectInfo,
    size: number,
    etag: string,
    lock: VaultLock,
    sourceSha256: () => Promise<string>,
  ): Promise<VaultObjectInfo> {
    if (existing.size !== size) throw new BlobObjectExistsError(key);
    if (isPlainMd5(etag) && isPlainMd5(existing.etag)) {
      if (etag !== existing.etag) throw new BlobObjectExistsError(key);
    } else if ((await sourceSha256()) !== (await this.objects.sha256(key))) {
      throw new BlobObjectExistsError(key);
    }
    try {
      if (!existing.lock || existing.lock.retainUntil.getTime() < lock.retainUntil.getTime()) {
        await this.s3.client.send(
          new PutObjectRetentionCommand({
            Bucket: this.s3.bucket,
            Key: key,
            VersionId: existing.versionId ?? undefined,
            Retention: { Mode: 'COMPLIANCE', RetainUntilDate: lock.retainUntil },
          }),
        );
      }
      if (lock.legalHold && !existing.lock?.legalHold) await this.setLegalHold(key, true, existing.versionId);
    } catch (err) {
      // A server without Object Lock (writeOnceStatus says so) kept no lock on the first copy either.
      if (!isUnsupported(err) && !(err instanceof BlobNotSupportedError)) throw mapLockError(key, err);
    }
    return (await this.vaultInfo(key)) ?? existing;
  }

  /**
   * The vault facts of the object's current version (HeadObject: the lock needs s3:GetObjectRetention and
   * s3:GetObjectLegalHold, or the lock headers are missing and lock answers null).
   */
  async vaultInfo(key: string): Promise<VaultObjectInfo | null> {
    assertValidKey(key);
    const out = await this.objects.headFull(key);
    if (!out) return null;
    // Only a COMPLIANCE retention counts as a vault lock (GOVERNANCE can be lifted by a privileged user).
    const lock: VaultLock | null =
      out.ObjectLockMode === 'COMPLIANCE' && out.ObjectLockRetainUntilDate
        ? { mode: 'COMPLIANCE', retainUntil: out.ObjectLockRetainUntilDate, legalHold: out.ObjectLockLegalHoldStatus === 'ON' }
        : null;
    const storageClass = out.StorageClass ?? 'STANDARD';
    return {
      key,
      versionId: out.VersionId && out.VersionId !== 'null' ? out.VersionId : null,
      size: out.ContentLength ?? 0,
      etag: quoteEtag(out.ETag ?? ''),
      lock,
      storageClass,
      restore: restoreState(storageClass, out.ArchiveStatus, out.Restore),
    };
  }

  /** Turns the legal hold of the object's current version (or the given version) on or off. */
  async setLegalHold(key: string, on: boolean, versionId?: string | null): Promise<void> {
    assertVaultKey(key);
    try {
      await this.s3.client.send(
        new PutObjectLegalHoldCommand({
          Bucket: this.s3.bucket,
          Key: key,
          VersionId: versionId ?? undefined,
          LegalHold: { Status: on ? 'ON' : 'OFF' },
        }),
      );
    } catch (err) {
      if (isNotFound(err)) throw new BlobNotFoundError(key, { cause: err });
      if (isUnsupported(err)) throw new BlobNotSupportedError('PutObjectLegalHold', { cause: err });
      throw mapLockError(key, err);
    }
  }

  /**
   * Moves the retain-until date of the object's current version later with PutObjectRetention (COMPLIANCE); a date
   * not later than the one in force changes nothing (S3 itself refuses to shorten a COMPLIANCE retention).
   */
  async extendRetention(key: string, retainUntil: Date): Promise<VaultLock> {
    assertVaultKey(key);
    if (!(retainUntil instanceof Date) || Number.isNaN(retainUntil.getTime())) {
      throw new BlobInvalidArgumentError('extendRetention needs a valid retainUntil date');
    }
    const info = await this.vaultInfo(key);
    if (!info) throw new BlobNotFoundError(key);
    if (info.lock && info.lock.retainUntil.getTime() >= retainUntil.getTime()) return info.lock;
    try {
      await this.s3.client.send(
        new PutObjectRetentionCommand({
          Bucket: this.s3.bucket,
          Key: key,
          VersionId: info.versionId ?? undefined,
          Retention: { Mode: 'COMPLIANCE', RetainUntilDate: retainUntil },
        }),
      );
    } catch (err) {
      if (isNotFound(err)) throw new BlobNotFoundError(key, { cause: err });
      if (isUnsupported(err)) throw new BlobNotSupportedError('PutObjectRetention', { cause: err });
      throw mapLockError(key, err);
    }
    return { mode: 'COMPLIANCE', retainUntil, legalHold: info.lock?.legalHold ?? false };
  }

  /**
   * Starts a restore (Standard tier, kept `days` days) for a class that needs one; answers the restore state,
   * null when the object's class is readable as it is.
   */
  async requestRestore(key: string, days: number): Promise<VaultObjectInfo['restore']> {
    assertValidKey(key);
    if (!Number.isInteger(days) || days < 1 || days > 30) throw new BlobInvalidArgumentError('A restore lasts 1 to 30 days');
    const info = await this.vaultInfo(key);
    if (!info) throw new BlobNotFoundError(key);
    if (!info.restore || (!info.restore.ongoing && info.restore.readyUntil)) return info.restore;
    if (!info.restore.ongoing) {
      try {
        await this.s3.client.send(
          new RestoreObjectCommand({
            Bucket: this.s3.bucket,
            Key: key,
            VersionId: info.versionId ?? undefined,
            RestoreRequest: info.storageClass === 'INTELLIGENT_TIERING' ? {} : { Days: days, GlacierJobParameters: { Tier: 'Standard' } },
          }),
        );
      } catch (err) {
        // Asked twice: the first request is under way.
        if (errorName(err) !== 'RestoreAlreadyInProgress' && httpStatus(err) !== 409) throw err;
      }
    }
    return (await this.vaultInfo(key))?.restore ?? { required: true, ongoing: true, readyUntil: null };
  }

  /**
   * Removes a vault object once its lock allows it, deleting its version (a plain delete on a versioned bucket
   * would only add a delete marker and hide the object); S3 refuses a locked version itself (AccessDenied), which
   * becomes BlobLockedError.
   */
  async delete(key: string): Promise<void> {
    const info = await this.vaultInfo(key);
    if (!info) return;
    if (isLockActive(info.lock, this.s3.now())) throw new BlobLockedError(key, describeLock(info.lock, this.s3.now()));
    try {
      await this.s3.client.send(new DeleteObjectCommand({ Bucket: this.s3.bucket, Key: key, VersionId: info.versionId ?? undefined }));
    } catch (err) {
      throw mapLockError(key, err);
    }
  }
}

/** The Object Lock headers of a write under the lock. */
function lockHeaders(lock: VaultLock) {
  return {
    ObjectLockMode: 'COMPLIANCE' as const,
    ObjectLockRetainUntilDate: lock.retainUntil,
    ObjectLockLegalHoldStatus: lock.legalHold ? ('ON' as const) : ('OFF' as const),
  };
}

function isPlainMd5(etag: string): boolean {
  return /^"[0-9a-f]{32}"$/i.test(etag);
}

function describeLock(lock: VaultLock | null, now: Date): string {
  if (!lock) return 'locked';
  const reasons: string[] = [];
  if (lock.retainUntil.getTime() > now.getTime()) reasons.push(`retained until ${lock.retainUntil.toISOString()}`);
  if (lock.legalHold) reasons.push('legal hold on');
  return reasons.join(', ') || 'locked';
}

/**
 * The restore state of a class that needs one, from HeadObject's x-amz-restore header:
 * `ongoing-request="true"` while it runs, `ongoing-request="false", expiry-date="Fri, 21 Dec 2012 00:00:00 GMT"`
 * once the copy is readable (until that date). Intelligent-Tiering archive tiers need one as well.
 */
export function restoreState(
  storageClass: string | null,
  archiveStatus: ArchiveStatus | string | undefined,
  header: string | undefined,
): VaultObjectInfo['restore'] {
  const needs = (storageClass !== null && RESTORE_CLASSES.has(storageClass)) || archiveStatus !== undefined;
  if (!needs) return null;
  if (!header) return { required: true, ongoing: false, readyUntil: null };
  const ongoing = /ongoing-request="true"/i.test(header);
  const expiry = /expiry-date="([^"]+)"/i.exec(header)?.[1];
  const readyUntil = expiry && !Number.isNaN(Date.parse(expiry)) ? new Date(expiry) : null;
  return { required: true, ongoing, readyUntil: ongoing ? null : readyUntil };
}

/** A vault copy whose stored size or ETag is not the source's: never answered as a success. */
class VaultCopyMismatchError extends Error {
  constructor(key: string, detail: string) {
    super(`The vault copy of ${key} did not verify: ${detail}`);
    this.name = 'VaultCopyMismatchError';
  }
}
