/**
 * Local BlobStore: objects as files under DATA_DIR/objects, presigned URLs signed by the app (HMAC-SHA256) and
 * served by localStoreRoutes (local-store.routes.ts) under `${appUrl}/_objects/...`.
 *
 * This class checks the callers' input and hands each concern to its own module under local/:
 *   layout.ts     where things live under DATA_DIR/objects, metadata files
 *   signing.ts    presigned URLs: signing, verifying, the signing key
 *   body.ts       receiving a body (length bounds, MD5 on a hash worker, fsync)
 *   objects.ts    whole objects: write-once storing, head, ranged reads, delete, sha256
 *   multipart.ts  uploads in parts: parts, listing, assembly (write-once), abort
 *   cleanup.ts    what unfinished uploads and writes leave behind
 *   locks.ts      vault locks: the records the store owns, the rules every write and delete passes
 *   vault.ts      vault objects: verified copies under a lock, legal holds, deletes the lock allows
 *   listing.ts    keys by prefix, in S3's order
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  assertExpiry,
  assertLength,
  assertPartNumber,
  assertValidKey,
  BlobInvalidArgumentError,
  BlobUploadNotFoundError,
  listKeysLimit,
  MAX_PART_SIZE,
  MAX_SINGLE_PUT_SIZE,
  safeContentType,
} from './blob-store.js';
import type {
  AssembledHead,
  BlobHead,
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
import { cleanupLocalStore } from './local/cleanup.js';
import { LocalLayout, UPLOAD_ID } from './local/layout.js';
import { listLocalKeys } from './local/listing.js';
import { LocalMultipart } from './local/multipart.js';
import { assertOrdinaryKey, isVaultKey, LocalLocks } from './local/locks.js';
import { LocalObjects, type OpenedObject } from './local/objects.js';
import { LocalVault } from './local/vault.js';
import { UrlSigner, type SignedRequestParams } from './local/signing.js';

export { LocalStoreRequestError } from './local/layout.js';
export { SIGNING_KEY_FILE } from './local/signing.js';
export type { SignedRequestParams } from './local/signing.js';

export type LocalBlobStoreOptions = {
  dataDir: string;
  /** Public base URL of the app, e.g. https://archive.example.com (no trailing slash needed). */
  appUrl: string;
  /** HMAC key (at least 32 characters). Without it a random key is kept in DATA_DIR/keys/storage-signing.key. */
  signingKey?: string;
  /** Where the app mounts localStoreRoutes. Default '/_objects'. */
  routePrefix?: string;
  /** Clock (URL expiry, vault retain-until dates), for tests. */
  now?: () => Date;
};

export class LocalBlobStore implements ObjectStore, VaultStore {
  readonly kind = 'local' as const;
  /** DATA_DIR/objects */
  readonly root: string;
  readonly tmpDir: string;
  readonly multipartDir: string;
  readonly metaDir: string;
  private readonly layout: LocalLayout;
  private readonly signer: UrlSigner;
  private readonly objects: LocalObjects;
  private readonly multipart: LocalMultipart;
  private readonly vault: LocalVault;

  constructor(options: LocalBlobStoreOptions) {
    const dataDir = path.resolve(options.dataDir);
    const now = options.now ?? (() => new Date());
    const prefix = (options.routePrefix ?? '/_objects').replace(/\/$/, '');
    this.signer = new UrlSigner({ dataDir, baseUrl: options.appUrl.replace(/\/$/, '') + prefix, signingKey: options.signingKey, now });
    this.layout = new LocalLayout(dataDir);
    ({ root: this.root, tmpDir: this.tmpDir, multipartDir: this.multipartDir, metaDir: this.metaDir } = this.layout);
    this.objects = new LocalObjects(this.layout);
    this.multipart = new LocalMultipart(this.layout, now);
    this.vault = new LocalVault(this.layout, new LocalLocks(this.layout, now), this.objects);
  }

  // ---------------------------------------------------------------- presigning

  async presignPut(input: PresignPutInput): Promise<PresignedRequest> {
    assertValidKey(input.key);
    assertOrdinaryKey(input.key);
    if (input.contentLength !== undefined) assertLength(input.contentLength, MAX_SINGLE_PUT_SIZE, 'contentLength');
    else if (input.maxLength !== undefined) assertLength(input.maxLength, MAX_SINGLE_PUT_SIZE, 'maxLength');
    else throw new BlobInvalidArgumentError('A single PUT needs contentLength or maxLength');
    assertExpiry(input.expiresInSeconds);
    const headers: Record<string, string> = {};
    if (input.contentType) headers['Content-Type'] = safeContentType(input.contentType);
    const bound = input.contentLength !== undefined ? { length: input.contentLength } : { maxLength: input.maxLength };
    return this.signer.sign({ method: 'PUT', key: input.key, ...bound }, input.expiresInSeconds, headers);
  }

  async presignPart(input: PresignPartInput): Promise<PresignedRequest> {
    assertValidKey(input.key);
    assertOrdinaryKey(input.key);
    assertPartNumber(input.partNumber);
    if (input.contentLength !== undefined) assertLength(input.contentLength, MAX_PART_SIZE, 'contentLength');
    if (input.maxLength !== undefined) assertLength(input.maxLength, MAX_PART_SIZE, 'maxLength');
    assertExpiry(input.expiresInSeconds);
    if (!UPLOAD_ID.test(input.uploadId)) throw new BlobUploadNotFoundError(input.uploadId);
    const maxLength = input.contentLength === undefined ? input.maxLength : undefined;
    return this.signer.sign(
      { method: 'PUT', key: input.key, uploadId: input.uploadId, partNumber: input.partNumber, length: input.contentLength, maxLength },
      input.expiresInSeconds,
      {},
    );
  }

  async presignGet(input: PresignGetInput): Promise<PresignedRequest> {
    assertValidKey(input.key);
    assertExpiry(input.expiresInSeconds);
    return this.signer.sign(
      {
        method: 'GET',
        key: input.key,
        fileName: input.fileName,
        contentType: safeContentType(input.contentType),
        ...(input.disposition ? { disposition: input.disposition } : {}),
      },
      input.expiresInSeconds,
      {},
    );
  }

  /**
   * Checks a request against its signature and expiry. `query` is the parsed query string. Throws
   * LocalStoreRequestError 403 when anything is off (expired, tampered, other key, other method).
   */
  verifySignedRequest(method: string, key: string, query: Record<string, unknown>): Promise<SignedRequestParams> {
    return this.signer.verify(method, key, query);
  }

  // ---------------------------------------------------------------- objects

  /** Absolute path of a key's file; throws BlobInvalidKeyError for keys that are not server-made. */
  objectPath(key: string): string {
    return this.layout.objectPath(key);
  }

  /**
   * Streams `body` into the object `key` (temp file, then linked into place). With `length`, exactly that many
   * bytes must arrive; without, at most MAX_SINGLE_PUT_SIZE. An existing key is refused (412). Used by the PUT route.
   */
  writeObject(key: string, body: Readable, opts: { length?: number; maxLength?: number; contentType?: string } = {}): Promise<BlobHead> {
    return this.objects.write(key, body, opts);
  }

  putObject(key: string, body: Readable, opts: { length: number; contentType?: string }): Promise<BlobHead> {
    assertValidKey(key);
    assertLength(opts.length, MAX_SINGLE_PUT_SIZE, 'length');
    return this.objects.write(key, body, { length: opts.length, contentType: opts.contentType });
  }

  head(key: string): Promise<BlobHead | null> {
    return this.objects.head(key);
  }

  async getStream(key: string, range?: ByteRange): Promise<Readable> {
    return (await this.objects.open(key, range)).stream;
  }

  /** Opens an object for reading (used by getStream and the GET route). */
  openObject(key: string, range?: ByteRange): Promise<OpenedObject> {
    return this.objects.open(key, range);
  }

  /** Removes an object; a vault object only once its retain-until date has passed and its hold is off. */
  async delete(key: string): Promise<void> {
    assertValidKey(key);
    return isVaultKey(key) ? this.vault.delete(key) : this.objects.delete(key);
  }

  /** SHA-256 of the stored bytes, read back and hashed by a hash worker (the event loop only waits). */
  sha256(key: string): Promise<string> {
    return this.objects.sha256(key);
  }

  /** Keys under a prefix in S3's order (local/listing.ts). */
  async listKeys(prefix: string, opts?: ListKeysOptions): Promise<string[]> {
    const limit = listKeysLimit(prefix, opts);
    return listLocalKeys(this.layout, prefix, opts?.startAfter, limit);
  }

  async ping(): Promise<void> {
    const probe = await this.layout.tempFile(`ping-${randomUUID()}`);
    await fs.writeFile(probe, 'ok', { flag: 'wx' });
    await fs.rm(probe);
    await this.signer.key();
  }

  /** No bucket: the local store's safety is the data directory's permissions, which a review reads there. */
  async securitySettings(): Promise<null> {
    return null;
  }

  // ---------------------------------------------------------------- multipart

  createMultipart(input: CreateMultipartInput): Promise<{ uploadId: string }> {
    return this.multipart.create(input);
  }

  /** Streams one part into the upload (used by the PUT route with uploadId and partNumber). */
  writePart(
    key: string,
    uploadId: string,
    partNumber: number,
    body: Readable,
    opts: { length?: number; maxLength?: number } = {},
  ): Promise<{ etag: string; size: number }> {
    return this.multipart.writePart(key, uploadId, partNumber, body, opts);
  }

  listParts(input: { key: string; uploadId: string }): Promise<UploadedPart[]> {
    return this.multipart.listParts(input);
  }

  completeMultipart(input: CompleteMultipartInput): Promise<AssembledHead> {
    return this.multipart.complete(input);
  }

  abortMultipart(input: { key: string; uploadId: string }): Promise<void> {
    return this.multipart.abort(input);
  }

  cleanupIncompleteMultipart(olderThan: Date): Promise<number> {
    return cleanupLocalStore(this.layout, olderThan);
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

  setLegalHold(key: string, on: boolean): Promise<void> {
    return this.vault.setLegalHold(key, on);
  }

  extendRetention(key: string, retainUntil: Date): Promise<VaultLock> {
    return this.vault.extendRetention(key, retainUntil);
  }

  /** Local files are always readable: nothing to restore. */
  async requestRestore(key: string, _days: number): Promise<VaultObjectInfo['restore']> {
    assertValidKey(key);
    return null;
  }

  async writeOnceStatus(): Promise<WriteOnceStatus> {
    return {
      enforced: true,
      store: 'local',
      mode: 'COMPLIANCE',
      detail:
        'Enforced by the local store: vault files are read-only on disk and the store refuses to replace or delete them ' +
        'before their retain-until date or while a legal hold is on.',
    };
  }
}
