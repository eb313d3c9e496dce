/**
 * Whole objects in the local store: stored once (a key that holds bytes is never written again), read whole or
 * by range, described by their metadata file, removed.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { hashPool } from '../hash-pool.js';
import { BlobInvalidArgumentError, BlobNotFoundError, MAX_SINGLE_PUT_SIZE, quoteEtag, safeContentType } from '../blob-store.js';
import type { BlobHead, ByteRange } from '../blob-store.js';
import { receiveBody } from './body.js';
import { isCode, LocalStoreRequestError, readJson, type LocalLayout, type ObjectMeta } from './layout.js';
import { assertOrdinaryKey } from './locks.js';

export type OpenedObject = { stream: Readable; size: number; start: number; end: number };

export class LocalObjects {
  constructor(private readonly layout: LocalLayout) {}

  /**
   * Streams `body` into the object `key` (temp file, then linked into place). With `length`, exactly that many
   * bytes must arrive; without, at most MAX_SINGLE_PUT_SIZE. An existing key is refused (412).
   */
  async write(key: string, body: Readable, opts: { length?: number; maxLength?: number; contentType?: string } = {}): Promise<BlobHead> {
    const target = this.layout.objectPath(key);
    // Vault keys are never written by a PUT, whoever signed it (the vault copy writes them under their lock).
    assertOrdinaryKey(key);
    const written = await receiveBody(this.layout, body, opts.length, Math.min(opts.maxLength ?? MAX_SINGLE_PUT_SIZE, MAX_SINGLE_PUT_SIZE));
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
    await this.layout.writeMeta(key, meta);
    return meta;
  }

  async head(key: string): Promise<BlobHead | null> {
    const file = this.layout.objectPath(key);
    let size: number;
    try {
      const stat = await fs.stat(file);
      if (!stat.isFile()) return null;
      size = stat.size;
    } catch (err) {
      if (isCode(err, 'ENOENT') || isCode(err, 'ENOTDIR')) return null;
      throw err;
    }
    const meta = await readJson<ObjectMeta>(this.layout.metaPath(key));
    if (meta && meta.size === size && typeof meta.etag === 'string') {
      return { size, etag: meta.etag, ...(meta.contentType ? { contentType: meta.contentType } : {}) };
    }
    // The metadata did not survive (crash between the two renames): the plain MD5 of the bytes stands in.
    const md5 = createHash('md5');
    for await (const chunk of createReadStream(file)) md5.update(chunk as Buffer);
    const rebuilt: ObjectMeta = { etag: quoteEtag(md5.digest('hex')), size };
    await this.layout.writeMeta(key, rebuilt);
    return rebuilt;
  }

  /** Opens an object for reading, whole or the given range (checked against its size). */
  async open(key: string, range?: ByteRange): Promise<OpenedObject> {
    const file = this.layout.objectPath(key);
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

  /** Removes an ordinary object; vault objects go only through LocalVault.delete, which checks their lock. */
  async delete(key: string): Promise<void> {
    const file = this.layout.objectPath(key);
    assertOrdinaryKey(key);
    await fs.rm(file, { force: true });
    await fs.rm(this.layout.metaPath(key), { force: true });
  }

  /** SHA-256 of the stored bytes, read back and hashed by a hash worker (the event loop only waits). */
  async sha256(key: string): Promise<string> {
    try {
      return (await hashPool.file(this.layout.objectPath(key), 'sha256')).hex;
    } catch (err) {
      if (isCode(err, 'ENOENT') || isCode(err, 'ENOTDIR') || isCode(err, 'EISDIR')) throw new BlobNotFoundError(key, { cause: err });
      throw err;
    }
  }
}
