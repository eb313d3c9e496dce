/**
 * Multipart uploads in the local store: an upload is a folder under .multipart holding its upload.json and its
 * parts, each part a file named by its number and MD5 so it appears whole in one rename. Completion joins the
 * chosen parts into the object (write-once, as single PUTs), hashing the bytes as it writes them, so the sha256
 * comes with the assembly and the object is not read back; completion and abort remove the folder.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { hashPool } from '../hash-pool.js';
import {
  assertParts,
  assertPartNumber,
  assertValidKey,
  BlobInvalidPartError,
  BlobObjectExistsError,
  BlobStoreError,
  BlobUploadNotFoundError,
  MAX_PART_SIZE,
  MIN_PART_SIZE,
  multipartEtag,
  quoteEtag,
  safeContentType,
  unquoteEtag,
} from '../blob-store.js';
import type { AssembledHead, CompleteMultipartInput, CreateMultipartInput, UploadedPart } from '../blob-store.js';
import { receiveBody } from './body.js';
import { isCode, PART_FILE, readJson, UPLOAD_ID, type LocalLayout, type ObjectMeta, type UploadMeta } from './layout.js';
import { assertOrdinaryKey } from './locks.js';

type PartFile = { partNumber: number; etag: string; size: number; file: string; mtimeMs: number };

export class LocalMultipart {
  constructor(
    private readonly layout: LocalLayout,
    private readonly now: () => Date,
  ) {}

  async create(input: CreateMultipartInput): Promise<{ uploadId: string }> {
    assertValidKey(input.key);
    // No upload ever assembles onto a vault key.
    assertOrdinaryKey(input.key);
    const uploadId = randomBytes(16).toString('hex');
    const dir = this.layout.uploadDir(uploadId);
    await fs.mkdir(dir, { recursive: true });
    const meta: UploadMeta = { key: input.key, createdAt: this.now().toISOString() };
    if (input.contentType) meta.contentType = safeContentType(input.contentType);
    await fs.writeFile(path.join(dir, 'upload.json'), JSON.stringify(meta), { mode: 0o600 });
    return { uploadId };
  }

  /** The upload's folder and metadata; BlobUploadNotFoundError unless the upload exists for this very key. */
  private async readUpload(key: string, uploadId: string): Promise<{ dir: string; meta: UploadMeta }> {
    assertValidKey(key);
    assertOrdinaryKey(key);
    if (!UPLOAD_ID.test(uploadId)) throw new BlobUploadNotFoundError(uploadId);
    const dir = this.layout.uploadDir(uploadId);
    const meta = await readJson<UploadMeta>(path.join(dir, 'upload.json'));
    if (!meta || meta.key !== key) throw new BlobUploadNotFoundError(uploadId);
    return { dir, meta };
  }

  /** Streams one part into the upload; a part sent again replaces the earlier copy. */
  async writePart(
    key: string,
    uploadId: string,
    partNumber: number,
    body: Readable,
    opts: { length?: number; maxLength?: number } = {},
  ): Promise<{ etag: string; size: number }> {
    assertPartNumber(partNumber);
    const { dir } = await this.readUpload(key, uploadId);
    const written = await receiveBody(this.layout, body, opts.length, Math.min(opts.maxLength ?? MAX_PART_SIZE, MAX_PART_SIZE));
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
      const [, number, etag] = PART_FILE.exec(name) ?? [];
      if (number === undefined || etag === undefined) continue;
      const file = path.join(dir, name);
      const stat = await fs.stat(file).catch(() => null);
      if (!stat) continue;
      const partNumber = Number(number);
      const list = byNumber.get(partNumber) ?? [];
      list.push({ partNumber, etag: quoteEtag(etag), size: stat.size, file, mtimeMs: stat.mtimeMs });
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

  async complete(input: CompleteMultipartInput): Promise<AssembledHead> {
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
    const tmp = await this.layout.tempFile();
    const target = this.layout.objectPath(input.key);
    let size: number;
    let sha256: string;
    try {
      // Joined on a worker (4 MiB reads and writes, fsync), so the event loop stays free for other requests. The
      // worker hashes each block from the buffer it writes: `sha256` is that of the file's bytes, which the link
      // below puts in place unchanged (the same inode; nothing writes a stored object again).
      ({ size, sha256 } = await hashPool.concat(
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
        // the upload folder was removed). The same bytes: finish its work, answering the digest read from the
        // stored object itself; other bytes: refuse.
        const theirs = await hashPool.file(target, 'sha256');
        if (theirs.hex !== sha256 || theirs.size !== size) throw new BlobObjectExistsError(input.key, { cause: err });
        sha256 = theirs.hex;
      }
    } finally {
      await fs.rm(tmp, { force: true });
    }
    const head: ObjectMeta = { etag, size, ...(meta.contentType ? { contentType: meta.contentType } : {}) };
    await this.layout.writeMeta(input.key, head);
    await removeUploadDir(this.layout, input.uploadId);
    return { ...head, sha256 };
  }

  async abort(input: { key: string; uploadId: string }): Promise<void> {
    try {
      await this.readUpload(input.key, input.uploadId);
    } catch (err) {
      if (err instanceof BlobStoreError && err.code === 'NO_SUCH_UPLOAD') return;
      throw err;
    }
    await removeUploadDir(this.layout, input.uploadId);
  }
}

/** Moves the upload folder aside in one rename (a part arriving later finds no upload), then deletes it. */
export async function removeUploadDir(layout: LocalLayout, uploadId: string): Promise<void> {
  const trash = path.join(layout.multipartDir, `.trash-${uploadId}-${randomUUID()}`);
  try {
    await fs.rename(layout.uploadDir(uploadId), trash);
  } catch (err) {
    if (isCode(err, 'ENOENT')) return;
    throw err;
  }
  await fs.rm(trash, { recursive: true, force: true });
}
