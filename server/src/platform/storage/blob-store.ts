/**
 * BlobStore: the port through which the app stores file bytes. Two adapters implement it:
 * - local (local-store.ts): files under DATA_DIR/objects, URLs signed by the app (HMAC), served by localStoreRoutes;
 * - s3 (s3-store.ts): any S3 API (AWS, MinIO, Ceph) through @aws-sdk/client-s3 and presigned URLs.
 *
 * Rules every adapter keeps:
 * - The server chooses every key (`org/<uuid>/<uuid>`); keys are validated by `assertValidKey` before any use.
 * - Presigned URLs expire within MAX_PRESIGN_SECONDS (15 minutes) and are bound to method and key, for parts to
 *   uploadId and partNumber, and to the exact byte length when one is given.
 * - Bytes are streamed, never held whole in memory; `sha256` reads the stored bytes as a stream.
 * - ETags are the quoted strings S3 puts in the ETag header: `"<md5 hex>"` for single PUTs and parts,
 *   `"<md5 of the concatenated binary part md5s>-<part count>"` for completed multipart objects.
 *
 * The port has two parts, and each adapter implements both: ObjectStore, the plain object store (below), and
 * VaultStore, the write-once vault (vault-store.ts). BlobStore is the two together, as the app holds the store.
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { VaultStore } from './vault-store.js';

/** The vault types callers have long imported from here. */
export type { VaultLock, VaultObjectInfo, WriteOnceStatus } from './vault-store.js';

/** The longest life of a presigned URL (the issue: within 15 minutes). */
export const MAX_PRESIGN_SECONDS = 15 * 60;
/** S3's smallest part, except the last one. The local store enforces it too, so both behave alike. */
export const MIN_PART_SIZE = 5 * 1024 * 1024;
/** S3's largest part and largest single PUT. */
export const MAX_PART_SIZE = 5 * 1024 * 1024 * 1024;
export const MAX_SINGLE_PUT_SIZE = 5 * 1024 * 1024 * 1024;
const MAX_PART_NUMBER = 10_000;

/** A request the browser makes straight to the store. */
export type PresignedRequest = {
  url: string;
  method: 'PUT' | 'GET';
  /**
   * Headers the client must send as given (s3 single PUT: `If-None-Match: *`, which is signed; Content-Type when
   * one was given). Content-Length is bound when the caller gave one, but it is not listed: browsers set it from
   * the body themselves (it is a forbidden header in fetch).
   */
  headers: Record<string, string>;
  expiresAt: Date;
};

export type PresignPutInput = {
  key: string;
  /** Exact byte length; the URL is refused for any other length. */
  contentLength?: number;
  /**
   * Without contentLength: the most bytes the URL accepts (local store: signed and enforced; S3: a presigned PUT
   * cannot carry an upper bound, so the caller checks the stored size before it keeps the object).
   */
  maxLength?: number;
  contentType?: string;
  /** 1..MAX_PRESIGN_SECONDS */
  expiresInSeconds: number;
};

export type CreateMultipartInput = { key: string; contentType?: string };

export type PresignPartInput = {
  key: string;
  uploadId: string;
  /** 1..10000 */
  partNumber: number;
  /** When given, the URL only accepts exactly this many bytes. */
  contentLength?: number;
  /** Without contentLength: the most bytes the part may have (local store only; S3 cannot bind an upper bound). */
  maxLength?: number;
  expiresInSeconds: number;
};

/**
 * Input of completeMultipart. `partSize`, when given, is the plan the parts were cut by: every listed part but
 * the last must have exactly that many bytes, the last at most that many (local store; on S3 the presigned
 * part URLs carry the exact lengths instead).
 */
export type CompleteMultipartInput = { key: string; uploadId: string; parts: CompletedPart[]; partSize?: number };

export type UploadedPart = { partNumber: number; etag: string; size: number };
export type CompletedPart = { partNumber: number; etag: string };

export type PresignGetInput = {
  key: string;
  expiresInSeconds: number;
  /** Sent as Content-Disposition: attachment with an ASCII fallback and an RFC 5987 filename*. */
  fileName: string;
  contentType?: string;
  /**
   * 'inline' for a preview the page reads (Content-Disposition: inline, and on the local store a sandboxing CSP
   * that lets nothing in the document run); a download (attachment) when absent.
   */
  disposition?: 'inline';
};

export type BlobHead = { size: number; etag: string; contentType?: string };
/**
 * What completeMultipart answers. `sha256`, when present, is the digest of exactly the bytes stored at the key,
 * computed by the store while it wrote them (local store); absent (S3, which assembles on its side), the caller
 * reads the object back through `sha256(key)`.
 */
export type AssembledHead = BlobHead & { sha256?: string };

/** Inclusive byte range, as in an HTTP Range header (`bytes=start-end`). `end` omitted: to the last byte. */
export type ByteRange = { start: number; end?: number };

/** The store the app holds (AppContext.store): the plain object store and the write-once vault. */
export interface BlobStore extends ObjectStore, VaultStore {}

/** The plain object store: uploads, reads, deletes and listings of objects by key. */
export interface ObjectStore {
  readonly kind: 'local' | 's3';
  /**
   * Single PUT of a whole object (the issue: files under 100 MB). Write-once: the URL cannot replace an object
   * that already exists (local: 412; S3: If-None-Match: *, 412 where the server supports conditional writes).
   */
  presignPut(input: PresignPutInput): Promise<PresignedRequest>;
  createMultipart(input: CreateMultipartInput): Promise<{ uploadId: string }>;
  presignPart(input: PresignPartInput): Promise<PresignedRequest>;
  /**
   * Parts stored so far, ascending by part number. Throws BlobNotSupportedError when the server cannot list
   * parts (s3rver), BlobUploadNotFoundError when the upload does not exist (completed, aborted, cleaned up).
   */
  listParts(input: { key: string; uploadId: string }): Promise<UploadedPart[]>;
  /**
   * Assembles the parts (ascending part numbers, each ETag as returned by the part PUT; quotes optional).
   * Throws BlobInvalidPartError (unknown part, ETag mismatch, part under 5 MiB that is not the last, part
   * outside `partSize`), BlobUploadNotFoundError.
   * Write-once: the assembled object never replaces bytes already at the key. When the key already holds the
   * same bytes (a retry after an assembly that finished), that object is answered; other bytes throw
   * BlobObjectExistsError.
   */
  completeMultipart(input: CompleteMultipartInput): Promise<AssembledHead>;
  /**
   * Removes the upload and its parts. An upload that no longer exists is not an error. Throws
   * BlobNotSupportedError when the server cannot abort (s3rver answers 405); the lifecycle rule then cleans up.
   */
  abortMultipart(input: { key: string; uploadId: string }): Promise<void>;
  /**
   * Stores bytes the caller already holds at a key nothing holds yet (an operator restoring a backup): exactly
   * `length` bytes, write-once (an existing key is refused), never a vault key (those are written under their
   * lock by copyToVault). Objects over MAX_SINGLE_PUT_SIZE are refused.
   */
  putObject(key: string, body: Readable, opts: { length: number; contentType?: string }): Promise<BlobHead>;
  /** Size and ETag of a stored object, null when there is none. */
  head(key: string): Promise<BlobHead | null>;
  /** The object's bytes as a stream. Throws BlobNotFoundError when there is no such object. */
  getStream(key: string, range?: ByteRange): Promise<Readable>;
  /** Download URL answering with Content-Disposition: attachment and the file name. */
  presignGet(input: PresignGetInput): Promise<PresignedRequest>;
  /** Removes the object; a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Hex sha256 of the stored bytes, read as a stream. Throws BlobNotFoundError. */
  sha256(key: string): Promise<string>;
  /**
   * The keys of stored objects that begin with `prefix`, in ascending byte order of the key (S3's order; keys are
   * ASCII), only those after `startAfter` when given, at most `limit` (default and ceiling LIST_KEYS_MAX). An
   * empty answer means there are no more. The prefix is plain text: it need not end at a `/`.
   */
  listKeys(prefix: string, opts?: ListKeysOptions): Promise<string[]>;
  /** Readiness: throws when the store is unreachable (local: objects directory not writable; s3: HeadBucket). */
  ping(): Promise<void>;
  /**
   * Removes multipart uploads begun before `olderThan` and returns how many. The job calls it daily with
   * now - 7 days. The s3 adapter returns 0: the bucket lifecycle rule AbortIncompleteMultipartUpload
   * (DaysAfterInitiation: 7) does this work there.
   */
  cleanupIncompleteMultipart(olderThan: Date): Promise<number>;
  /**
   * The bucket settings that bear on security (versioning, public access, bucket policy, lifecycle rules), each
   * read on its own; null for the local store, which has no bucket.
   */
  securitySettings(): Promise<BucketSecuritySettings | null>;
}

/** One setting as the store read it: its value, or the name and message of the error that kept it from reading. */
export type SettingRead<T> = { value: T } | { error: { name: string | undefined; message: string } };

export type BucketSecuritySettings = {
  bucket: string;
  /** The versioning status (Enabled, Suspended; undefined when never enabled). */
  versioning: SettingRead<{ status: string | undefined }>;
  /** The public access block as the server answers it; undefined when it answers none. */
  publicAccessBlock: SettingRead<
    { BlockPublicAcls?: boolean; IgnorePublicAcls?: boolean; BlockPublicPolicy?: boolean; RestrictPublicBuckets?: boolean } | undefined
  >;
  /** Whether the bucket policy makes the bucket public. */
  policyStatus: SettingRead<{ isPublic: boolean }>;
  /** The lifecycle rules: enabled or not, and after how many days each aborts incomplete multipart uploads. */
  lifecycleRules: SettingRead<{ enabled: boolean; abortIncompleteUploadsAfterDays: number | undefined }[]>;
};

/** The most keys one listKeys call answers (S3 answers at most 1000 a request). */
const LIST_KEYS_MAX = 1000;
export type ListKeysOptions = { startAfter?: string; limit?: number };

/** Checks listKeys' input and answers the number of keys to return. */
export function listKeysLimit(prefix: string, opts: ListKeysOptions | undefined): number {
  if (typeof prefix !== 'string' || prefix.length > 512 || prefix.startsWith('/') || /(^|\/)\./.test(prefix)) {
    throw new BlobInvalidKeyError(`bad listing prefix ${JSON.stringify(prefix)}`);
  }
  const limit = opts?.limit ?? LIST_KEYS_MAX;
  if (!Number.isInteger(limit) || limit < 1 || limit > LIST_KEYS_MAX) {
    throw new BlobInvalidArgumentError(`limit must be an integer from 1 to ${LIST_KEYS_MAX}`);
  }
  return limit;
}

export type BlobStoreErrorCode =
  | 'NOT_SUPPORTED'
  | 'NO_SUCH_KEY'
  | 'NO_SUCH_UPLOAD'
  | 'INVALID_KEY'
  | 'INVALID_PART'
  | 'INVALID_ARGUMENT'
  | 'OBJECT_EXISTS'
  | 'OBJECT_LOCKED';

export class BlobStoreError extends Error {
  constructor(
    readonly code: BlobStoreErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}
/** The store cannot do this (s3rver: ListParts, AbortMultipartUpload). */
export class BlobNotSupportedError extends BlobStoreError {
  constructor(operation: string, options?: { cause?: unknown }) {
    super('NOT_SUPPORTED', `The object store does not support ${operation}`, options);
  }
}
export class BlobNotFoundError extends BlobStoreError {
  constructor(key: string, options?: { cause?: unknown }) {
    super('NO_SUCH_KEY', `No object with key ${key}`, options);
  }
}
export class BlobUploadNotFoundError extends BlobStoreError {
  constructor(uploadId: string, options?: { cause?: unknown }) {
    super('NO_SUCH_UPLOAD', `No multipart upload ${uploadId}`, options);
  }
}
export class BlobInvalidKeyError extends BlobStoreError {
  constructor(reason: string) {
    super('INVALID_KEY', `Invalid object key: ${reason}`);
  }
}
export class BlobInvalidPartError extends BlobStoreError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('INVALID_PART', message, options);
  }
}
export class BlobInvalidArgumentError extends BlobStoreError {
  constructor(message: string) {
    super('INVALID_ARGUMENT', message);
  }
}
/** The key already holds other bytes; stored objects are never replaced. */
export class BlobObjectExistsError extends BlobStoreError {
  constructor(key: string, options?: { cause?: unknown }) {
    super('OBJECT_EXISTS', `Another object is already stored under ${key}`, options);
  }
}

/** Thrown by delete/put/complete/copy when a locked object would be removed or replaced. */
export class BlobLockedError extends BlobStoreError {
  constructor(key: string, reason: string, options?: { cause?: unknown }) {
    super('OBJECT_LOCKED', `The object ${key} is locked in the vault: ${reason}`, options);
  }
}

const KEY_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

/**
 * Keys are made by the server: `/`-separated segments of letters, digits, `.`, `_`, `-`, no segment starting
 * with a dot (so no `..`, and no clash with the local store's `.multipart`, `.tmp`, `.meta`), no leading or
 * trailing slash, at most 512 characters.
 */
export function assertValidKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0) throw new BlobInvalidKeyError('empty');
  if (key.length > 512) throw new BlobInvalidKeyError('longer than 512 characters');
  if (key.startsWith('/')) throw new BlobInvalidKeyError('absolute');
  for (const segment of key.split('/')) {
    if (!KEY_SEGMENT.test(segment)) throw new BlobInvalidKeyError(`bad segment ${JSON.stringify(segment)}`);
  }
}

export function assertExpiry(expiresInSeconds: number): void {
  if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > MAX_PRESIGN_SECONDS) {
    throw new BlobInvalidArgumentError(`expiresInSeconds must be an integer from 1 to ${MAX_PRESIGN_SECONDS}`);
  }
}

export function assertLength(length: number, max: number, what: string): void {
  if (!Number.isSafeInteger(length) || length < 0 || length > max) {
    throw new BlobInvalidArgumentError(`${what} must be an integer from 0 to ${max}`);
  }
}

export function assertPartNumber(partNumber: number): void {
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PART_NUMBER) {
    throw new BlobInvalidArgumentError(`partNumber must be an integer from 1 to ${MAX_PART_NUMBER}`);
  }
}

export function assertParts(parts: CompletedPart[]): void {
  if (parts.length === 0) throw new BlobInvalidPartError('A multipart upload needs at least one part');
  let previous = 0;
  for (const part of parts) {
    assertPartNumber(part.partNumber);
    if (part.partNumber <= previous) throw new BlobInvalidPartError('Parts must be listed in ascending order without repeats');
    previous = part.partNumber;
    if (!/^"?[0-9a-fA-F]{32}"?$/.test(part.etag)) throw new BlobInvalidPartError(`Part ${part.partNumber} has a malformed ETag`);
  }
}

/** `"abc"` for `abc` or `"abc"`. */
export function quoteEtag(etag: string): string {
  const bare = etag.replace(/^"|"$/g, '');
  return `"${bare}"`;
}

export function unquoteEtag(etag: string): string {
  return etag.replace(/^"|"$/g, '');
}

/** The ETag S3 (and the local store) gives an object assembled from these parts: md5 of the part md5s, '-', count. */
export function multipartEtag(partEtags: string[]): string {
  const md5s = Buffer.concat(partEtags.map((e) => Buffer.from(unquoteEtag(e).toLowerCase(), 'hex')));
  return quoteEtag(`${createHash('md5').update(md5s).digest('hex')}-${partEtags.length}`);
}

/**
 * The byte length of part `partNumber` of a file of `fileSize` bytes cut into `partSize` pieces (every part
 * full, the last one the remainder); null when the file has no such part.
 */
export function plannedPartLength(fileSize: number, partSize: number, partNumber: number): number | null {
  const count = Math.max(1, Math.ceil(fileSize / partSize));
  if (partNumber < 1 || partNumber > count) return null;
  return partNumber < count ? partSize : fileSize - (count - 1) * partSize;
}

/**
 * Content-Disposition: attachment with an ASCII fallback name and the exact name RFC 5987 encoded
 * (`filename*=UTF-8''...`). Control characters, quotes and backslashes never reach the header.
 */
export function contentDispositionAttachment(fileName: string, type: 'attachment' | 'inline' = 'attachment'): string {
  const clean = fileName.replace(/[\u0000-\u001f\u007f]/g, '').trim() || 'download';
  const fallback = clean.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(clean).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * The Content-Security-Policy of a preview's bytes: a sandbox with nothing allowed but its own images, data:
 * images and inline styles, so that a document opened from the URL can run no script and load nothing else.
 */
export const PREVIEW_CSP = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'";

/** Normalizes a caller's content type; anything that is not a plain `type/subtype[; params]` becomes octet-stream. */
export function safeContentType(contentType: string | undefined): string {
  if (!contentType) return 'application/octet-stream';
  const trimmed = contentType.trim();
  return /^[\w.+-]+\/[\w.+-]+(\s*;\s*[\w.+-]+=("[^"\r\n]*"|[\w.+-]+))*$/.test(trimmed) && trimmed.length <= 200
    ? trimmed
    : 'application/octet-stream';
}
