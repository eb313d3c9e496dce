/**
 * Local BlobStore: objects as files under DATA_DIR/objects, presigned URLs signed by the app (HMAC-SHA256) and
 * served by localStoreRoutes (local-store.routes.ts) under `${appUrl}/_objects/...`.
 *
 * Layout under DATA_DIR/objects:
 *   <key>                              the object's bytes (key segments become directories)
 *   .meta/<key>.json                   { etag, size, contentType } written after the object
 *   .multipart/<uploadId>/upload.json  { key, contentType, createdAt } of an open multipart upload
 *   .multipart/<uploadId>/<00001>.<md5 hex>   one stored part; the name carries its ETag, so it is atomic
 *   .tmp/                              files being written; renamed into place when complete (atomic writes)
 * Keys never start a segment with a dot (assertValidKey), so they cannot reach these folders.
 */
import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { hashPool, INLINE_HASH_LIMIT } from './hash-pool.js';
import {
  assertExpiry,
  assertLength,
  assertPartNumber,
  assertParts,
  assertValidKey,
  BlobInvalidArgumentError,
  BlobInvalidPartError,
  BlobNotFoundError,
  BlobObjectExistsError,
  BlobStoreError,
  BlobUploadNotFoundError,
  MAX_PART_SIZE,
  MAX_SINGLE_PUT_SIZE,
  MIN_PART_SIZE,
  multipartEtag,
  quoteEtag,
  safeContentType,
  unquoteEtag,
} from './blob-store.js';
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
} from './blob-store.js';

export type LocalBlobStoreOptions = {
  dataDir: string;
  /** Public base URL of the app, e.g. https://archive.example.com (no trailing slash needed). */
  appUrl: string;
  /** HMAC key (at least 32 characters). Without it a random key is kept in DATA_DIR/keys/storage-signing.key. */
  signingKey?: string;
  /** Where the app mounts localStoreRoutes. Default '/_objects'. */
  routePrefix?: string;
  /** Clock, for tests. */
  now?: () => Date;
};

/** The parameters a valid signed URL carried. */
export type SignedRequestParams = {
  method: 'PUT' | 'GET';
  key: string;
  expires: number;
  length?: number;
  /** The most bytes accepted, for URLs without an exact length. */
  maxLength?: number;
  uploadId?: string;
  partNumber?: number;
  fileName?: string;
  contentType?: string;
};

/** A request the local routes must refuse; statusCode is the HTTP answer. */
export class LocalStoreRequestError extends Error {
  constructor(
    readonly statusCode: 400 | 403 | 404 | 411 | 412 | 413 | 416,
    message: string,
  ) {
    super(message);
    this.name = 'LocalStoreRequestError';
  }
}

export const SIGNING_KEY_FILE = path.join('keys', 'storage-signing.key');
const UPLOAD_ID = /^[0-9a-f]{32}$/;
const PART_FILE = /^(\d{5})\.([0-9a-f]{32})$/;
const SIGNED_PARAMS = ['expires', 'length', 'max', 'uploadId', 'partNumber', 'filename', 'type'] as const;

type UploadMeta = { key: string; contentType?: string; createdAt: string };
type ObjectMeta = { etag: string; size: number; contentType?: string };
type PartFile = { partNumber: number; etag: string; size: number; file: string; mtimeMs: number };

export class LocalBlobStore implements BlobStore {
  readonly kind = 'local' as const;
  /** DATA_DIR/objects */
  readonly root: string;
  readonly tmpDir: string;
  readonly multipartDir: string;
  readonly metaDir: string;
  private readonly dataDir: string;
  private readonly baseUrl: string;
  private readonly now: () => Date;
  private keyPromise: Promise<Buffer> | undefined;

  constructor(private readonly options: LocalBlobStoreOptions) {
    this.dataDir = path.resolve(options.dataDir);
    this.root = path.join(this.dataDir, 'objects');
    this.tmpDir = path.join(this.root, '.tmp');
    this.multipartDir = path.join(this.root, '.multipart');
    this.metaDir = path.join(this.root, '.meta');
    const prefix = (options.routePrefix ?? '/_objects').replace(/\/$/, '');
    this.baseUrl = options.appUrl.replace(/\/$/, '') + prefix;
    this.now = options.now ?? (() => new Date());
    if (options.signingKey !== undefined && options.signingKey.length < 32) {
      throw new BlobInvalidArgumentError('The storage signing key must be at least 32 characters');
    }
  }

  // ---------------------------------------------------------------- presigning

  async presignPut(input: PresignPutInput): Promise<PresignedRequest> {
    assertValidKey(input.key);
    if (input.contentLength !== undefined) assertLength(input.contentLength, MAX_SINGLE_PUT_SIZE, 'contentLength');
    else if (input.maxLength !== undefined) assertLength(input.maxLength, MAX_SINGLE_PUT_SIZE, 'maxLength');
    else throw new BlobInvalidArgumentError('A single PUT needs contentLength or maxLength');
    assertExpiry(input.expiresInSeconds);
    const headers: Record<string, string> = {};
    if (input.contentType) headers['Content-Type'] = safeContentType(input.contentType);
    const bound = input.contentLength !== undefined ? { length: input.contentLength } : { maxLength: input.maxLength };
    return this.sign({ method: 'PUT', key: input.key, ...bound }, input.expiresInSeconds, headers);
  }

  async presignPart(input: PresignPartInput): Promise<PresignedRequest> {
    assertValidKey(input.key);
    assertPartNumber(input.partNumber);
    if (input.contentLength !== undefined) assertLength(input.contentLength, MAX_PART_SIZE, 'contentLength');
    if (input.maxLength !== undefined) assertLength(input.maxLength, MAX_PART_SIZE, 'maxLength');
    assertExpiry(input.expiresInSeconds);
    if (!UPLOAD_ID.test(input.uploadId)) throw new BlobUploadNotFoundError(input.uploadId);
    const maxLength = input.contentLength === undefined ? input.maxLength : undefined;
    return this.sign(
      { method: 'PUT', key: input.key, uploadId: input.uploadId, partNumber: input.partNumber, length: input.contentLength, maxLength },
      input.expiresInSeconds,
      {},
    );
  }

  async presignGet(input: PresignGetInput): Promise<PresignedRequest> {
    assertValidKey(input.key);
    assertExpiry(input.expiresInSeconds);
    return this.sign(
      { method: 'GET', key: input.key, fileName: input.fileName, contentType: safeContentType(input.contentType) },
      input.expiresInSeconds,
      {},
    );
  }

  private async sign(
    params: Omit<SignedRequestParams, 'expires'>,
    expiresInSeconds: number,
    headers: Record<string, string>,
  ): Promise<PresignedRequest> {
    const expires = Math.floor(this.now().getTime() / 1000) + expiresInSeconds;
    const full: SignedRequestParams = { ...params, expires };
    const query = new URLSearchParams();
    query.set('expires', String(expires));
    if (full.length !== undefined) query.set('length', String(full.length));
    if (full.maxLength !== undefined) query.set('max', String(full.maxLength));
    if (full.uploadId !== undefined) query.set('uploadId', full.uploadId);
    if (full.partNumber !== undefined) query.set('partNumber', String(full.partNumber));
    if (full.fileName !== undefined) query.set('filename', full.fileName);
    if (full.contentType !== undefined) query.set('type', full.contentType);
    query.set('sig', await this.signature(full));
    return {
      url: `${this.baseUrl}/${encodeKey(params.key)}?${query.toString()}`,
      method: params.method,
      headers,
      expiresAt: new Date(expires * 1000),
    };
  }

  private async signature(p: SignedRequestParams): Promise<string> {
    const fields: unknown[] = [
      'strongroom-blob-v1',
      p.method,
      p.key,
      p.expires,
      p.uploadId ?? null,
      p.partNumber ?? null,
      p.length ?? null,
      p.fileName ?? null,
      p.contentType ?? null,
    ];
    // The upper bound is signed too (appended only when present, so URLs without one keep their form).
    if (p.maxLength !== undefined) fields.push(['max', p.maxLength]);
    const canonical = JSON.stringify(fields);
    return createHmac('sha256', await this.signingKey()).update(canonical).digest('base64url');
  }

  /**
   * Checks a request against its signature and expiry. `query` is the parsed query string. Throws
   * LocalStoreRequestError 403 when anything is off (expired, tampered, other key, other method).
   */
  async verifySignedRequest(method: string, key: string, query: Record<string, unknown>): Promise<SignedRequestParams> {
    const deny = (why: string) => new LocalStoreRequestError(403, `Access denied: ${why}`);
    if (method !== 'PUT' && method !== 'GET') throw deny('method');
    try {
      assertValidKey(key);
    } catch {
      throw deny('key');
    }
    const get = (name: string): string | undefined => {
      const value = query[name];
      if (value === undefined) return undefined;
      if (typeof value !== 'string') throw deny(`repeated ${name}`);
      return value;
    };
    const sig = get('sig');
    const expiresText = get('expires');
    if (!sig || !expiresText || !/^\d{1,12}$/.test(expiresText)) throw deny('unsigned');
    for (const name of SIGNED_PARAMS) get(name);
    const int = (name: string): number | undefined => {
      const text = get(name);
      if (text === undefined) return undefined;
      if (!/^\d{1,16}$/.test(text)) throw deny(name);
      return Number(text);
    };
    const params: SignedRequestParams = {
      method,
      key,
      expires: Number(expiresText),
      length: int('length'),
      maxLength: int('max'),
      uploadId: get('uploadId'),
      partNumber: int('partNumber'),
      fileName: get('filename'),
      contentType: get('type'),
    };
    const expected = Buffer.from(await this.signature(params));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw deny('signature');
    if (Math.floor(this.now().getTime() / 1000) > params.expires) throw deny('expired');
    return params;
  }

  private signingKey(): Promise<Buffer> {
    this.keyPromise ??= this.loadSigningKey();
    return this.keyPromise;
  }

  private async loadSigningKey(): Promise<Buffer> {
    if (this.options.signingKey !== undefined) return Buffer.from(this.options.signingKey, 'utf8');
    const file = path.join(this.dataDir, SIGNING_KEY_FILE);
    const read = async () => {
      const text = (await fs.readFile(file, 'utf8')).trim();
      if (text.length < 32) throw new Error(`${file} holds no usable key (at least 32 characters)`);
      return Buffer.from(text, 'utf8');
    };
    try {
      return await read();
    } catch (err) {
      if (!isCode(err, 'ENOENT')) throw err;
    }
    // First use: write a fresh key beside, then link it into place; link fails if another process won the race.
    await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${randomUUID()}.tmp`;
    await fs.writeFile(tmp, randomBytes(32).toString('hex') + '\n', { mode: 0o600, flag: 'wx' });
    try {
      await fs.link(tmp, file);
    } catch (err) {
      if (!isCode(err, 'EEXIST')) throw err;
    } finally {
      await fs.rm(tmp, { force: true });
    }
    return read();
  }

  // ---------------------------------------------------------------- objects

  /** Absolute path of a key's file; throws BlobInvalidKeyError for keys that are not server-made. */
  objectPath(key: string): string {
    assertValidKey(key);
    const full = path.join(this.root, ...key.split('/'));
    if (!full.startsWith(this.root + path.sep)) throw new BlobInvalidArgumentError('key outside the store');
    return full;
  }

  private metaPath(key: string): string {
    assertValidKey(key);
    return path.join(this.metaDir, ...key.split('/')) + '.json';
  }

  /**
   * Streams `body` into the object `key` (temp file, then linked into place). With `length`, exactly that many
   * bytes must arrive; without, at most MAX_SINGLE_PUT_SIZE. An existing key is refused (412). Used by the PUT route.
   */
  async writeObject(key: string, body: Readable, opts: { length?: number; maxLength?: number; contentType?: string } = {}): Promise<BlobHead> {
    const target = this.objectPath(key);
    const written = await this.writeTemp(body, opts.length, Math.min(opts.maxLength ?? MAX_SINGLE_PUT_SIZE, MAX_SINGLE_PUT_SIZE));
    try {
      await fs.mkdir(path.dirname(target), { recursive: true });
      // Write-once: link fails when the key exists, so a presigned PUT replayed within its 15 minutes cannot
      // replace bytes whose sha256 was already recorded (S3: the URL carries If-None-Match: *).
      await fs.link(written.file, target);
    } catch (err) {
      if (isCode(err, 'EEXIST')) throw new LocalStoreRequestError(412, 'An object with this key already exists');
      throw err;
    } finally {
      await fs.rm(written.file, { force: true });
    }
    const meta: ObjectMeta = { etag: quoteEtag(written.md5), size: written.size };
    if (opts.contentType) meta.contentType = safeContentType(opts.contentType);
    await this.writeMeta(key, meta);
    return meta;
  }

  /**
   * Streams body to a new file under .tmp, counting bytes and computing its MD5; the file is fsynced before this
   * resolves. Removes it on any failure. A body that may be large goes to a hash worker (hash-pool.ts), which
   * hashes and writes it in 1 MiB batches, so the event loop only receives and copies; a body known to be small
   * is hashed and written here.
   */
  private async writeTemp(body: Readable, length: number | undefined, max: number): Promise<{ file: string; md5: string; size: number }> {
    await fs.mkdir(this.tmpDir, { recursive: true });
    const file = path.join(this.tmpDir, randomUUID());
    const limit = length ?? max;
    let size = 0;
    const count = (chunk: Buffer): Error | undefined => {
      size += chunk.length;
      if (size <= limit) return undefined;
      return length === undefined ? new LocalStoreRequestError(413, 'Body too large') : new LocalStoreRequestError(400, 'Body longer than the signed length');
    };
    const small = length !== undefined && length < INLINE_HASH_LIMIT;
    const job = small ? undefined : hashPool.stream('md5', { file });
    let digest = '';
    try {
      if (job) {
        await pipeline(body, job.writable(count));
        digest = await job.digest();
      } else {
        const md5 = createHash('md5');
        const meter = new Transform({
          transform(chunk: Buffer, _enc, done) {
            const tooLong = count(chunk);
            if (tooLong) return done(tooLong);
            md5.update(chunk);
            done(null, chunk);
          },
        });
        await pipeline(body, meter, createWriteStream(file, { flags: 'wx', mode: 0o600, flush: true }));
        digest = md5.digest('hex');
      }
      if (length !== undefined && size !== length) {
        throw new LocalStoreRequestError(400, `Body of ${size} bytes, the URL was signed for ${length}`);
      }
    } catch (err) {
      await job?.abort();
      await fs.rm(file, { force: true });
      throw err;
    }
    return { file, md5: digest, size };
  }

  private async writeMeta(key: string, meta: ObjectMeta): Promise<void> {
    const file = this.metaPath(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.mkdir(this.tmpDir, { recursive: true });
    const tmp = path.join(this.tmpDir, `${randomUUID()}.json`);
    await fs.writeFile(tmp, JSON.stringify(meta), { mode: 0o600 });
    await fs.rename(tmp, file);
  }

  async head(key: string): Promise<BlobHead | null> {
    const file = this.objectPath(key);
    let size: number;
    try {
      const stat = await fs.stat(file);
      if (!stat.isFile()) return null;
      size = stat.size;
    } catch (err) {
      if (isCode(err, 'ENOENT') || isCode(err, 'ENOTDIR')) return null;
      throw err;
    }
    const meta = await readJson<ObjectMeta>(this.metaPath(key));
    if (meta && meta.size === size && typeof meta.etag === 'string') {
      return { size, etag: meta.etag, ...(meta.contentType ? { contentType: meta.contentType } : {}) };
    }
    // The metadata did not survive (crash between the two renames): the plain MD5 of the bytes stands in.
    const md5 = createHash('md5');
    for await (const chunk of createReadStream(file)) md5.update(chunk as Buffer);
    const rebuilt: ObjectMeta = { etag: quoteEtag(md5.digest('hex')), size };
    await this.writeMeta(key, rebuilt);
    return rebuilt;
  }

  async getStream(key: string, range?: ByteRange): Promise<Readable> {
    return (await this.openObject(key, range)).stream;
  }

  /** Opens an object for reading (used by getStream and the GET route). */
  async openObject(key: string, range?: ByteRange): Promise<{ stream: Readable; size: number; start: number; end: number }> {
    const file = this.objectPath(key);
    let handle: FileHandle;
    try {
      handle = await fs.open(file, 'r');
    } catch (err) {
      if (isCode(err, 'ENOENT') || isCode(err, 'ENOTDIR') || isCode(err, 'EISDIR')) throw new BlobNotFoundError(key, { cause: err });
      throw err;
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw new BlobNotFoundError(key);
      const size = stat.size;
      let start = 0;
      let end = size - 1;
      if (range) {
        const last = range.end === undefined ? size - 1 : Math.min(range.end, size - 1);
        if (!Number.isSafeInteger(range.start) || range.start < 0 || range.start >= size || last < range.start) {
          throw new BlobInvalidArgumentError(`Range ${range.start}-${range.end ?? ''} not satisfiable for ${size} bytes`);
        }
        start = range.start;
        end = last;
      }
      // An empty file: a stream with nothing in it (createReadStream with end -1 would misbehave).
      const stream = size === 0 ? Readable.from([]) : handle.createReadStream({ start, end, autoClose: true });
      if (size === 0) await handle.close();
      return { stream, size, start, end };
    } catch (err) {
      await handle.close().catch(() => undefined);
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const file = this.objectPath(key);
    await fs.rm(file, { force: true });
    await fs.rm(this.metaPath(key), { force: true });
  }

  /** SHA-256 of the stored bytes, read back and hashed by a hash worker (the event loop only waits). */
  async sha256(key: string): Promise<string> {
    try {
      return (await hashPool.file(this.objectPath(key), 'sha256')).hex;
    } catch (err) {
      if (isCode(err, 'ENOENT') || isCode(err, 'ENOTDIR') || isCode(err, 'EISDIR')) throw new BlobNotFoundError(key, { cause: err });
      throw err;
    }
  }

  async ping(): Promise<void> {
    await fs.mkdir(this.tmpDir, { recursive: true });
    const probe = path.join(this.tmpDir, `ping-${randomUUID()}`);
    await fs.writeFile(probe, 'ok', { flag: 'wx' });
    await fs.rm(probe);
    await this.signingKey();
  }

  // ---------------------------------------------------------------- multipart

  async createMultipart(input: CreateMultipartInput): Promise<{ uploadId: string }> {
    assertValidKey(input.key);
    const uploadId = randomBytes(16).toString('hex');
    const dir = path.join(this.multipartDir, uploadId);
    await fs.mkdir(dir, { recursive: true });
    const meta: UploadMeta = { key: input.key, createdAt: this.now().toISOString() };
    if (input.contentType) meta.contentType = safeContentType(input.contentType);
    await fs.writeFile(path.join(dir, 'upload.json'), JSON.stringify(meta), { mode: 0o600 });
    return { uploadId };
  }

  private async readUpload(key: string, uploadId: string): Promise<{ dir: string; meta: UploadMeta }> {
    assertValidKey(key);
    if (!UPLOAD_ID.test(uploadId)) throw new BlobUploadNotFoundError(uploadId);
    const dir = path.join(this.multipartDir, uploadId);
    const meta = await readJson<UploadMeta>(path.join(dir, 'upload.json'));
    if (!meta || meta.key !== key) throw new BlobUploadNotFoundError(uploadId);
    return { dir, meta };
  }

  /** Streams one part into the upload (used by the PUT route with uploadId and partNumber). */
  async writePart(
    key: string,
    uploadId: string,
    partNumber: number,
    body: Readable,
    opts: { length?: number; maxLength?: number } = {},
  ): Promise<{ etag: string; size: number }> {
    assertPartNumber(partNumber);
    const { dir } = await this.readUpload(key, uploadId);
    const written = await this.writeTemp(body, opts.length, Math.min(opts.maxLength ?? MAX_PART_SIZE, MAX_PART_SIZE));
    const prefix = `${String(partNumber).padStart(5, '0')}.`;
    try {
      // Older copies of this part go first; the new one then appears in one rename.
      for (const name of await fs.readdir(dir)) {
        if (name.startsWith(prefix) && PART_FILE.test(name)) await fs.rm(path.join(dir, name), { force: true });
      }
      await fs.rename(written.file, path.join(dir, prefix + written.md5));
    } catch (err) {
      await fs.rm(written.file, { force: true });
      if (isCode(err, 'ENOENT')) throw new BlobUploadNotFoundError(uploadId, { cause: err });
      throw err;
    }
    return { etag: quoteEtag(written.md5), size: written.size };
  }

  private async partFiles(dir: string, uploadId: string): Promise<Map<number, PartFile[]>> {
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch (err) {
      if (isCode(err, 'ENOENT')) throw new BlobUploadNotFoundError(uploadId, { cause: err });
      throw err;
    }
    const byNumber = new Map<number, PartFile[]>();
    for (const name of names) {
      const match = PART_FILE.exec(name);
      if (!match) continue;
      const file = path.join(dir, name);
      const stat = await fs.stat(file).catch(() => null);
      if (!stat) continue;
      const partNumber = Number(match[1]);
      const list = byNumber.get(partNumber) ?? [];
      list.push({ partNumber, etag: quoteEtag(match[2]), size: stat.size, file, mtimeMs: stat.mtimeMs });
      byNumber.set(partNumber, list);
    }
    return byNumber;
  }

  async listParts(input: { key: string; uploadId: string }): Promise<UploadedPart[]> {
    const { dir } = await this.readUpload(input.key, input.uploadId);
    const byNumber = await this.partFiles(dir, input.uploadId);
    return [...byNumber.values()]
      .map((copies) => copies.reduce((a, b) => (b.mtimeMs > a.mtimeMs ? b : a)))
      .sort((a, b) => a.partNumber - b.partNumber)
      .map(({ partNumber, etag, size }) => ({ partNumber, etag, size }));
  }

  async completeMultipart(input: CompleteMultipartInput): Promise<BlobHead> {
    const { dir, meta } = await this.readUpload(input.key, input.uploadId);
    assertParts(input.parts);
    const byNumber = await this.partFiles(dir, input.uploadId);
    const chosen = input.parts.map((part, index) => {
      const wanted = unquoteEtag(part.etag).toLowerCase();
      const found = byNumber.get(part.partNumber)?.find((p) => unquoteEtag(p.etag) === wanted);
      if (!found) throw new BlobInvalidPartError(`Part ${part.partNumber} with ETag ${part.etag} was not uploaded`);
      const last = index === input.parts.length - 1;
      if (!last && found.size < MIN_PART_SIZE) {
        throw new BlobInvalidPartError(`Part ${part.partNumber} is smaller than 5 MiB and is not the last part`);
      }
      // Parts follow the plan they were cut by: full parts, the last one no larger.
      if (input.partSize !== undefined && (last ? found.size > input.partSize : found.size !== input.partSize)) {
        throw new BlobInvalidPartError(`Part ${part.partNumber} has ${found.size} bytes, not the planned ${input.partSize}`);
      }
      return found;
    });
    const etag = multipartEtag(chosen.map((p) => p.etag));
    await fs.mkdir(this.tmpDir, { recursive: true });
    const tmp = path.join(this.tmpDir, randomUUID());
    const target = this.objectPath(input.key);
    let size = 0;
    try {
      // Joined on a worker (4 MiB reads and writes, fsync), so the event loop stays free for other requests.
      ({ size } = await hashPool.concat(
        chosen.map((p) => p.file),
        tmp,
      ));
      await fs.mkdir(path.dirname(target), { recursive: true });
      // Write-once, as for single PUTs: link fails when the key already holds an object, so an assembly never
      // replaces bytes that another assembly stored (and that may already be recorded with their sha256).
      try {
        await fs.link(tmp, target);
      } catch (err) {
        if (!isCode(err, 'EEXIST')) throw err;
        // An earlier assembly of this upload got as far as storing the object and then stopped (a crash before
        // the upload folder was removed). The same bytes: finish its work; other bytes: refuse.
        const [mine, theirs] = await Promise.all([hashPool.file(tmp, 'md5'), hashPool.file(target, 'md5')]);
        if (mine.hex !== theirs.hex || mine.size !== theirs.size) throw new BlobObjectExistsError(input.key, { cause: err });
      }
    } finally {
      await fs.rm(tmp, { force: true });
    }
    const head: ObjectMeta = { etag, size, ...(meta.contentType ? { contentType: meta.contentType } : {}) };
    await this.writeMeta(input.key, head);
    await this.removeUploadDir(input.uploadId);
    return head;
  }

  async abortMultipart(input: { key: string; uploadId: string }): Promise<void> {
    try {
      await this.readUpload(input.key, input.uploadId);
    } catch (err) {
      if (err instanceof BlobStoreError && err.code === 'NO_SUCH_UPLOAD') return;
      throw err;
    }
    await this.removeUploadDir(input.uploadId);
  }

  /** Moves the upload folder aside in one rename (a part arriving later finds no upload), then deletes it. */
  private async removeUploadDir(uploadId: string): Promise<void> {
    const trash = path.join(this.multipartDir, `.trash-${uploadId}-${randomUUID()}`);
    try {
      await fs.rename(path.join(this.multipartDir, uploadId), trash);
    } catch (err) {
      if (isCode(err, 'ENOENT')) return;
      throw err;
    }
    await fs.rm(trash, { recursive: true, force: true });
  }

  async cleanupIncompleteMultipart(olderThan: Date): Promise<number> {
    const limit = olderThan.getTime();
    let removed = 0;
    let entries: string[] = [];
    try {
      entries = await fs.readdir(this.multipartDir);
    } catch (err) {
      if (!isCode(err, 'ENOENT')) throw err;
    }
    for (const name of entries) {
      const dir = path.join(this.multipartDir, name);
      if (name.startsWith('.trash-')) {
        await fs.rm(dir, { recursive: true, force: true });
        continue;
      }
      if (!UPLOAD_ID.test(name)) continue;
      const meta = await readJson<UploadMeta>(path.join(dir, 'upload.json'));
      let started = meta ? Date.parse(meta.createdAt) : NaN;
      if (Number.isNaN(started)) {
        const stat = await fs.stat(dir).catch(() => null);
        if (!stat) continue;
        started = stat.mtimeMs;
      }
      if (started < limit) {
        await this.removeUploadDir(name);
        removed += 1;
      }
    }
    // Temp files of writes that never finished (a crash, a dropped connection before cleanup ran).
    try {
      for (const name of await fs.readdir(this.tmpDir)) {
        const file = path.join(this.tmpDir, name);
        const stat = await fs.stat(file).catch(() => null);
        if (stat && stat.mtimeMs < limit) await fs.rm(file, { force: true, recursive: true });
      }
    } catch (err) {
      if (!isCode(err, 'ENOENT')) throw err;
    }
    return removed;
  }
}

function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

function isCode(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as T;
  } catch (err) {
    if (isCode(err, 'ENOENT') || isCode(err, 'ENOTDIR') || err instanceof SyntaxError) return null;
    throw err;
  }
}
