/**
 * Whole objects in the S3 store: presigned single PUTs (write-once through If-None-Match: *) and downloads, head,
 * ranged reads, sha256 read back as a stream, ordinary deletes, listing by prefix, the readiness ping.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import type { HeadObjectCommandOutput } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import {
  assertExpiry,
  assertLength,
  assertValidKey,
  BlobInvalidArgumentError,
  BlobNotFoundError,
  contentDispositionAttachment,
  listKeysLimit,
  MAX_SINGLE_PUT_SIZE,
  quoteEtag,
  safeContentType,
} from '../blob-store.js';
import type { BlobHead, ByteRange, ListKeysOptions, PresignedRequest, PresignGetInput, PresignPutInput } from '../blob-store.js';
import { hashPool } from '../hash-pool.js';
import { assertOrdinaryKey, presign, type S3Bucket } from './bucket.js';
import { errorName, httpStatus, isNotFound } from './errors.js';

export class S3Objects {
  constructor(private readonly s3: S3Bucket) {}

  async presignPut(input: PresignPutInput): Promise<PresignedRequest> {
    assertValidKey(input.key);
    assertOrdinaryKey(input.key);
    // Without an exact length the URL is unbound (a presigned PUT cannot carry an upper bound); the caller then
    // checks the stored size before it keeps the object.
    if (input.contentLength !== undefined) assertLength(input.contentLength, MAX_SINGLE_PUT_SIZE, 'contentLength');
    else if (input.maxLength !== undefined) assertLength(input.maxLength, MAX_SINGLE_PUT_SIZE, 'maxLength');
    else throw new BlobInvalidArgumentError('A single PUT needs contentLength or maxLength');
    assertExpiry(input.expiresInSeconds);
    const contentType = input.contentType ? safeContentType(input.contentType) : undefined;
    const command = new PutObjectCommand({
      Bucket: this.s3.bucket,
      Key: input.key,
      ContentLength: input.contentLength,
      ContentType: contentType,
      // Write-once: a replayed URL cannot replace stored bytes (412 on AWS and MinIO; servers without
      // conditional writes ignore it). The browser must send the header, so it is in `headers`.
      IfNoneMatch: '*',
    });
    const headers: Record<string, string> = { 'If-None-Match': '*' };
    if (contentType) headers['Content-Type'] = contentType;
    return presign(this.s3, (o) => getSignedUrl(this.s3.client, command, o), 'PUT', input.expiresInSeconds, headers);
  }

  async presignGet(input: PresignGetInput): Promise<PresignedRequest> {
    assertValidKey(input.key);
    assertExpiry(input.expiresInSeconds);
    const command = new GetObjectCommand({
      Bucket: this.s3.bucket,
      Key: input.key,
      // A preview is answered inline; S3 cannot add a CSP to one answer, so the web app reads a preview's bytes
      // with fetch and never opens the URL as a page.
      ResponseContentDisposition: contentDispositionAttachment(input.fileName, input.disposition ?? 'attachment'),
      ResponseContentType: safeContentType(input.contentType),
    });
    return presign(this.s3, (o) => getSignedUrl(this.s3.client, command, o), 'GET', input.expiresInSeconds, {});
  }

  /** A whole object from the caller's bytes, write-once (If-None-Match: *), never under vault/. */
  async put(key: string, body: Readable, opts: { length: number; contentType?: string }): Promise<BlobHead> {
    assertValidKey(key);
    assertOrdinaryKey(key);
    assertLength(opts.length, MAX_SINGLE_PUT_SIZE, 'length');
    const contentType = opts.contentType ? safeContentType(opts.contentType) : undefined;
    await this.s3.client.send(
      new PutObjectCommand({
        Bucket: this.s3.bucket,
        Key: key,
        Body: body,
        ContentLength: opts.length,
        ContentType: contentType,
        IfNoneMatch: '*',
      }),
    );
    const head = await this.head(key);
    if (!head) throw new BlobNotFoundError(key);
    return head;
  }

  async head(key: string): Promise<BlobHead | null> {
    assertValidKey(key);
    try {
      const out = await this.s3.client.send(new HeadObjectCommand({ Bucket: this.s3.bucket, Key: key }));
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

  /** HeadObject's whole answer, null when there is no object. */
  async headFull(key: string): Promise<HeadObjectCommandOutput | null> {
    try {
      return await this.s3.client.send(new HeadObjectCommand({ Bucket: this.s3.bucket, Key: key }));
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
      const out = await this.s3.client.send(
        new GetObjectCommand({
          Bucket: this.s3.bucket,
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

  /** Removes an ordinary object (a vault object goes through the vault, vault.ts). */
  async delete(key: string): Promise<void> {
    await this.s3.client.send(new DeleteObjectCommand({ Bucket: this.s3.bucket, Key: key }));
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
      const out = await this.s3.client.send(
        new ListObjectsV2Command({
          Bucket: this.s3.bucket,
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
    await this.s3.client.send(new HeadBucketCommand({ Bucket: this.s3.bucket }));
  }
}
