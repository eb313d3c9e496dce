/**
 * One contract suite for every BlobStore adapter:
 * - local: LocalBlobStore with localStoreRoutes mounted on a real Fastify listening on 127.0.0.1, so presigned URLs
 *   go over real HTTP;
 * - s3 (s3rver): S3BlobStore against s3rver on loopback (test/s3-server.ts);
 * - s3 (real): only when S3_ENDPOINT, S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set (CI with MinIO or
 *   AWS). The list of adapters is built conditionally, so nothing is reported as skipped when they are absent.
 * Capabilities differ (s3rver: no ListParts, no abort, no signature checks); each case states what it expects, and
 * both branches assert.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server } from '../../../test/s3-server.js';
import {
  BlobInvalidKeyError,
  BlobInvalidPartError,
  BlobNotFoundError,
  BlobNotSupportedError,
  BlobObjectExistsError,
  BlobUploadNotFoundError,
  MIN_PART_SIZE,
} from './blob-store.js';
import type { BlobStore } from './blob-store.js';
import { LocalBlobStore, SIGNING_KEY_FILE } from './local-store.js';
import { localStoreRoutes } from './local-store.routes.js';
import { S3BlobStore } from './s3-store.js';

const MiB = 1024 * 1024;
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

type Harness = {
  store: BlobStore;
  /** The same backend with another clock: signs URLs that are already expired, dates uploads in the past. */
  withClock(now: () => Date): BlobStore;
  /** A store of the same kind that cannot be reached (for ping). */
  broken(): BlobStore;
  /** A fresh server-style key; tracked so the real-S3 run can clean up. */
  newKey(): string;
  close(): Promise<void>;
  /** Local only. */
  local?: { dataDir: string; store: LocalBlobStore };
};

type AdapterCase = {
  name: string;
  start(): Promise<Harness>;
  /** ListParts works (else BlobNotSupportedError). */
  listParts: boolean;
  /** AbortMultipartUpload works (else BlobNotSupportedError). */
  abort: boolean;
  /** Signatures are checked: tampered URL, other key, other method, other length answer 403. */
  verifiesSignatures: boolean;
  /** Completion checks part ETags and the 5 MiB minimum, and the ETag is S3-style "<md5 of md5s>-<n>". */
  s3Multipart: boolean;
  /** cleanupIncompleteMultipart removes old uploads itself (else 0: the bucket lifecycle rule does it). */
  cleansUp: boolean;
  /** A presigned PUT cannot overwrite an existing object (412). s3rver ignores If-None-Match. */
  writeOnce: boolean;
  /** Listing follows the bytes of whole keys across folders, as S3 does (s3rver walks its folders instead). */
  listsInByteOrder: boolean;
  /** A listing cut short by its limit answers (s3rver fails: it makes its continuation token with DES, which OpenSSL 3 lacks). */
  truncatesListings: boolean;
};

const tempDirs: string[] = [];
async function tempDir(prefix: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(tempDirs.map((d) => fs.rm(d, { recursive: true, force: true })));
});

function trackedKeys(prefix: string) {
  const keys: string[] = [];
  return {
    keys,
    newKey: () => {
      const key = `${prefix}/${randomUUID()}/${randomUUID()}`;
      keys.push(key);
      return key;
    },
  };
}

const localCase: AdapterCase = {
  name: 'local',
  listParts: true,
  abort: true,
  verifiesSignatures: true,
  s3Multipart: true,
  cleansUp: true,
  writeOnce: true,
  listsInByteOrder: true,
  truncatesListings: true,
  async start() {
    const dataDir = await tempDir('strongroom-local-store-');
    // The instance behind the routes verifies; the one the test uses signs with the real URL. Both read the
    // signing key from DATA_DIR/keys, as two app instances sharing DATA_DIR would.
    const routesStore = new LocalBlobStore({ dataDir, appUrl: 'http://127.0.0.1' });
    const app: FastifyInstance = Fastify({ logger: false });
    await app.register(localStoreRoutes, { prefix: '/_objects', store: routesStore });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const appUrl = `http://127.0.0.1:${address.port}`;
    const store = new LocalBlobStore({ dataDir, appUrl });
    const { newKey } = trackedKeys('org');
    // DATA_DIR that is a plain file: nothing can be written under it.
    const notADir = path.join(await tempDir('strongroom-local-broken-'), 'file');
    await fs.writeFile(notADir, 'x');
    return {
      store,
      withClock: (now) => new LocalBlobStore({ dataDir, appUrl, now }),
      broken: () => new LocalBlobStore({ dataDir: notADir, appUrl }),
      newKey,
      close: () => app.close(),
      local: { dataDir, store },
    };
  },
};

const s3rverCase: AdapterCase = {
  name: 's3 (s3rver)',
  listParts: false,
  abort: false,
  verifiesSignatures: false,
  s3Multipart: false,
  cleansUp: false,
  writeOnce: false,
  listsInByteOrder: false,
  truncatesListings: false,
  async start() {
    const server = await startS3Server();
    const options = {
      endpoint: server.endpoint,
      region: server.region,
      bucket: server.bucket,
      accessKeyId: server.accessKeyId,
      secretAccessKey: server.secretAccessKey,
      forcePathStyle: true,
    };
    const created: S3BlobStore[] = [];
    const make = (extra: Partial<typeof options> & { now?: () => Date } = {}) => {
      const s = new S3BlobStore({ ...options, ...extra });
      created.push(s);
      return s;
    };
    const { newKey } = trackedKeys('org');
    return {
      store: make(),
      withClock: (now) => make({ now }),
      broken: () => make({ bucket: `missing-${randomBytes(4).toString('hex')}` }),
      newKey,
      close: async () => {
        for (const s of created) s.destroy();
        await server.close();
      },
    };
  },
};

const env = process.env;
const realS3 = env.S3_ENDPOINT && env.S3_BUCKET && env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY;
const realS3Case: AdapterCase = {
  name: 's3 (S3_ENDPOINT)',
  listParts: true,
  abort: true,
  verifiesSignatures: true,
  s3Multipart: true,
  cleansUp: false,
  writeOnce: true,
  listsInByteOrder: true,
  truncatesListings: true,
  async start() {
    const options = {
      endpoint: env.S3_ENDPOINT,
      region: env.S3_REGION ?? 'us-east-1',
      bucket: env.S3_BUCKET ?? '',
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: (env.S3_FORCE_PATH_STYLE ?? 'true') !== 'false',
    };
    const created: S3BlobStore[] = [];
    const make = (extra: { now?: () => Date; bucket?: string } = {}) => {
      const s = new S3BlobStore({ ...options, ...extra });
      created.push(s);
      return s;
    };
    const store = make();
    const { keys, newKey } = trackedKeys(`strongroom-test-${randomUUID()}`);
    return {
      store,
      withClock: (now) => make({ now }),
      broken: () => make({ bucket: `strongroom-missing-${randomBytes(6).toString('hex')}` }),
      newKey,
      close: async () => {
        await Promise.all(keys.map((k) => store.delete(k).catch(() => undefined)));
        for (const s of created) s.destroy();
      },
    };
  },
};

const adapters: AdapterCase[] = realS3 ? [localCase, s3rverCase, realS3Case] : [localCase, s3rverCase];

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function put(url: string, body: Buffer, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'PUT', body: new Uint8Array(body), headers });
}

describe.each(adapters)('BlobStore contract: $name', (adapter) => {
  let h: Harness;
  beforeAll(async () => {
    h = await adapter.start();
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  async function putObject(key: string, body: Buffer, contentType = 'application/octet-stream') {
    const signed = await h.store.presignPut({ key, contentLength: body.length, contentType, expiresInSeconds: 300 });
    const res = await put(signed.url, body, signed.headers);
    expect(res.status, await res.clone().text()).toBe(200);
    return res;
  }

  async function uploadPart(key: string, uploadId: string, partNumber: number, body: Buffer): Promise<string> {
    const signed = await h.store.presignPart({ key, uploadId, partNumber, contentLength: body.length, expiresInSeconds: 300 });
    const res = await put(signed.url, body, signed.headers);
    expect(res.status, await res.clone().text()).toBe(200);
    const etag = res.headers.get('etag');
    expect(etag).toBe(`"${md5(body)}"`);
    return etag ?? '';
  }

  it('presigned PUT stores the bytes (any content type, over 1 MB): head, getStream and sha256 agree', async () => {
    const key = h.newKey();
    const body = randomBytes(2 * MiB + 123);
    const signed = await h.store.presignPut({ key, contentLength: body.length, contentType: 'application/json', expiresInSeconds: 300 });
    expect(signed.method).toBe('PUT');
    expect(signed.headers['Content-Type']).toBe('application/json');
    expect(signed.expiresAt.getTime()).toBeGreaterThan(Date.now() + 200_000);
    expect(signed.expiresAt.getTime()).toBeLessThanOrEqual(Date.now() + 301_000);
    const res = await put(signed.url, body, signed.headers);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(res.headers.get('etag')).toBe(`"${md5(body)}"`);

    const head = await h.store.head(key);
    expect(head).toMatchObject({ size: body.length, etag: `"${md5(body)}"`, contentType: 'application/json' });
    expect((await collect(await h.store.getStream(key))).equals(body)).toBe(true);
    expect(await h.store.sha256(key)).toBe(sha256(body));
  });

  it('putObject stores bytes the caller holds (a restore): write-once where the store enforces it, never a vault key', async () => {
    const key = h.newKey();
    const body = randomBytes(300_000);
    const head = await h.store.putObject(key, Readable.from([body.subarray(0, 1000), body.subarray(1000)]), {
      length: body.length,
      contentType: 'application/pdf',
    });
    expect(head).toMatchObject({ size: body.length, etag: `"${md5(body)}"` });
    expect(await h.store.head(key)).toMatchObject({ size: body.length, contentType: 'application/pdf' });
    expect(await h.store.sha256(key)).toBe(sha256(body));
    if (adapter.writeOnce) {
      await expect(h.store.putObject(key, Readable.from([Buffer.from('other')]), { length: 5 })).rejects.toThrow();
      expect(await h.store.sha256(key)).toBe(sha256(body));
    }
    await expect(h.store.putObject(`vault/${randomUUID()}/x`, Readable.from([Buffer.from('v')]), { length: 1 })).rejects.toThrow();
  });

  it('getStream reads a byte range', async () => {
    const key = h.newKey();
    const body = randomBytes(4096);
    await putObject(key, body);
    expect((await collect(await h.store.getStream(key, { start: 10, end: 19 }))).equals(body.subarray(10, 20))).toBe(true);
    expect((await collect(await h.store.getStream(key, { start: 4090 }))).equals(body.subarray(4090))).toBe(true);
  });

  it('presigned GET downloads the bytes with Content-Disposition attachment and the RFC 5987 file name', async () => {
    const key = h.newKey();
    const body = randomBytes(10_000);
    await putObject(key, body);
    const fileName = 'Schriftsatz – Müller "final".pdf';
    const signed = await h.store.presignGet({ key, fileName, contentType: 'application/pdf', expiresInSeconds: 120 });
    expect(signed.method).toBe('GET');
    const res = await fetch(signed.url);
    expect(res.status).toBe(200);
    const disposition = res.headers.get('content-disposition') ?? '';
    expect(disposition).toMatch(/^attachment;/);
    expect(disposition).toContain(`filename*=UTF-8''Schriftsatz%20%E2%80%93%20M%C3%BCller%20%22final%22.pdf`);
    expect(disposition).toContain('filename="Schriftsatz _ M_ller _final_.pdf"');
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true);
  });

  it('presigned GET for a preview answers inline with the type asked for (S3: response overrides)', async () => {
    const key = h.newKey();
    const body = Buffer.from('<html><script>alert(1)</script></html>');
    await putObject(key, body);
    const signed = await h.store.presignGet({
      key,
      fileName: 'notes.txt',
      contentType: 'text/plain; charset=utf-8',
      disposition: 'inline',
      expiresInSeconds: 60,
    });
    const res = await fetch(signed.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`inline; filename="notes.txt"; filename*=UTF-8''notes.txt`);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(Buffer.from(await res.arrayBuffer()).equals(body)).toBe(true);
  });

  it('multipart upload of 5 MiB + 5 MiB + 1 KiB (parts in parallel) completes; the whole-file sha256 matches', async () => {
    const key = h.newKey();
    const parts = [randomBytes(5 * MiB), randomBytes(5 * MiB), randomBytes(1024)];
    const whole = Buffer.concat(parts);
    const { uploadId } = await h.store.createMultipart({ key, contentType: 'application/pdf' });
    expect(uploadId).toMatch(/\S+/);
    const etags = await Promise.all(parts.map((p, i) => uploadPart(key, uploadId, i + 1, p)));
    const done = await h.store.completeMultipart({
      key,
      uploadId,
      parts: etags.map((etag, i) => ({ partNumber: i + 1, etag })),
    });
    expect(done.size).toBe(whole.length);
    if (adapter.s3Multipart) {
      const expected = createHash('md5')
        .update(Buffer.concat(parts.map((p) => createHash('md5').update(p).digest())))
        .digest('hex');
      expect(done.etag).toBe(`"${expected}-3"`);
    } else {
      expect(done.etag).toMatch(/^"[0-9a-f]{32}(-\d+)?"$/);
    }
    const head = await h.store.head(key);
    expect(head).toMatchObject({ size: whole.length, etag: done.etag });
    const stored = await collect(await h.store.getStream(key));
    expect(stored.equals(whole)).toBe(true);
    expect(await h.store.sha256(key)).toBe(sha256(stored));
    // The local store hashes the bytes as it joins them; S3 assembles on its side and answers no digest.
    expect(done.sha256).toBe(h.local ? sha256(stored) : undefined);
  }, 60_000);

  it(
    adapter.listParts ? 'listParts after 2 of 3 parts names them with ETag and size' : 'listParts throws BlobNotSupportedError',
    async () => {
      const key = h.newKey();
      const parts = [randomBytes(5 * MiB), randomBytes(5 * MiB)];
      const { uploadId } = await h.store.createMultipart({ key });
      const etags = await Promise.all(parts.map((p, i) => uploadPart(key, uploadId, i + 1, p)));
      if (adapter.listParts) {
        expect(await h.store.listParts({ key, uploadId })).toEqual([
          { partNumber: 1, etag: etags[0], size: 5 * MiB },
          { partNumber: 2, etag: etags[1], size: 5 * MiB },
        ]);
        // A part uploaded again replaces the stored one.
        const again = randomBytes(MIN_PART_SIZE + 1);
        const etag2 = await uploadPart(key, uploadId, 2, again);
        expect((await h.store.listParts({ key, uploadId }))[1]).toEqual({ partNumber: 2, etag: etag2, size: again.length });
        await h.store.abortMultipart({ key, uploadId });
      } else {
        await expect(h.store.listParts({ key, uploadId })).rejects.toBeInstanceOf(BlobNotSupportedError);
      }
    },
    60_000,
  );

  it(adapter.abort ? 'abortMultipart removes the upload and its parts' : 'abortMultipart throws BlobNotSupportedError', async () => {
    const key = h.newKey();
    const { uploadId } = await h.store.createMultipart({ key });
    const part = randomBytes(1024);
    const etag = await uploadPart(key, uploadId, 1, part);
    if (adapter.abort) {
      await h.store.abortMultipart({ key, uploadId });
      await expect(h.store.listParts({ key, uploadId })).rejects.toBeInstanceOf(BlobUploadNotFoundError);
      await expect(h.store.completeMultipart({ key, uploadId, parts: [{ partNumber: 1, etag }] })).rejects.toBeInstanceOf(
        BlobUploadNotFoundError,
      );
      const late = await h.store.presignPart({ key, uploadId, partNumber: 2, contentLength: part.length, expiresInSeconds: 60 });
      expect((await put(late.url, part)).status).toBe(404);
      // Aborting again is not an error.
      await expect(h.store.abortMultipart({ key, uploadId })).resolves.toBeUndefined();
      expect(await h.store.head(key)).toBeNull();
      if (h.local) {
        await expect(fs.stat(path.join(h.local.store.multipartDir, uploadId))).rejects.toMatchObject({ code: 'ENOENT' });
      }
    } else {
      await expect(h.store.abortMultipart({ key, uploadId })).rejects.toBeInstanceOf(BlobNotSupportedError);
    }
  });

  if (adapter.s3Multipart) {
    it('completeMultipart refuses a wrong ETag and a small part that is not the last', async () => {
      const key = h.newKey();
      const { uploadId } = await h.store.createMultipart({ key });
      const small = randomBytes(1024);
      const e1 = await uploadPart(key, uploadId, 1, small);
      const e2 = await uploadPart(key, uploadId, 2, small);
      await expect(
        h.store.completeMultipart({ key, uploadId, parts: [{ partNumber: 1, etag: `"${'0'.repeat(32)}"` }] }),
      ).rejects.toBeInstanceOf(BlobInvalidPartError);
      await expect(
        h.store.completeMultipart({
          key,
          uploadId,
          parts: [
            { partNumber: 1, etag: e1 },
            { partNumber: 2, etag: e2 },
          ],
        }),
      ).rejects.toBeInstanceOf(BlobInvalidPartError);
      expect(await h.store.head(key)).toBeNull();
      await h.store.abortMultipart({ key, uploadId });
    });
  }

  it('an expired URL answers 403 (PUT and GET)', async () => {
    const key = h.newKey();
    const body = randomBytes(100);
    const past = h.withClock(() => new Date(Date.now() - 20 * MINUTE));
    const expiredPut = await past.presignPut({ key, contentLength: body.length, expiresInSeconds: 60 });
    expect(expiredPut.expiresAt.getTime()).toBeLessThan(Date.now());
    expect((await put(expiredPut.url, body, expiredPut.headers)).status).toBe(403);
    expect(await h.store.head(key)).toBeNull();

    await putObject(key, body);
    const expiredGet = await past.presignGet({ key, fileName: 'a.bin', expiresInSeconds: 60 });
    expect((await fetch(expiredGet.url)).status).toBe(403);
    const freshGet = await h.store.presignGet({ key, fileName: 'a.bin', expiresInSeconds: 60 });
    expect((await fetch(freshGet.url)).status).toBe(200);
  });

  it('presigning refuses expiries beyond 15 minutes', async () => {
    await expect(h.store.presignPut({ key: h.newKey(), contentLength: 1, expiresInSeconds: 901 })).rejects.toThrow(/expiresInSeconds/);
    await expect(h.store.presignGet({ key: h.newKey(), fileName: 'x', expiresInSeconds: 0 })).rejects.toThrow(/expiresInSeconds/);
  });

  if (adapter.verifiesSignatures) {
    it('a tampered signature, another key, another method or another length answers 403', async () => {
      const key = h.newKey();
      const other = h.newKey();
      const body = randomBytes(1024);
      const signed = await h.store.presignPut({ key, contentLength: body.length, expiresInSeconds: 300 });
      const url = new URL(signed.url);
      const sigParam = url.searchParams.has('sig') ? 'sig' : 'X-Amz-Signature';
      const sig = url.searchParams.get(sigParam) ?? '';
      const tampered = new URL(url);
      tampered.searchParams.set(sigParam, (sig[0] === 'a' ? 'b' : 'a') + sig.slice(1));
      expect((await put(tampered.toString(), body, signed.headers)).status).toBe(403);

      const otherKey = signed.url.replace(key, other);
      expect(otherKey).not.toBe(signed.url);
      expect((await put(otherKey, body, signed.headers)).status).toBe(403);
      expect(await h.store.head(other)).toBeNull();

      expect((await put(signed.url, randomBytes(2048), signed.headers)).status).toBe(403);
      expect((await put(signed.url, randomBytes(512), signed.headers)).status).toBe(403);
      expect(await h.store.head(key)).toBeNull();

      expect((await put(signed.url, body, signed.headers)).status).toBe(200);
      expect((await fetch(signed.url)).status).toBe(403); // a PUT URL does not GET
      const get = await h.store.presignGet({ key, fileName: 'x.bin', expiresInSeconds: 60 });
      expect((await put(get.url, randomBytes(1024))).status).toBe(403); // a GET URL does not PUT
      expect(await h.store.sha256(key)).toBe(sha256(body));
    });
  }

  if (adapter.writeOnce) {
    it('a presigned PUT replayed after the upload cannot replace the stored bytes (412)', async () => {
      const key = h.newKey();
      const body = randomBytes(1000);
      const signed = await h.store.presignPut({ key, contentLength: body.length, expiresInSeconds: 300 });
      expect((await put(signed.url, body, signed.headers)).status).toBe(200);
      expect((await put(signed.url, randomBytes(1000), signed.headers)).status).toBe(412);
      expect(await h.store.sha256(key)).toBe(sha256(body));
    });
  }

  it('delete removes the object; deleting again is fine', async () => {
    const key = h.newKey();
    await putObject(key, randomBytes(300));
    expect(await h.store.head(key)).not.toBeNull();
    await h.store.delete(key);
    expect(await h.store.head(key)).toBeNull();
    await expect(h.store.getStream(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(h.store.sha256(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(h.store.delete(key)).resolves.toBeUndefined();
  });

  it("keys with '..', absolute paths and other odd shapes are refused", async () => {
    const bad = ['../escape', 'org/../../etc/passwd', '/etc/passwd', 'org/./x', 'org//x', 'org/x/', '', 'org/.multipart/x', 'org/x y'];
    for (const key of bad) {
      await expect(h.store.presignPut({ key, contentLength: 1, expiresInSeconds: 60 }), key).rejects.toBeInstanceOf(BlobInvalidKeyError);
      await expect(h.store.head(key), key).rejects.toBeInstanceOf(BlobInvalidKeyError);
      await expect(h.store.delete(key), key).rejects.toBeInstanceOf(BlobInvalidKeyError);
      await expect(h.store.createMultipart({ key }), key).rejects.toBeInstanceOf(BlobInvalidKeyError);
      await expect(h.store.presignGet({ key, fileName: 'x', expiresInSeconds: 60 }), key).rejects.toBeInstanceOf(BlobInvalidKeyError);
    }
  });

  it(
    adapter.cleansUp
      ? 'cleanupIncompleteMultipart removes uploads begun before the cutoff'
      : 'cleanupIncompleteMultipart leaves it to the lifecycle rule (0)',
    async () => {
      const oldKey = h.newKey();
      const newKey = h.newKey();
      const old = await h.withClock(() => new Date(Date.now() - 8 * DAY)).createMultipart({ key: oldKey });
      await uploadPart(oldKey, old.uploadId, 1, randomBytes(2048));
      const fresh = await h.store.createMultipart({ key: newKey });
      const removed = await h.store.cleanupIncompleteMultipart(new Date(Date.now() - 7 * DAY));
      if (adapter.cleansUp) {
        expect(removed).toBe(1);
        await expect(h.store.listParts({ key: oldKey, uploadId: old.uploadId })).rejects.toBeInstanceOf(BlobUploadNotFoundError);
        expect(await h.store.listParts({ key: newKey, uploadId: fresh.uploadId })).toEqual([]);
        if (h.local) {
          const left = await fs.readdir(h.local.store.multipartDir);
          expect(left).not.toContain(old.uploadId);
          expect(left).toContain(fresh.uploadId);
        }
      } else {
        expect(removed).toBe(0);
      }
      if (adapter.abort) {
        await h.store.abortMultipart({ key: oldKey, uploadId: old.uploadId });
        await h.store.abortMultipart({ key: newKey, uploadId: fresh.uploadId });
      }
    },
  );

  it('listKeys answers the keys under a prefix in byte order, after startAfter, a limited page at a time', async () => {
    const base = `org/${randomUUID()}`;
    const names = ['0002-b.json', '0001-a.json', '0010-c.json', 'sub/k'];
    for (const name of names) await putObject(`${base}/${name}`, Buffer.from(name));
    // A neighbour whose key begins like the prefix without its slash.
    await putObject(`${base}-next/k`, Buffer.from('next'));
    const inOrder = ['0001-a.json', '0002-b.json', '0010-c.json', 'sub/k'].map((n) => `${base}/${n}`);
    expect(await h.store.listKeys(`${base}/`)).toEqual(inOrder);
    // A prefix that stops inside a name.
    expect(await h.store.listKeys(`${base}/00`)).toEqual(inOrder.slice(0, 3));
    expect(await h.store.listKeys(`${base}/000`)).toEqual(inOrder.slice(0, 2));
    expect(await h.store.listKeys(`${base}/sub`)).toEqual(inOrder.slice(3));
    expect((await h.store.listKeys(base)).sort()).toEqual([`${base}-next/k`, ...inOrder]);
    // Pages: startAfter is any text, a key or not; the last page is short, then empty.
    if (adapter.truncatesListings) expect(await h.store.listKeys(`${base}/`, { limit: 2 })).toEqual(inOrder.slice(0, 2));
    expect(await h.store.listKeys(`${base}/`, { startAfter: inOrder[1], limit: 2 })).toEqual(inOrder.slice(2, 4));
    expect(await h.store.listKeys(`${base}/`, { startAfter: `${base}/0003` })).toEqual(inOrder.slice(2));
    expect(await h.store.listKeys(`${base}/`, { startAfter: inOrder[3] })).toEqual([]);
    expect(await h.store.listKeys(`org/${randomUUID()}/`)).toEqual([]);
    await expect(h.store.listKeys(`${base}/`, { limit: 0 })).rejects.toThrow(/limit/);
    await expect(h.store.listKeys('/etc')).rejects.toThrow(/prefix/);
    if (adapter.listsInByteOrder) {
      // '-' sorts before '/': a key beside a folder of the same stem comes before the folder's keys.
      expect(await h.store.listKeys(base)).toEqual([`${base}-next/k`, ...inOrder]);
      await putObject(`${base}/sub-2`, Buffer.from('sub-2'));
      expect(await h.store.listKeys(`${base}/sub`)).toEqual([`${base}/sub-2`, `${base}/sub/k`]);
      expect(await h.store.listKeys(`${base}/`, { startAfter: `${base}/sub-2` })).toEqual([`${base}/sub/k`]);
    }
  });

  it('ping answers when the store is reachable and throws when it is not', async () => {
    await expect(h.store.ping()).resolves.toBeUndefined();
    await expect(h.broken().ping()).rejects.toThrow();
  });

  if (adapter.name === 'local') {
    describe('local store only', () => {
      it('keeps its signing key in DATA_DIR/keys/storage-signing.key with mode 0600', async () => {
        const local = h.local!;
        const stat = await fs.stat(path.join(local.dataDir, SIGNING_KEY_FILE));
        expect(stat.mode & 0o777).toBe(0o600);
        // Another instance with a configured key signs differently: its URLs are refused here.
        const foreign = new LocalBlobStore({
          dataDir: local.dataDir,
          appUrl: new URL(await firstUrl()).origin,
          signingKey: 'x'.repeat(40),
        });
        const key = h.newKey();
        const signed = await foreign.presignPut({ key, contentLength: 3, expiresInSeconds: 60 });
        expect((await put(signed.url, Buffer.from('abc'))).status).toBe(403);
      });

      async function firstUrl(): Promise<string> {
        return (await h.store.presignPut({ key: h.newKey(), contentLength: 1, expiresInSeconds: 60 })).url;
      }

      it('refuses a path-traversal URL and writes nothing outside DATA_DIR/objects', async () => {
        const good = await h.store.presignPut({ key: h.newKey(), contentLength: 3, expiresInSeconds: 60 });
        const url = new URL(good.url);
        const evil = `${url.origin}/_objects/%2e%2e/%2e%2e/escape${url.search}`;
        const res = await put(evil, Buffer.from('abc'));
        expect([403, 404]).toContain(res.status);
        await expect(fs.stat(path.join(h.local!.dataDir, 'escape'))).rejects.toMatchObject({ code: 'ENOENT' });
        await expect(fs.stat(path.join(path.dirname(h.local!.dataDir), 'escape'))).rejects.toMatchObject({ code: 'ENOENT' });
      });

      it('a part for an unknown upload answers 404; a part URL with another partNumber answers 403', async () => {
        const key = h.newKey();
        const body = randomBytes(100);
        const unknown = await h.store.presignPart({
          key,
          uploadId: 'f'.repeat(32),
          partNumber: 1,
          contentLength: 100,
          expiresInSeconds: 60,
        });
        expect((await put(unknown.url, body)).status).toBe(404);
        const { uploadId } = await h.store.createMultipart({ key });
        const signed = await h.store.presignPart({ key, uploadId, partNumber: 1, contentLength: 100, expiresInSeconds: 60 });
        const moved = new URL(signed.url);
        moved.searchParams.set('partNumber', '2');
        expect((await put(moved.toString(), body)).status).toBe(403);
        expect(await h.store.listParts({ key, uploadId })).toEqual([]);
        await h.store.abortMultipart({ key, uploadId });
      });

      it('a GET with Range answers 206 with the slice', async () => {
        const key = h.newKey();
        const body = randomBytes(1000);
        await putObject(key, body);
        const signed = await h.store.presignGet({ key, fileName: 'r.bin', expiresInSeconds: 60 });
        const res = await fetch(signed.url, { headers: { Range: 'bytes=100-199' } });
        expect(res.status).toBe(206);
        expect(res.headers.get('content-range')).toBe('bytes 100-199/1000');
        expect(Buffer.from(await res.arrayBuffer()).equals(body.subarray(100, 200))).toBe(true);
        const beyond = await fetch(signed.url, { headers: { Range: 'bytes=5000-' } });
        expect(beyond.status).toBe(416);
      });

      it('an assembly retried over an object already stored answers that object and its digest; other bytes are refused', async () => {
        const local = h.local!;
        const parts = [randomBytes(5 * MiB), randomBytes(MiB + 3)];
        const whole = Buffer.concat(parts);
        const upload = async (key: string) => {
          const { uploadId } = await h.store.createMultipart({ key });
          const etags = await Promise.all(parts.map((p, i) => uploadPart(key, uploadId, i + 1, p)));
          return { key, uploadId, parts: etags.map((etag, i) => ({ partNumber: i + 1, etag })), partSize: 5 * MiB };
        };
        // An earlier assembly that linked the object and stopped before anything else (a crash).
        const same = await upload(h.newKey());
        await fs.mkdir(path.dirname(local.store.objectPath(same.key)), { recursive: true });
        await fs.writeFile(local.store.objectPath(same.key), whole);
        const done = await h.store.completeMultipart(same);
        expect(done).toMatchObject({ size: whole.length, sha256: sha256(whole) });
        expect((await collect(await h.store.getStream(same.key))).equals(whole)).toBe(true);

        const other = await upload(h.newKey());
        const otherBytes = Buffer.from(whole);
        otherBytes[7] = otherBytes[7]! ^ 1;
        await fs.mkdir(path.dirname(local.store.objectPath(other.key)), { recursive: true });
        await fs.writeFile(local.store.objectPath(other.key), otherBytes);
        await expect(h.store.completeMultipart(other)).rejects.toBeInstanceOf(BlobObjectExistsError);
        expect((await collect(await h.store.getStream(other.key))).equals(otherBytes)).toBe(true);
        expect(await h.store.sha256(other.key)).toBe(sha256(otherBytes));
      }, 60_000);

      it('a dropped upload leaves neither an object nor a temp file', async () => {
        const local = h.local!;
        const key = h.newKey();
        const signed = await h.store.presignPut({ key, contentLength: 4 * MiB, expiresInSeconds: 60 });
        const before = new Set(await fs.readdir(local.store.tmpDir).catch(() => [] as string[]));
        await new Promise<void>((resolve) => {
          const req = http.request(signed.url, { method: 'PUT', headers: { 'content-length': String(4 * MiB) } });
          req.on('error', () => resolve());
          req.write(randomBytes(MiB), () => {
            // Give the server the first MiB, then cut the connection.
            setTimeout(() => req.destroy(), 100);
          });
        });
        let leftover: string[] = [];
        for (let tries = 0; tries < 200; tries++) {
          leftover = (await fs.readdir(local.store.tmpDir)).filter((n) => !before.has(n));
          if (leftover.length === 0) break;
          await new Promise((r) => setTimeout(r, 20));
        }
        expect(leftover).toEqual([]);
        expect(await h.store.head(key)).toBeNull();
      });

      it('a 50 MiB single PUT is streamed to disk while it arrives (not buffered) and hashes right', async () => {
        const local = h.local!;
        const key = h.newKey();
        const total = 50 * MiB;
        const chunk = randomBytes(MiB);
        const signed = await h.store.presignPut({ key, contentLength: total, expiresInSeconds: 300 });
        const hash = createHash('sha256');
        const before = new Set(await fs.readdir(local.store.tmpDir).catch(() => [] as string[]));

        const response = new Promise<number>((resolve, reject) => {
          const req = http.request(signed.url, {
            method: 'PUT',
            headers: { 'content-length': String(total), 'content-type': 'video/mp4' },
          });
          req.on('response', (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          });
          req.on('error', reject);
          const write = (i: number): Promise<void> =>
            new Promise((ok) => {
              const piece = Buffer.from(chunk);
              piece.writeUInt32BE(i, 0);
              hash.update(piece);
              if (req.write(piece)) ok();
              else req.once('drain', () => ok());
            });
          void (async () => {
            for (let i = 0; i < 30; i++) await write(i);
            // Hold back the last 20 MiB until the server has put at least 20 MiB on disk. A server that buffered
            // the body would write nothing yet, and this wait would never end.
            let seen = 0;
            for (let tries = 0; tries < 1000 && seen < 20 * MiB; tries++) {
              await new Promise((r) => setTimeout(r, 20));
              for (const name of await fs.readdir(local.store.tmpDir).catch(() => [] as string[])) {
                if (before.has(name)) continue;
                const st = await fs.stat(path.join(local.store.tmpDir, name)).catch(() => null);
                if (st) seen = Math.max(seen, st.size);
              }
            }
            if (seen < 20 * MiB) {
              req.destroy();
              reject(new Error(`only ${seen} bytes on disk after 30 MiB were sent: the body is not streamed`));
              return;
            }
            for (let i = 30; i < 50; i++) await write(i);
            req.end();
          })();
        });
        expect(await response).toBe(200);
        const digest = hash.digest('hex');
        expect(await h.store.head(key)).toMatchObject({ size: total });
        expect(await h.store.sha256(key)).toBe(digest);
        const after = (await fs.readdir(local.store.tmpDir)).filter((n) => !before.has(n));
        expect(after).toEqual([]);
      }, 60_000);
    });
  }
});
