/**
 * Where the local store keeps things, under DATA_DIR/objects:
 *   <key>                              the object's bytes (key segments become directories)
 *   .meta/<key>.json                   { etag, size, contentType } written after the object
 *   .multipart/<uploadId>/upload.json  { key, contentType, createdAt } of an open multipart upload
 *   .multipart/<uploadId>/<00001>.<md5 hex>   one stored part; the name carries its ETag, so it is atomic
 *   .multipart/.trash-<uploadId>-<uuid>       an upload folder on its way out (see multipart.ts)
 *   .tmp/                              files being written; renamed into place when complete (atomic writes)
 *   .locks/<key>.json                  the lock of a vault object (vault/...), owned by the store (locks.ts)
 * Keys never start a segment with a dot (assertValidKey), so they cannot reach these folders.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { assertValidKey, BlobInvalidArgumentError } from '../blob-store.js';

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

/** Upload ids are made here: 16 random bytes in hex. */
export const UPLOAD_ID = /^[0-9a-f]{32}$/;
/** A stored part: its number (5 digits) and its MD5, which is its ETag. */
export const PART_FILE = /^(\d{5})\.([0-9a-f]{32})$/;

export type UploadMeta = { key: string; contentType?: string; createdAt: string };
export type ObjectMeta = { etag: string; size: number; contentType?: string };

export class LocalLayout {
  /** DATA_DIR/objects */
  readonly root: string;
  readonly tmpDir: string;
  readonly multipartDir: string;
  readonly metaDir: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'objects');
    this.tmpDir = path.join(this.root, '.tmp');
    this.multipartDir = path.join(this.root, '.multipart');
    this.metaDir = path.join(this.root, '.meta');
  }

  /** Absolute path of a key's file; throws BlobInvalidKeyError for keys that are not server-made. */
  objectPath(key: string): string {
    assertValidKey(key);
    const full = path.join(this.root, ...key.split('/'));
    if (!full.startsWith(this.root + path.sep)) throw new BlobInvalidArgumentError('key outside the store');
    return full;
  }

  metaPath(key: string): string {
    assertValidKey(key);
    return path.join(this.metaDir, ...key.split('/')) + '.json';
  }

  /** The folder of an upload id that passed UPLOAD_ID. */
  uploadDir(uploadId: string): string {
    return path.join(this.multipartDir, uploadId);
  }

  /** A path under .tmp, by default a fresh random name; the folder exists once this resolves. */
  async tempFile(name: string = randomUUID()): Promise<string> {
    await fs.mkdir(this.tmpDir, { recursive: true });
    return path.join(this.tmpDir, name);
  }

  /** Writes an object's metadata beside the bytes, in one rename, so a reader sees the old or the new. */
  async writeMeta(key: string, meta: ObjectMeta): Promise<void> {
    const file = this.metaPath(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = await this.tempFile(`${randomUUID()}.json`);
    await fs.writeFile(tmp, JSON.stringify(meta), { mode: 0o600 });
    await fs.rename(tmp, file);
  }
}

export function isCode(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

/** A JSON file's content; null when it is missing or unreadable as JSON (a write cut short). */
export async function readJson<T>(file: string): Promise<T | null> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8')) as T;
  } catch (err) {
    if (isCode(err, 'ENOENT') || isCode(err, 'ENOTDIR') || err instanceof SyntaxError) return null;
    throw err;
  }
}
