/**
 * Uploads in parts on S3: the upload is created here, the browser PUTs each part to a presigned URL, and the
 * completion assembles them write-once (If-None-Match: *). Unfinished uploads are removed by the bucket's
 * lifecycle rule (AbortIncompleteMultipartUpload), not by the store.
 */
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListPartsCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  assertExpiry,
  assertLength,
  assertPartNumber,
  assertParts,
  assertValidKey,
  BlobInvalidPartError,
  BlobNotFoundError,
  BlobNotSupportedError,
  BlobObjectExistsError,
  BlobUploadNotFoundError,
  MAX_PART_SIZE,
  quoteEtag,
  safeContentType,
} from '../blob-store.js';
import type {
  BlobHead,
  CompleteMultipartInput,
  CreateMultipartInput,
  PresignedRequest,
  PresignPartInput,
  UploadedPart,
} from '../blob-store.js';
import { assertOrdinaryKey, presign, type S3Bucket } from './bucket.js';
import { errorName, isNoSuchUpload, isPreconditionFailed, isUnsupported } from './errors.js';
import type { S3Objects } from './objects.js';

export class S3Multipart {
  constructor(
    private readonly s3: S3Bucket,
    private readonly objects: S3Objects,
  ) {}

  async create(input: CreateMultipartInput): Promise<{ uploadId: string }> {
    assertValidKey(input.key);
    assertOrdinaryKey(input.key);
    const out = await this.s3.client.send(
      new CreateMultipartUploadCommand({
        Bucket: this.s3.bucket,
        Key: input.key,
        ContentType: input.contentType ? safeContentType(input.contentType) : undefined,
      }),
    );
    if (!out.UploadId) throw new Error('CreateMultipartUpload answered without an UploadId');
    return { uploadId: out.UploadId };
  }

  async presignPart(input: PresignPartInput): Promise<PresignedRequest> {
    assertValidKey(input.key);
    assertOrdinaryKey(input.key);
    assertPartNumber(input.partNumber);
    if (input.contentLength !== undefined) assertLength(input.contentLength, MAX_PART_SIZE, 'contentLength');
    assertExpiry(input.expiresInSeconds);
    const command = new UploadPartCommand({
      Bucket: this.s3.bucket,
      Key: input.key,
      UploadId: input.uploadId,
      PartNumber: input.partNumber,
      ContentLength: input.contentLength,
    });
    return presign(this.s3, (o) => getSignedUrl(this.s3.client, command, o), 'PUT', input.expiresInSeconds, {});
  }

  async listParts(input: { key: string; uploadId: string }): Promise<UploadedPart[]> {
    assertValidKey(input.key);
    const parts: UploadedPart[] = [];
    let marker: string | undefined;
    try {
      for (;;) {
        const out = await this.s3.client.send(
          new ListPartsCommand({ Bucket: this.s3.bucket, Key: input.key, UploadId: input.uploadId, PartNumberMarker: marker }),
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

  async complete(input: CompleteMultipartInput): Promise<BlobHead> {
    assertValidKey(input.key);
    assertParts(input.parts);
    try {
      await this.s3.client.send(
        new CompleteMultipartUploadCommand({
          Bucket: this.s3.bucket,
          Key: input.key,
          UploadId: input.uploadId,
          MultipartUpload: { Parts: input.parts.map((p) => ({ PartNumber: p.partNumber, ETag: quoteEtag(p.etag) })) },
          // Write-once: never replace an object already stored under the key (412 where conditional writes exist).
          IfNoneMatch: '*',
        }),
      );
    } catch (err) {
      if (isNoSuchUpload(err)) throw new BlobUploadNotFoundError(input.uploadId, { cause: err });
      if (isPreconditionFailed(err)) throw new BlobObjectExistsError(input.key, { cause: err });
      const name = errorName(err);
      if (name === 'InvalidPart' || name === 'InvalidPartOrder' || name === 'EntityTooSmall') {
        throw new BlobInvalidPartError(err instanceof Error ? err.message : String(name), { cause: err });
      }
      throw err;
    }
    const head = await this.objects.head(input.key);
    if (!head) throw new BlobNotFoundError(input.key);
    return head;
  }

  async abort(input: { key: string; uploadId: string }): Promise<void> {
    assertValidKey(input.key);
    try {
      await this.s3.client.send(new AbortMultipartUploadCommand({ Bucket: this.s3.bucket, Key: input.key, UploadId: input.uploadId }));
    } catch (err) {
      if (isNoSuchUpload(err)) return;
      if (isUnsupported(err)) throw new BlobNotSupportedError('AbortMultipartUpload', { cause: err });
      throw err;
    }
  }
}
