/**
 * S3 BlobStore: any S3 API (AWS S3, MinIO, Ceph RGW) through @aws-sdk/client-s3 and presigned URLs.
 *
 * Bucket set-up the operator does once (the README and docs/operations.md carry it):
 * - CORS (browsers PUT parts straight to the bucket and must read each part's ETag):
 *   bucketCorsRules below: AllowedMethods PUT, GET, HEAD; AllowedHeaders *; ExposeHeaders ETag;
 *   AllowedOrigins the app's origin.
 * - Lifecycle: a rule with AbortIncompleteMultipartUpload after 7 days (its JSON is in docs/api-part2.md); this
 *   is how incomplete uploads are cleaned up on S3 (cleanupIncompleteMultipart returns 0 here).
 * - Object Lock enabled at bucket creation (it cannot be turned on later on most servers), no default retention
 *   rule: vault copies carry their own lock (COMPLIANCE, retain-until, legal hold). writeOnceStatus() checks it
 *   and docs/operations.md says how.
 *
 * Checksums: requestChecksumCalculation and responseChecksumValidation are 'WHEN_REQUIRED'; otherwise the SDK
 * signs presigned PUT URLs with the CRC of an empty body and every browser upload fails.
 */
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetBucketVersioningCommand,
  GetObjectCommand,
  GetObjectLockConfigurationCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  ListPartsCommand,
  PutObjectCommand,
  PutObjectLegalHoldCommand,
  PutObjectRetentionCommand,
  RestoreObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import type { ArchiveStatus, CORSRule, HeadObjectCommandOutput, StorageClass } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  assertExpiry,
  assertLength,
  assertPartNumber,
  assertParts,
  assertValidKey,
  assertVaultLock,
  BlobInvalidArgumentError,
  BlobInvalidKeyError,
  BlobInvalidPartError,
  BlobLockedError,
  BlobNotFoundError,
  BlobNotSupportedError,
  BlobObjectExistsError,
  BlobUploadNotFoundError,
  contentDispositionAttachment,
  MAX_PART_SIZE,
  MAX_SINGLE_PUT_SIZE,
  MIN_PART_SIZE,
  isLockActive,
  listKeysLimit,
  quoteEtag,
  safeContentType,
} from './blob-store.js';
import { hashPool } from './hash-pool.js';
import type {
  BlobHead,
  BlobStore,
  ByteRange,
  CompleteMultipartInput,
  CreateMultipartInput,
  PresignedRequest,
  PresignGetInput,
  PresignPartInput,
  PresignPutInput,
  UploadedPart,
  CopyToVaultInput,
  ListKeysOptions,
  PutLockedInput,
  VaultLock,
  VaultObjectInfo,
  WriteOnceStatus,
} from './blob-store.js';

/** The storage class of vault copies unless VAULT_STORAGE_CLASS says otherwise: cold, still readable at once. */
const DEFAULT_VAULT_STORAGE_CLASS = 'GLACIER_IR';
/** Classes whose objects must be restored before they can be read. */
const RESTORE_CLASSES = new Set(['GLACIER', 'DEEP_ARCHIVE']);
const VAULT_PREFIX = 'vault/';

/** Where the bucket is and how to sign in: what the S3_* settings hold (config.ts parses them into this). */
export type S3StorageOptions = {
  /** Omit for AWS; e.g. http://minio:9000 for others. */
  endpoint?: string;
  region: string;
  bucket: string;
  /** Omit both to use the SDK's default credential chain (environment, instance role). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** true for non-AWS endpoints. */
  forcePathStyle: boolean;
  /** Storage class of vault copies (VAULT_STORAGE_CLASS, default GLACIER_IR: cold, yet readable without a restore). */
  vaultStorageClass?: string;
};

export type S3BlobStoreOptions = S3StorageOptions & {
  /** Clock used as the signing date of presigned URLs, for tests. */
  now?: () => Date;
  /** Vault copies larger than this go by parts (default 5 GiB, S3's largest CopyObject); lowered in tests. */
  multipartCopyThreshold?: number;
  /** Part size of such copies (default 512 MiB; raised so no copy needs more than 10,000 parts). */
  copyPartSize?: number;
};

/** Bucket CORS for direct browser uploads. ExposeHeaders ETag is required: the client reads each part's ETag. */
export function bucketCorsRules(allowedOrigins: string[]): CORSRule[] {
  return [
    {
      AllowedOrigins: allowedOrigins,
      AllowedMethods: ['PUT', 'GET', 'HEAD'],
      AllowedHeaders: ['*'],
      ExposeHeaders: ['ETag'],
      MaxAgeSeconds: 3000,
    },
  ];
}

export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;
  readonly vaultStorageClass: string;
  private readonly now: () => Date;
  private readonly multipartCopyThreshold: number;
  private readonly copyPartSize: number;
  private writeOnceCache: { at: number; status: WriteOnceStatus } | undefined;

  constructor(options: S3BlobStoreOptions) {
    this.bucket = options.bucket;
    this.vaultStorageClass = options.vaultStorageClass ?? DEFAULT_VAULT_STORAGE_CLASS;
    this.multipartCopyThreshold = options.multipartCopyThreshold ?? MAX_SINGLE_PUT_SIZE;
    this.copyPartSize = Math.max(MIN_PART_SIZE, options.copyPartSize ?? 512 * 1024 * 1024);
    this.now = options.now ?? (() => new Date());
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials:
        options.accessKeyId && options.secretAccessKey
          ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
          : undefined,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private async presign(
    sign: (options: { expiresIn: number; signingDate: Date }) => Promise<string>,
    method: 'PUT' | 'GET',
    expiresInSeconds: number,
    headers: Record<string, string>,
  ): Promise<PresignedRequest> {
    const signingDate = this.now();
    // content-length, when set on the command, stays a signed header: S3 refuses any other length (403).
    const url = await sign({ expiresIn: expiresInSeconds, signingDate });
    return { url, method, headers, expiresAt: new Date(signingDate.getTime() + expiresInSeconds * 1000) };
  }

  async presignPut(input: PresignPutInput): Promise<PresignedRequest> {
    assertValidKey(input.key);
    assertOrdinaryKeyS3(input.key);
    // Without an exact length the URL is unbound (a presigned PUT cannot carry an upper bound); the caller then
    // checks the stored size before it keeps the object.
    if (input.contentLength !== undefined) assertLength(input.contentLength, MAX_SINGLE_PUT_SIZE, 'contentLength');
    else if (input.maxLength !== undefined) assertLength(input.maxLength, MAX_SINGLE_PUT_SIZE, 'maxLength');
    else throw new BlobInvalidArgumentError('A single PUT needs contentLength or maxLength');
    assertExpiry(input.expiresInSeconds);
    const contentType = input.contentType ? safeContentType(input.contentType) : undefined;
    const command = new PutObjectCommand({
      Bucket: this.bucket,
      Key: input.key,
      ContentLength: input.contentLength,
      ContentType: contentType,
      // Write-once: a replayed URL cannot replace stored bytes (412 on AWS and MinIO; servers without
      // conditional writes ignore it). The browser must send the header, so it is in `headers`.
      IfNoneMatch: '*',
    });
    const headers: Record<string, string> = { 'If-None-Match': '*' };
    if (contentType) headers['Content-Type'] = contentType;
    return this.presign((o) => getSignedUrl(this.client, command, o), 'PUT', input.expiresInSeconds, headers);
  }

  async createMultipart(input: CreateMultipartInput): Promise<{ uploadId: string }> {
    assertValidKey(input.key);
    assertOrdinaryKeyS3(input.key);
    const out = await this.client.send(
      new CreateMultipartUploadCommand({
        Bucket: this.bucket,
        Key: input.key,
        ContentType: input.contentType ? safeContentType(input.contentType) : undefined,
      }),
    );
    if (!out.UploadId) throw new Error('CreateMultipartUpload answered without an UploadId');
    return { uploadId: out.UploadId };
  }

  async presignPart(input: PresignPartInput): Promise<PresignedRequest> {
    assertValidKey(input.key);
    assertOrdinaryKeyS3(input.key);
    assertPartNumber(input.partNumber);
    if (input.contentLength !== undefined) assertLength(input.contentLength, MAX_PART_SIZE, 'contentLength');
    assertExpiry(input.expiresInSeconds);
    const command = new UploadPartCommand({
      Bucket: this.bucket,
      Key: input.key,
      UploadId: input.uploadId,
      PartNumber: input.partNumber,
      ContentLength: input.contentLength,
    });
    return this.presign((o) => getSignedUrl(this.client, command, o), 'PUT', input.expiresInSeconds, {});
  }

  async listParts(input: { key: string; uploadId: string }): Promise<UploadedPart[]> {
    assertValidKey(input.key);
    const parts: UploadedPart[] = [];
    let marker: string | undefined;
    try {
      for (;;) {
        const out = await this.client.send(
          new ListPartsCommand({ Bucket: this.bucket, Key: input.key, UploadId: input.uploadId, PartNumberMarker: marker }),
        );
        for (const p of out.Parts ?? []) {
          if (p.PartNumber === undefined || !p.ETag) continue;
          parts.push({ partNumber: p.PartNumber, etag: quoteEtag(p.ETag), size: p.Size ?? 0 });
        }
        if (!out.IsTruncated || !out.NextPartNumberMarker) break;
        marker = out.NextPartNumberMarker;
      }
    } catch (err) {
      if (isUnsupported(err)) throw new BlobNotSupportedError('ListParts', { cause: err });
      if (isNoSuchUpload(err)) throw new BlobUploadNotFoundError(input.uploadId, { cause: err });
      throw err;
    }
    return parts.sort((a, b) => a.partNumber - b.partNumber);
  }

  async completeMultipart(input: CompleteMultipartInput): Promise<BlobHead> {
    assertValidKey(input.key);
    assertParts(input.parts);
    try {
      await this.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.bucket,
          Key: input.key,
          UploadId: input.uploadId,
          MultipartUpload: { Parts: input.parts.map((p) => ({ PartNumber: p.partNumber, ETag: quoteEtag(p.etag) })) },
          // Write-once: never replace an object already stored under the key (412 where conditional writes exist).
          IfNoneMatch: '*',
        }),
      );
    } catch (err) {
      if (isNoSuchUpload(err)) throw new BlobUploadNotFoundError(input.uploadId, { cause: err });
      if (errorName(err) === 'PreconditionFailed' || httpStatus(err) === 412) throw new BlobObjectExistsError(input.key, { cause: err });
      const name = errorName(err);
      if (name === 'InvalidPart' || name === 'InvalidPartOrder' || name === 'EntityTooSmall') {
        throw new BlobInvalidPartError(err instanceof Error ? err.message : String(name), { cause: err });
      }
      throw err;
    }
    const head = await this.head(input.key);
    if (!head) throw new BlobNotFoundError(input.key);
    return head;
  }

  async abortMultipart(input: { key: string; uploadId: string }): Promise<void> {
    assertValidKey(input.key);
    try {
      await this.client.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: input.key, UploadId: input.uploadId }));
    } catch (err) {
      if (isNoSuchUpload(err)) return;
      if (isUnsupported(err)) throw new BlobNotSupportedError('AbortMultipartUpload', { cause: err });
      throw err;
    }
  }

  async head(key: string): Promise<BlobHead | null> {
    assertValidKey(key);
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        size: out.ContentLength ?? 0,
        etag: quoteEtag(out.ETag ?? ''),
        ...(out.ContentType ? { contentType: out.ContentType } : {}),
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  async getStream(key: string, range?: ByteRange): Promise<Readable> {
    assertValidKey(key);
    if (range && (!Number.isSafeInteger(range.start) || range.start < 0 || (range.end !== undefined && range.end < range.start))) {
      throw new BlobInvalidArgumentError('Invalid range');
    }
    try {
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end ?? ''}` : undefined,
        }),
      );
      if (!(out.Body instanceof Readable)) throw new Error('GetObject answered without a Node stream body');
      return out.Body;
    } catch (err) {
      if (isNotFound(err)) throw new BlobNotFoundError(key, { cause: err });
      if (errorName(err) === 'InvalidRange' || httpStatus(err) === 416) {
        throw new BlobInvalidArgumentError(`Range ${range?.start}-${range?.end ?? ''} not satisfiable`);
      }
      throw err;
    }
  }

  async presignGet(input: PresignGetInput): Promise<PresignedRequest> {
    assertValidKey(input.key);
    assertExpiry(input.expiresInSeconds);
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: input.key,
      ResponseContentDisposition: contentDispositionAttachment(input.fileName),
      ResponseContentType: safeContentType(input.contentType),
    });
    return this.presign((o) => getSignedUrl(this.client, command, o), 'GET', input.expiresInSeconds, {});
  }

  /**
   * Removes an object. A vault object: only once its lock allows it, and its version is deleted (a plain delete
   * on a versioned bucket would only add a delete marker and hide the object); S3 refuses a locked version
   * itself (AccessDenied), which becomes BlobLockedError.
   */
  async delete(key: string): Promise<void> {
    assertValidKey(key);
    if (!isVaultKeyS3(key)) {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
      return;
    }
    const info = await this.vaultInfo(key);
    if (!info) return;
    if (isLockActive(info.lock, this.now())) throw new BlobLockedError(key, describeLock(info.lock, this.now()));
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key, VersionId: info.versionId ?? undefined }));
    } catch (err) {
      throw mapLockError(key, err);
    }
  }

  /** SHA-256 of the stored object as S3 streams it back; the hashing runs on a hash worker (hash-pool.ts). */
  async sha256(key: string): Promise<string> {
    const hash = hashPool.stream('sha256');
    try {
      await pipeline(await this.getStream(key), hash.writable());
    } catch (err) {
      await hash.abort();
      throw err;
    }
    return hash.digest();
  }

  /**
   * ListObjectsV2 page after page, each from StartAfter (the caller's, then the last key of the page before),
   * until `limit` keys or the end. S3 lists keys in ascending UTF-8 byte order, the order the port promises.
   */
  async listKeys(prefix: string, opts?: ListKeysOptions): Promise<string[]> {
    const limit = listKeysLimit(prefix, opts);
    const keys: string[] = [];
    let startAfter = opts?.startAfter;
    for (;;) {
      const out = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.bucket,
          Prefix: prefix === '' ? undefined : prefix,
          StartAfter: startAfter,
          MaxKeys: limit - keys.length,
        }),
      );
      const page = (out.Contents ?? []).flatMap((o) => (o.Key === undefined ? [] : [o.Key]));
      keys.push(...page.slice(0, limit - keys.length));
      if (!out.IsTruncated || page.length === 0 || keys.length >= limit) return keys;
      startAfter = page[page.length - 1];
    }
  }

  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  /** S3 cleans up with BUCKET_LIFECYCLE_RULE (AbortIncompleteMultipartUpload, 7 days); nothing to do here. */
  async cleanupIncompleteMultipart(_olderThan: Date): Promise<number> {
    return 0;
  }

  // ---------------------------------------------------------------- vault (write-once)

  /** CopySource header: bucket and key, each segment URL-encoded. */
  private copySource(key: string): string {
    return `${this.bucket}/${key.split('/').map(encodeURIComponent).join('/')}`;
  }

  private lockHeaders(lock: VaultLock) {
    return {
      ObjectLockMode: 'COMPLIANCE' as const,
      ObjectLockRetainUntilDate: lock.retainUntil,
      ObjectLockLegalHoldStatus: lock.legalHold ? ('ON' as const) : ('OFF' as const),
    };
  }

  private assertNewLock(lock: VaultLock): void {
    assertVaultLock(lock);
    if (lock.retainUntil.getTime() <= this.now().getTime()) {
      throw new BlobInvalidArgumentError('A vault lock needs a retainUntil date in the future');
    }
  }

  async copyToVault(input: CopyToVaultInput): Promise<VaultObjectInfo> {
    assertValidKey(input.sourceKey);
    assertVaultKeyS3(input.vaultKey);
    this.assertNewLock(input.lock);
    if (input.sourceKey === input.vaultKey) throw new BlobInvalidArgumentError('A vault copy needs a source other than its target');
    const storageClass = (input.storageClass ?? this.vaultStorageClass) as StorageClass;
    const source = await this.headFull(input.sourceKey);
    if (!source) throw new BlobNotFoundError(input.sourceKey);
    const size = source.ContentLength ?? 0;
    const sourceEtag = quoteEtag(source.ETag ?? '');
    const existing = await this.vaultInfo(input.vaultKey);
    if (existing) return this.adopt(input.vaultKey, existing, size, sourceEtag, input.lock, () => this.sha256(input.sourceKey));
    try {
      if (size > this.multipartCopyThreshold) {
        await this.copyByParts(input.sourceKey, input.vaultKey, size, sourceEtag, source.ContentType, input.lock, storageClass);
      } else {
        await this.client.send(
          new CopyObjectCommand({
            Bucket: this.bucket,
            Key: input.vaultKey,
            CopySource: this.copySource(input.sourceKey),
            // The copy is of exactly the bytes that were looked at (a changed source fails with 412).
            CopySourceIfMatch: sourceEtag,
            MetadataDirective: 'COPY',
            StorageClass: storageClass,
            ...this.lockHeaders(input.lock),
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

  /**
   * Objects over the threshold (5 GiB, S3's largest single copy): a multipart upload carrying the lock, parts
   * copied by range (UploadPartCopy), completed. A server without UploadPartCopy (s3rver) gets each range read
   * and uploaded as a part instead. A failure aborts the upload.
   */
  private async copyByParts(
    sourceKey: string,
    vaultKey: string,
    size: number,
    sourceEtag: string,
    contentType: string | undefined,
    lock: VaultLock,
    storageClass: StorageClass,
  ): Promise<void> {
    const partSize = Math.max(this.copyPartSize, Math.ceil(size / 10_000));
    const created = await this.client.send(
      new CreateMultipartUploadCommand({
        Bucket: this.bucket,
        Key: vaultKey,
        ContentType: contentType,
        StorageClass: storageClass,
        ...this.lockHeaders(lock),
      }),
    );
    const uploadId = created.UploadId;
    if (!uploadId) throw new Error('CreateMultipartUpload answered without an UploadId');
    try {
      const parts: { PartNumber: number; ETag: string }[] = [];
      let serverCopies = true;
      for (let start = 0, partNumber = 1; start < size; start += partSize, partNumber++) {
        const end = Math.min(size, start + partSize) - 1;
        let etag: string | undefined;
        if (serverCopies) {
          try {
            const out = await this.client.send(
              new UploadPartCopyCommand({
                Bucket: this.bucket,
                Key: vaultKey,
                UploadId: uploadId,
                PartNumber: partNumber,
                CopySource: this.copySource(sourceKey),
                CopySourceIfMatch: sourceEtag,
                CopySourceRange: `bytes=${start}-${end}`,
              }),
            );
            etag = out.CopyPartResult?.ETag;
          } catch (err) {
            if (!isUnsupported(err)) throw err;
            serverCopies = false;
          }
        }
        if (!serverCopies) {
          const out = await this.client.send(
            new UploadPartCommand({
              Bucket: this.bucket,
              Key: vaultKey,
              UploadId: uploadId,
              PartNumber: partNumber,
              ContentLength: end - start + 1,
              Body: await this.getStream(sourceKey, { start, end }),
            }),
          );
          etag = out.ETag;
        }
        if (!etag) throw new Error(`Part ${partNumber} of the vault copy answered without an ETag`);
        parts.push({ PartNumber: partNumber, ETag: quoteEtag(etag) });
      }
      await this.client.send(
        new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key: vaultKey, UploadId: uploadId, MultipartUpload: { Parts: parts } }),
      );
    } catch (err) {
      await this.abortMultipart({ key: vaultKey, uploadId }).catch(() => undefined);
      throw err;
    }
  }

  async putLocked(input: PutLockedInput): Promise<VaultObjectInfo> {
    assertVaultKeyS3(input.key);
    this.assertNewLock(input.lock);
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
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: input.key,
          Body: input.body,
          ContentLength: input.body.length,
          // S3 asks for an MD5 (or checksum) on every write with Object Lock settings.
          ContentMD5: md5.digest('base64'),
          ContentType: safeContentType(input.contentType),
          IfNoneMatch: '*',
          ...this.lockHeaders(input.lock),
        }),
      );
    } catch (err) {
      if (errorName(err) === 'PreconditionFailed' || httpStatus(err) === 412) {
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
    } else if ((await sourceSha256()) !== (await this.sha256(key))) {
      throw new BlobObjectExistsError(key);
    }
    try {
      if (!existing.lock || existing.lock.retainUntil.getTime() < lock.retainUntil.getTime()) {
        await this.client.send(
          new PutObjectRetentionCommand({
            Bucket: this.bucket,
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

  /** HeadObject's whole answer, null when there is no object. */
  private async headFull(key: string): Promise<HeadObjectCommandOutput | null> {
    try {
      return await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /**
   * The vault facts of the object's current version (HeadObject: the lock needs s3:GetObjectRetention and
   * s3:GetObjectLegalHold, or the lock headers are missing and lock answers null).
   */
  async vaultInfo(key: string): Promise<VaultObjectInfo | null> {
    assertValidKey(key);
    const out = await this.headFull(key);
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
    assertVaultKeyS3(key);
    try {
      await this.client.send(
        new PutObjectLegalHoldCommand({
          Bucket: this.bucket,
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
        await this.client.send(
          new RestoreObjectCommand({
            Bucket: this.bucket,
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
   * Whether the bucket enforces write-once: Object Lock enabled (GetObjectLockConfiguration) and versioning on
   * (GetBucketVersioning). A default retention rule is reported: it would lock every working upload too.
   * Cached for a minute (readiness asks often).
   */
  async writeOnceStatus(): Promise<WriteOnceStatus> {
    const cached = this.writeOnceCache;
    if (cached && cached.at > this.now().getTime() - 60_000) return cached.status;
    const status = await this.readWriteOnceStatus();
    this.writeOnceCache = { at: this.now().getTime(), status };
    return status;
  }

  private async readWriteOnceStatus(): Promise<WriteOnceStatus> {
    const off = (detail: string): WriteOnceStatus => ({ enforced: false, store: 's3', mode: null, detail });
    let rule = '';
    try {
      const out = await this.client.send(new GetObjectLockConfigurationCommand({ Bucket: this.bucket }));
      if (out.ObjectLockConfiguration?.ObjectLockEnabled !== 'Enabled') {
        return off(`Object Lock is not enabled on bucket ${this.bucket}`);
      }
      const retention = out.ObjectLockConfiguration.Rule?.DefaultRetention;
      if (retention) {
        const length = retention.Years ? `${retention.Years} years` : `${retention.Days ?? 0} days`;
        rule = ` The bucket has a default retention rule (${retention.Mode ?? '?'} ${length}): it also locks working uploads, which then cannot be deleted; remove the rule.`;
      }
    } catch (err) {
      const name = errorName(err);
      if (name === 'ObjectLockConfigurationNotFoundError') return off(`Object Lock is not enabled on bucket ${this.bucket}`);
      return off(`could not read the Object Lock configuration of bucket ${this.bucket} (${name ?? 'error'}: ${messageOf(err)})`);
    }
    try {
      const versioning = await this.client.send(new GetBucketVersioningCommand({ Bucket: this.bucket }));
      if (versioning.Status !== 'Enabled') return off(`versioning is not enabled on bucket ${this.bucket}`);
    } catch (err) {
      return off(`could not read the versioning of bucket ${this.bucket} (${errorName(err) ?? 'error'}: ${messageOf(err)})`);
    }
    return {
      enforced: true,
      store: 's3',
      mode: 'COMPLIANCE',
      detail: `Object Lock is enabled on bucket ${this.bucket}; vault objects are written in COMPLIANCE mode (storage class ${this.vaultStorageClass}).${rule}`,
    };
  }

  /** Closes the client's sockets. */
  destroy(): void {
    this.client.destroy();
  }
}

function errorName(err: unknown): string | undefined {
  if (err instanceof S3ServiceException) return err.name;
  if (typeof err === 'object' && err !== null && 'name' in err) return String((err as { name: unknown }).name);
  return undefined;
}

function httpStatus(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  return (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}

function isNotFound(err: unknown): boolean {
  const name = errorName(err);
  return name === 'NoSuchKey' || name === 'NotFound' || (httpStatus(err) === 404 && name !== 'NoSuchBucket' && name !== 'NoSuchUpload');
}

function isNoSuchUpload(err: unknown): boolean {
  return errorName(err) === 'NoSuchUpload';
}

/** s3rver answers 405 MethodNotAllowed for ListParts and AbortMultipartUpload; others may say 501 NotImplemented. */
function isUnsupported(err: unknown): boolean {
  const name = errorName(err);
  const status = httpStatus(err);
  return name === 'MethodNotAllowed' || name === 'NotImplemented' || status === 405 || status === 501;
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function isVaultKeyS3(key: string): boolean {
  return key.startsWith(VAULT_PREFIX);
}

function assertVaultKeyS3(key: string): void {
  assertValidKey(key);
  if (!isVaultKeyS3(key)) throw new BlobInvalidKeyError(`vault objects live under ${VAULT_PREFIX}`);
}

/** Ordinary uploads never write under vault/: those keys are written only by the vault copy, under a lock. */
function assertOrdinaryKeyS3(key: string): void {
  if (isVaultKeyS3(key)) {
    throw new BlobLockedError(key, 'vault objects are write-once: written only by the vault copy, never replaced');
  }
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

/** S3 refuses changes to a locked version with AccessDenied (or InvalidRequest for some calls): BlobLockedError. */
function mapLockError(key: string, err: unknown): unknown {
  const name = errorName(err);
  if (name === 'AccessDenied' || name === 'InvalidRequest' || httpStatus(err) === 403) {
    return new BlobLockedError(key, `the object store refused (${name ?? 'error'}: ${messageOf(err)})`, { cause: err });
  }
  return err;
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
