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
 * This class hands each concern to its own module under s3/:
 *   bucket.ts     the client, bucket and clock every part shares; presigning; where vault objects live
 *   errors.ts     what the SDK's errors mean (not found, no such upload, unsupported, refused by a lock)
 *   objects.ts    whole objects: presigned PUT and GET, head, ranged reads, sha256, deletes, listing
 *   multipart.ts  uploads in parts: create, presigned parts, listing, write-once completion, abort
 *   vault.ts      vault objects under Object Lock: verified copies, locked puts, legal holds, restores
 *   copy.ts       vault copies over 5 GiB, by parts
 *   settings.ts   the bucket's settings: write-once status, the settings a security review reads
 *
 * Checksums: requestChecksumCalculation and responseChecksumValidation are 'WHEN_REQUIRED'; otherwise the SDK
 * signs presigned PUT URLs with the CRC of an empty body and every browser upload fails.
 */
import type { Readable } from 'node:stream';
import { S3Client } from '@aws-sdk/client-s3';
import type { CORSRule } from '@aws-sdk/client-s3';
import { assertValidKey, MAX_SINGLE_PUT_SIZE, MIN_PART_SIZE } from './blob-store.js';
import type {
  BlobHead,
  BucketSecuritySettings,
  ByteRange,
  CompleteMultipartInput,
  CreateMultipartInput,
  ListKeysOptions,
  ObjectStore,
  PresignedRequest,
  PresignGetInput,
  PresignPartInput,
  PresignPutInput,
  UploadedPart,
} from './blob-store.js';
import type { CopyToVaultInput, PutLockedInput, VaultLock, VaultObjectInfo, VaultStore, WriteOnceStatus } from './vault-store.js';
import { isVaultKey, type S3Bucket } from './s3/bucket.js';
import { S3Multipart } from './s3/multipart.js';
import { S3Objects } from './s3/objects.js';
import { S3Settings } from './s3/settings.js';
import { S3Vault } from './s3/vault.js';

export { restoreState } from './s3/vault.js';

/** The storage class of vault copies unless VAULT_STORAGE_CLASS says otherwise: cold, still readable at once. */
const DEFAULT_VAULT_STORAGE_CLASS = 'GLACIER_IR';

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

export class S3BlobStore implements ObjectStore, VaultStore {
  readonly kind = 's3' as const;
  readonly client: S3Client;
  readonly bucket: string;
  readonly vaultStorageClass: string;
  private readonly objects: S3Objects;
  private readonly multipart: S3Multipart;
  private readonly vault: S3Vault;
  private readonly settings: S3Settings;

  constructor(options: S3BlobStoreOptions) {
    this.bucket = options.bucket;
    this.vaultStorageClass = options.vaultStorageClass ?? DEFAULT_VAULT_STORAGE_CLASS;
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
    const s3: S3Bucket = { client: this.client, bucket: this.bucket, now: options.now ?? (() => new Date()) };
    this.objects = new S3Objects(s3);
    this.multipart = new S3Multipart(s3, this.objects);
    this.vault = new S3Vault(s3, this.objects, this.multipart, {
      storageClass: this.vaultStorageClass,
      multipartCopyThreshold: options.multipartCopyThreshold ?? MAX_SINGLE_PUT_SIZE,
      copyPartSize: Math.max(MIN_PART_SIZE, options.copyPartSize ?? 512 * 1024 * 1024),
    });
    this.settings = new S3Settings(s3, this.vaultStorageClass);
  }

  // ---------------------------------------------------------------- objects

  presignPut(input: PresignPutInput): Promise<PresignedRequest> {
    return this.objects.presignPut(input);
  }

  presignGet(input: PresignGetInput): Promise<PresignedRequest> {
    return this.objects.presignGet(input);
  }

  putObject(key: string, body: Readable, opts: { length: number; contentType?: string }): Promise<BlobHead> {
    return this.objects.put(key, body, opts);
  }

  head(key: string): Promise<BlobHead | null> {
    return this.objects.head(key);
  }

  getStream(key: string, range?: ByteRange): Promise<Readable> {
    return this.objects.getStream(key, range);
  }

  /**
   * Removes an object. A vault object: only once its lock allows it, and its version is deleted (a plain delete
   * on a versioned bucket would only add a delete marker and hide the object); S3 refuses a locked version
   * itself (AccessDenied), which becomes BlobLockedError.
   */
  async delete(key: string): Promise<void> {
    assertValidKey(key);
    return isVaultKey(key) ? this.vault.delete(key) : this.objects.delete(key);
  }

  sha256(key: string): Promise<string> {
    return this.objects.sha256(key);
  }

  listKeys(prefix: string, opts?: ListKeysOptions): Promise<string[]> {
    return this.objects.listKeys(prefix, opts);
  }

  ping(): Promise<void> {
    return this.objects.ping();
  }

  securitySettings(): Promise<BucketSecuritySettings> {
    return this.settings.securitySettings();
  }

  // ---------------------------------------------------------------- multipart

  createMultipart(input: CreateMultipartInput): Promise<{ uploadId: string }> {
    return this.multipart.create(input);
  }

  presignPart(input: PresignPartInput): Promise<PresignedRequest> {
    return this.multipart.presignPart(input);
  }

  listParts(input: { key: string; uploadId: string }): Promise<UploadedPart[]> {
    return this.multipart.listParts(input);
  }

  completeMultipart(input: CompleteMultipartInput): Promise<BlobHead> {
    return this.multipart.complete(input);
  }

  abortMultipart(input: { key: string; uploadId: string }): Promise<void> {
    return this.multipart.abort(input);
  }

  /** S3 cleans up with BUCKET_LIFECYCLE_RULE (AbortIncompleteMultipartUpload, 7 days); nothing to do here. */
  async cleanupIncompleteMultipart(_olderThan: Date): Promise<number> {
    return 0;
  }

  // ---------------------------------------------------------------- vault (write-once)

  copyToVault(input: CopyToVaultInput): Promise<VaultObjectInfo> {
    return this.vault.copyToVault(input);
  }

  putLocked(input: PutLockedInput): Promise<VaultObjectInfo> {
    return this.vault.putLocked(input);
  }

  vaultInfo(key: string): Promise<VaultObjectInfo | null> {
    return this.vault.vaultInfo(key);
  }

  /** Turns the legal hold of the object's current version (or the given version) on or off. */
  setLegalHold(key: string, on: boolean, versionId?: string | null): Promise<void> {
    return this.vault.setLegalHold(key, on, versionId);
  }

  /** Extends the retention of the object's current version (PutObjectRetention), never shortening it. */
  extendRetention(key: string, retainUntil: Date): Promise<VaultLock> {
    return this.vault.extendRetention(key, retainUntil);
  }

  requestRestore(key: string, days: number): Promise<VaultObjectInfo['restore']> {
    return this.vault.requestRestore(key, days);
  }

  writeOnceStatus(): Promise<WriteOnceStatus> {
    return this.settings.writeOnceStatus();
  }

  /** Closes the client's sockets. */
  destroy(): void {
    this.client.destroy();
  }
}
