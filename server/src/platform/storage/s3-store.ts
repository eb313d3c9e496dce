/**
 * S3 BlobStore: any S3 API (AWS S3, MinIO, Ceph RGW) through @aws-sdk/client-s3 and presigned URLs.
 *
 * Bucket set-up the operator does once (the README and docs/operations.md carry it):
 * - CORS (browsers PUT parts straight to the bucket and must read each part's ETag):
 *   bucketCorsRules below: AllowedMethods PUT, GET, HEAD; AllowedHeaders *; ExposeHeaders ETag;
 *   AllowedOrigins the app's origin.
 * - Lifecycle: a rule with AbortIncompleteMultipartUpload after 7 days (its JSON is in docs/api-part2.md); this
 *   is how incomplete uploads are cleaned up on S3 (cleanupIncompleteMultipart returns 0 here).
 * - Object Lock enabled at bucket creation (for the vault, a later issue).
 *
 * Checksums: requestChecksumCalculation and responseChecksumValidation are 'WHEN_REQUIRED'; otherwise the SDK
 * signs presigned PUT URLs with the CRC of an empty body and every browser upload fails.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListPartsCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import type { CORSRule } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  assertExpiry,
  assertLength,
  assertPartNumber,
  assertParts,
  assertValidKey,
  BlobInvalidArgumentError,
  BlobInvalidPartError,
  BlobNotFoundError,
  BlobNotSupportedError,
  BlobObjectExistsError,
  BlobUploadNotFoundError,
  contentDispositionAttachment,
  MAX_PART_SIZE,
  MAX_SINGLE_PUT_SIZE,
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
  PutLockedInput,
  VaultObjectInfo,
  WriteOnceStatus,
} from './blob-store.js';

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
};

export type S3BlobStoreOptions = S3StorageOptions & {
  /** Clock used as the signing date of presigned URLs, for tests. */
  now?: () => Date;
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
  private readonly now: () => Date;

  constructor(options: S3BlobStoreOptions) {
    this.bucket = options.bucket;
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

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
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

  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  /** S3 cleans up with BUCKET_LIFECYCLE_RULE (AbortIncompleteMultipartUpload, 7 days); nothing to do here. */
  async cleanupIncompleteMultipart(_olderThan: Date): Promise<number> {
    return 0;
  }

  // ---------------------------------------------------------------- vault (write-once)

  async copyToVault(_input: CopyToVaultInput): Promise<VaultObjectInfo> {
    throw new BlobNotSupportedError('copyToVault (not built yet)');
  }

  async putLocked(_input: PutLockedInput): Promise<VaultObjectInfo> {
    throw new BlobNotSupportedError('putLocked (not built yet)');
  }

  async vaultInfo(_key: string): Promise<VaultObjectInfo | null> {
    throw new BlobNotSupportedError('vaultInfo (not built yet)');
  }

  async setLegalHold(_key: string, _on: boolean): Promise<void> {
    throw new BlobNotSupportedError('setLegalHold (not built yet)');
  }

  async requestRestore(_key: string, _days: number): Promise<VaultObjectInfo['restore']> {
    throw new BlobNotSupportedError('requestRestore (not built yet)');
  }

  async writeOnceStatus(): Promise<WriteOnceStatus> {
    return { enforced: false, store: this.kind, mode: null, detail: 'Write-once storage is not built yet' };
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
