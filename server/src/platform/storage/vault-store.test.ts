/**
 * Write-once vault storage in both stores.
 * - Local store: the store itself enforces the lock, so every path that could remove or replace a vault object is
 *   tried (delete, presigned PUT over HTTP, parts and multipart completion onto the key, copy and putLocked over
 *   it, the lock records reached through keys, path tricks, records removed behind the store's back), as well as
 *   idempotent and concurrent copies, read-only files, verification of the written bytes, and a kill -9 during
 *   a copy.
 * - S3 adapter against s3rver (no Object Lock there): the copy, its sizes and bytes, the copy by parts with a
 *   lowered threshold, idempotency, the write-once status it reports and /readyz with it.
 * - S3 Object Lock calls against a real S3 only when S3_LOCK_TEST_ENDPOINT, S3_LOCK_TEST_BUCKET,
 *   S3_LOCK_TEST_ACCESS_KEY_ID and S3_LOCK_TEST_SECRET_ACCESS_KEY are set (a bucket made with Object Lock, used
 *   for nothing else: its objects stay until their retention ends). Otherwise that suite is not in the list, and
 *   a line says it was not run.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import {
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectLockConfigurationCommand,
  HeadObjectCommand,
  PutObjectCommand,
  PutObjectLegalHoldCommand,
  PutObjectRetentionCommand,
  RestoreObjectCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../../test/helpers.js';
import { startS3Server, type TestS3Server } from '../../../test/s3-server.js';
import {
  BlobInvalidArgumentError,
  BlobInvalidKeyError,
  BlobLockedError,
  BlobNotFoundError,
  BlobObjectExistsError,
  MIN_PART_SIZE,
  type VaultLock,
} from './blob-store.js';
import { hashPool } from './hash-pool.js';
import { LocalBlobStore } from './local-store.js';
import { localStoreRoutes } from './local-store.routes.js';
import { UrlSigner } from './local/signing.js';
import { restoreState, S3BlobStore } from './s3-store.js';

const MiB = 1024 * 1024;
const DAY = 24 * 60 * 60 * 1000;
const SIGNING_KEY = 'k'.repeat(40);
const here = path.dirname(fileURLToPath(import.meta.url));

const tempDirs: string[] = [];
async function tempDir(prefix: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}
afterAll(async () => {
  // Vault files are read-only; their folders are not, so they can be removed.
  await Promise.all(tempDirs.map((d) => fs.rm(d, { recursive: true, force: true })));
});

const md5 = (b: Buffer) => `"${createHash('md5').update(b).digest('hex')}"`;
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const vaultKey = () => `vault/${randomUUID()}/${randomUUID()}/${randomUUID()}`;
const orgKey = () => `org/${randomUUID()}/${randomUUID()}`;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

describe('local store: vault objects', () => {
  let dataDir: string;
  let now: Date;
  let store: LocalBlobStore;
  let app: FastifyInstance;
  let signer: UrlSigner;
  const lock = (days = 30, legalHold = true): VaultLock => ({
    mode: 'COMPLIANCE',
    retainUntil: new Date(now.getTime() + days * DAY),
    legalHold,
  });

  beforeAll(async () => {
    dataDir = await tempDir('strongroom-vault-local-');
    now = new Date('2026-11-28T10:00:00Z');
    store = new LocalBlobStore({ dataDir, appUrl: 'http://127.0.0.1', signingKey: SIGNING_KEY, now: () => now });
    // URLs signed as an older release (or a bug) might have signed them: valid signatures for vault keys.
    signer = new UrlSigner({ dataDir, baseUrl: 'http://127.0.0.1/_objects', signingKey: SIGNING_KEY, now: () => now });
    app = Fastify({ logger: false });
    await app.register(localStoreRoutes, { prefix: '/_objects', store });
    await app.ready();
  });
  afterAll(() => app.close());

  async function putObject(body: Buffer, key = orgKey()): Promise<string> {
    await store.writeObject(key, Readable.from([body]), { length: body.length });
    return key;
  }

  async function vaulted(body = randomBytes(64 * 1024), l = lock()) {
    const source = await putObject(body);
    const key = vaultKey();
    const info = await store.copyToVault({ sourceKey: source, vaultKey: key, lock: l });
    return { source, key, info, body };
  }

  async function expectIntact(key: string, body: Buffer) {
    // Compared by digest: a deep comparison of large buffers is slow.
    expect(sha256(await readAll(await store.getStream(key)))).toBe(sha256(body));
    expect(await store.sha256(key)).toBe(sha256(body));
  }

  it('extends a retention, never shortens it, keeps the hold, and refuses a delete until the new date', async () => {
    const { key, body } = await vaulted(randomBytes(1024), lock(10, false));
    const later = new Date(now.getTime() + 400 * DAY);
    expect(await store.extendRetention(key, later)).toEqual({ mode: 'COMPLIANCE', retainUntil: later, legalHold: false });
    expect((await store.vaultInfo(key))?.lock).toEqual({ mode: 'COMPLIANCE', retainUntil: later, legalHold: false });
    // An earlier date changes nothing.
    expect((await store.extendRetention(key, new Date(now.getTime() + 20 * DAY))).retainUntil).toEqual(later);
    expect((await store.vaultInfo(key))?.lock?.retainUntil).toEqual(later);
    // Past the old date, the object is still locked until the new one.
    const saved = now;
    now = new Date(saved.getTime() + 30 * DAY);
    try {
      await expect(store.delete(key)).rejects.toBeInstanceOf(BlobLockedError);
      await expectIntact(key, body);
    } finally {
      now = saved;
    }
    // The hold is untouched by an extension.
    const held = await vaulted(randomBytes(512), lock(5, true));
    expect((await store.extendRetention(held.key, later)).legalHold).toBe(true);
    await expect(store.extendRetention(vaultKey(), later)).rejects.toBeInstanceOf(BlobNotFoundError);
    await expect(store.extendRetention(orgKey(), later)).rejects.toBeInstanceOf(BlobInvalidKeyError);
  });

  it('copies an object into the vault with its lock, verified, read-only on disk', async () => {
    const body = randomBytes(3 * MiB + 17);
    const { key, info } = await vaulted(body);
    expect(info).toEqual({
      key,
      versionId: null,
      size: body.length,
      etag: md5(body),
      lock: { mode: 'COMPLIANCE', retainUntil: new Date(now.getTime() + 30 * DAY), legalHold: true },
      storageClass: null,
      restore: null,
      // Read back from the stored copy while storing it: the caller need not read it again.
      readBackSha256: sha256(body),
    });
    const { readBackSha256: _, ...stored } = info;
    expect(await store.vaultInfo(key)).toEqual(stored);
    expect(await store.head(key)).toEqual({ size: body.length, etag: md5(body) });
    await expectIntact(key, body);
    const stat = await fs.stat(store.objectPath(key));
    expect(stat.mode & 0o777).toBe(0o400);
    // Nothing is left behind in the temp folder.
    expect(await fs.readdir(store.tmpDir)).toEqual([]);
  });

  it('answers the same object when the copy runs again, even concurrently, and refuses other bytes', async () => {
    const body = randomBytes(256 * 1024);
    const { source, key, info } = await vaulted(body);
    expect(await store.copyToVault({ sourceKey: source, vaultKey: key, lock: lock() })).toEqual(info);
    const twice = await Promise.all([1, 2, 3].map(() => store.copyToVault({ sourceKey: source, vaultKey: key, lock: lock() })));
    for (const again of twice) expect(again).toEqual(info);

    const fresh = vaultKey();
    const racing = await Promise.all([1, 2, 3].map(() => store.copyToVault({ sourceKey: source, vaultKey: fresh, lock: lock() })));
    for (const r of racing) expect(r.etag).toBe(md5(body));
    await expectIntact(fresh, body);

    const other = await putObject(randomBytes(body.length));
    await expect(store.copyToVault({ sourceKey: other, vaultKey: key, lock: lock() })).rejects.toBeInstanceOf(BlobObjectExistsError);
    const shorter = await putObject(randomBytes(10));
    await expect(store.copyToVault({ sourceKey: shorter, vaultKey: key, lock: lock() })).rejects.toBeInstanceOf(BlobObjectExistsError);
    await expect(
      store.putLocked({ key, body: randomBytes(body.length), contentType: 'application/json', lock: lock() }),
    ).rejects.toBeInstanceOf(BlobObjectExistsError);
    await expectIntact(key, body);
  });

  it('refuses a delete while the retention runs or the hold is on, and allows it after both', async () => {
    const { key, body } = await vaulted(randomBytes(1000), lock(1, true));
    await expect(store.delete(key)).rejects.toBeInstanceOf(BlobLockedError);
    await expect(store.delete(key)).rejects.toThrow(/retained until .* legal hold on/);
    await store.setLegalHold(key, false);
    await expect(store.delete(key)).rejects.toThrow(/retained until/);
    await expectIntact(key, body);

    const saved = now;
    try {
      now = new Date(saved.getTime() + 2 * DAY);
      await store.setLegalHold(key, true);
      await expect(store.delete(key)).rejects.toThrow(/legal hold on/);
      await expectIntact(key, body);
      await store.setLegalHold(key, false);
      await store.delete(key);
      expect(await store.vaultInfo(key)).toBeNull();
      expect(await store.head(key)).toBeNull();
      // A delete of what is gone is no error.
      await store.delete(key);
    } finally {
      now = saved;
    }
  });

  it('never shortens a retention: the hold changes only the hold, a later copy keeps the later date', async () => {
    const { source, key, info } = await vaulted(randomBytes(500), lock(10, true));
    await store.setLegalHold(key, false);
    expect((await store.vaultInfo(key))?.lock).toEqual({ ...info.lock, legalHold: false });
    const again = await store.copyToVault({ sourceKey: source, vaultKey: key, lock: lock(1, false) });
    expect(again.lock?.retainUntil).toEqual(info.lock?.retainUntil);
    // A copy may lengthen the retention and put the hold back on.
    const longer = await store.copyToVault({ sourceKey: source, vaultKey: key, lock: lock(20, true) });
    expect(longer.lock).toEqual({ mode: 'COMPLIANCE', retainUntil: new Date(now.getTime() + 20 * DAY), legalHold: true });
  });

  it('refuses every ordinary write to a vault key: presigning, a signed PUT over HTTP, parts, multipart completion', async () => {
    const { key, body } = await vaulted();
    await expect(store.presignPut({ key, contentLength: 3, expiresInSeconds: 60 })).rejects.toBeInstanceOf(BlobLockedError);
    await expect(store.createMultipart({ key })).rejects.toBeInstanceOf(BlobLockedError);
    await expect(
      store.presignPart({ key, uploadId: 'a'.repeat(32), partNumber: 1, contentLength: 3, expiresInSeconds: 60 }),
    ).rejects.toBeInstanceOf(BlobLockedError);
    await expect(store.writeObject(key, Readable.from([Buffer.from('abc')]), { length: 3 })).rejects.toBeInstanceOf(BlobLockedError);

    // A validly signed URL for the key (signed before the key was a vault key, say) stores nothing.
    const put = await signer.sign({ method: 'PUT', key, length: 3 }, 60, {});
    const answer = await app.inject({ method: 'PUT', url: new URL(put.url).pathname + new URL(put.url).search, payload: 'abc' });
    expect(answer.statusCode).toBe(403);
    expect(answer.json()).toEqual({
      error: expect.stringMatching(/^Access denied: .*locked in the vault.*write-once/),
      code: 'PERMISSION_ERROR',
    });

    // A part for an upload someone made for the key by hand, and its completion.
    const uploadId = randomBytes(16).toString('hex');
    const uploadDir = path.join(store.multipartDir, uploadId);
    await fs.mkdir(uploadDir, { recursive: true });
    await fs.writeFile(path.join(uploadDir, 'upload.json'), JSON.stringify({ key, createdAt: now.toISOString() }));
    const part = Buffer.from('evil');
    await fs.writeFile(path.join(uploadDir, `00001.${createHash('md5').update(part).digest('hex')}`), part);
    const partUrl = await signer.sign({ method: 'PUT', key, uploadId, partNumber: 1, length: 4 }, 60, {});
    const partAnswer = await app.inject({
      method: 'PUT',
      url: new URL(partUrl.url).pathname + new URL(partUrl.url).search,
      payload: 'evil',
    });
    expect(partAnswer.statusCode).toBe(403);
    await expect(store.completeMultipart({ key, uploadId, parts: [{ partNumber: 1, etag: md5(part) }] })).rejects.toBeInstanceOf(
      BlobLockedError,
    );
    await expectIntact(key, body);

    // A vault key that holds nothing yet cannot be pre-filled by an ordinary PUT either.
    const empty = vaultKey();
    const early = await signer.sign({ method: 'PUT', key: empty, length: 3 }, 60, {});
    expect(
      (await app.inject({ method: 'PUT', url: new URL(early.url).pathname + new URL(early.url).search, payload: 'abc' })).statusCode,
    ).toBe(403);
    expect(await store.head(empty)).toBeNull();
  });

  it('keeps the lock records out of reach of every key and URL, and fails closed when one is missing or broken', async () => {
    const { key, body } = await vaulted();
    const record = path.join(store.root, '.locks', ...key.split('/')) + '.json';
    expect(JSON.parse(await fs.readFile(record, 'utf8'))).toMatchObject({ mode: 'COMPLIANCE', legalHold: true, size: body.length });
    expect((await fs.stat(record)).mode & 0o777).toBe(0o400);
    for (const bad of [`.locks/${key}.json`, `vault/../.locks/${key}.json`, `${key}/../../x`, `vault/./x`, `/${key}`, `vault//x`]) {
      await expect(store.presignPut({ key: bad, contentLength: 1, expiresInSeconds: 60 })).rejects.toBeInstanceOf(BlobInvalidKeyError);
      await expect(store.presignGet({ key: bad, fileName: 'x', expiresInSeconds: 60 })).rejects.toBeInstanceOf(BlobInvalidKeyError);
      await expect(store.delete(bad)).rejects.toBeInstanceOf(BlobInvalidKeyError);
      await expect(store.setLegalHold(bad, false)).rejects.toBeInstanceOf(BlobInvalidKeyError);
    }
    // Over HTTP, raw and percent-encoded dots: refused before any file is touched.
    for (const url of [
      `/_objects/.locks/${key}.json?expires=9999999999&length=1&sig=x`,
      `/_objects/vault/%2e%2e/.locks/${key}.json?expires=9999999999&length=1&sig=x`,
      `/_objects/%2elocks/${key}.json?expires=9999999999&sig=x`,
    ]) {
      expect((await app.inject({ method: 'PUT', url, payload: 'x' })).statusCode).toBeGreaterThanOrEqual(400);
      expect((await app.inject({ method: 'GET', url })).statusCode).toBeGreaterThanOrEqual(400);
    }
    expect(JSON.parse(await fs.readFile(record, 'utf8'))).toMatchObject({ legalHold: true });

    // A record removed or broken behind the store's back: the object is kept (fail closed), past retention too.
    const saved = now;
    try {
      now = new Date(saved.getTime() + 400 * DAY);
      await fs.rm(record);
      await expect(store.delete(key)).rejects.toThrow(/lock record is missing/);
      await fs.writeFile(record, '{"mode":"COMPL');
      await expect(store.delete(key)).rejects.toThrow(/lock record cannot be read/);
      await expect(store.setLegalHold(key, false)).rejects.toBeInstanceOf(BlobLockedError);
      await expectIntact(key, body);
    } finally {
      now = saved;
    }
  });

  it('writes small documents under the lock with putLocked, idempotently', async () => {
    const key = `vault/${randomUUID()}/${randomUUID()}/certificates/vault-20261128T100000Z.json`;
    const body = Buffer.from(JSON.stringify({ signed: true }));
    const info = await store.putLocked({ key, body, contentType: 'application/json', lock: lock() });
    expect(info).toMatchObject({ key, size: body.length, etag: md5(body), lock: lock() });
    expect(await store.putLocked({ key, body, contentType: 'application/json', lock: lock() })).toEqual(info);
    expect(await store.head(key)).toEqual({ size: body.length, etag: md5(body), contentType: 'application/json' });
    expect((await fs.stat(store.objectPath(key))).mode & 0o777).toBe(0o400);
    await expect(store.delete(key)).rejects.toBeInstanceOf(BlobLockedError);
    await expectIntact(key, body);
  });

  it('checks its input and reports the facts of ordinary and missing objects', async () => {
    const source = await putObject(Buffer.from('abc'));
    await expect(store.copyToVault({ sourceKey: source, vaultKey: orgKey(), lock: lock() })).rejects.toBeInstanceOf(BlobInvalidKeyError);
    await expect(
      store.copyToVault({
        sourceKey: source,
        vaultKey: vaultKey(),
        lock: { mode: 'COMPLIANCE', retainUntil: new Date(now.getTime() - 1), legalHold: true },
      }),
    ).rejects.toBeInstanceOf(BlobInvalidArgumentError);
    await expect(
      store.copyToVault({ sourceKey: source, vaultKey: vaultKey(), lock: { ...lock(), mode: 'GOVERNANCE' as 'COMPLIANCE' } }),
    ).rejects.toBeInstanceOf(BlobInvalidArgumentError);
    await expect(store.copyToVault({ sourceKey: orgKey(), vaultKey: vaultKey(), lock: lock() })).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await store.vaultInfo(source)).toMatchObject({ key: source, size: 3, lock: null });
    expect(await store.vaultInfo(vaultKey())).toBeNull();
    await expect(store.setLegalHold(vaultKey(), true)).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await store.requestRestore(source, 1)).toBeNull();
    expect(await store.writeOnceStatus()).toMatchObject({ enforced: true, store: 'local', mode: 'COMPLIANCE' });
    // An ordinary object is deleted as before.
    await store.delete(source);
    expect(await store.head(source)).toBeNull();
  });

  it('never answers a copy whose bytes on disk differ from the bytes read, and leaves no object behind', async () => {
    const source = await putObject(randomBytes(300 * 1024));
    const key = vaultKey();
    const real = hashPool.fileHashes.bind(hashPool);
    const spy = vi.spyOn(hashPool, 'fileHashes').mockImplementationOnce(async (file) => {
      const r = await real(file);
      return { ...r, md5: r.md5.replace(/^./, (c) => (c === '0' ? '1' : '0')) };
    });
    try {
      await expect(store.copyToVault({ sourceKey: source, vaultKey: key, lock: lock() })).rejects.toThrow(/did not verify/);
    } finally {
      spy.mockRestore();
    }
    expect(await store.vaultInfo(key)).toBeNull();
    expect(await fs.readdir(store.tmpDir)).toEqual([]);
    // Tried again, the copy succeeds.
    expect((await store.copyToVault({ sourceKey: source, vaultKey: key, lock: lock() })).size).toBe(300 * 1024);
  });

  it('refuses to vault a source whose bytes changed behind the store since they were stored', async () => {
    const body = randomBytes(200 * 1024);
    const source = await putObject(body);
    const file = store.objectPath(source);
    const changed = Buffer.from(body);
    changed[1234] = changed[1234]! ^ 0xff;
    await fs.writeFile(file, changed);
    const key = vaultKey();
    await expect(store.copyToVault({ sourceKey: source, vaultKey: key, lock: lock() })).rejects.toThrow(
      /did not verify: the bytes written differ/,
    );
    expect(await store.vaultInfo(key)).toBeNull();
  });

  it('leaves no partial object under a vault key when the process is killed during a copy, and a retry finishes it', async () => {
    const body = randomBytes(96 * MiB);
    const source = await putObject(body);
    const key = vaultKey();
    const retainUntil = new Date(now.getTime() + DAY).toISOString();
    const code = `
      import { LocalBlobStore } from ${JSON.stringify(path.join(here, 'local-store.ts'))};
      const store = new LocalBlobStore({ dataDir: ${JSON.stringify(dataDir)}, appUrl: 'http://127.0.0.1', signingKey: ${JSON.stringify(SIGNING_KEY)}, now: () => new Date(${JSON.stringify(now.toISOString())}) });
      process.stdout.write('started\\n');
      await store.copyToVault({ sourceKey: ${JSON.stringify(source)}, vaultKey: ${JSON.stringify(key)}, lock: { mode: 'COMPLIANCE', retainUntil: new Date(${JSON.stringify(retainUntil)}), legalHold: true } });
      process.stdout.write('done\\n');
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += String(d)));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    // Killed once some of the copy is on disk (a temp file with bytes in it), before it has finished.
    await vi.waitFor(
      async () => {
        const sizes = await Promise.all(
          (await fs.readdir(store.tmpDir).catch(() => [] as string[])).map(
            async (n) => (await fs.stat(path.join(store.tmpDir, n)).catch(() => null))?.size ?? 0,
          ),
        );
        expect(sizes.some((s) => s > 0) || out.includes('done')).toBe(true);
      },
      // A child process's start (tsx compiling the store) has taken over 30 s while other suites share the cores.
      { timeout: 150_000, interval: 5 },
    );
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    if (!out.includes('done')) {
      // No object, or the whole verified one: never a part of one.
      const info = await store.vaultInfo(key);
      if (info) expect(info.size).toBe(body.length);
    }
    const info = await store.copyToVault({ sourceKey: source, vaultKey: key, lock: lock(1) });
    expect(info).toMatchObject({ size: body.length, etag: md5(body) });
    await expectIntact(key, body);
    // What the killed process left in the temp folder goes with the daily cleanup, a day later. The cleanup goes by
    // the files' own times, which the file system writes from the wall clock, not the store's test clock.
    await store.cleanupIncompleteMultipart(new Date(Date.now() + DAY));
    expect(await fs.readdir(store.tmpDir)).toEqual([]);
  }, 240_000);
});

describe('S3 adapter: vault copies against s3rver (no Object Lock there)', () => {
  let server: TestS3Server;
  let store: S3BlobStore;
  let parts: S3BlobStore;
  const lock: VaultLock = { mode: 'COMPLIANCE', retainUntil: new Date(Date.now() + 365 * DAY), legalHold: true };

  beforeAll(async () => {
    server = await startS3Server();
    const options = {
      endpoint: server.endpoint,
      region: server.region,
      bucket: server.bucket,
      accessKeyId: server.accessKeyId,
      secretAccessKey: server.secretAccessKey,
      forcePathStyle: true,
    };
    store = new S3BlobStore(options);
    // The copy by parts with a threshold of 1 MiB and 5 MiB parts, instead of 5 GiB.
    parts = new S3BlobStore({ ...options, multipartCopyThreshold: MiB, copyPartSize: MIN_PART_SIZE });
  });
  afterAll(async () => {
    store.destroy();
    parts.destroy();
    await server.close();
  });

  async function putObject(s: S3BlobStore, body: Buffer): Promise<string> {
    const key = orgKey();
    const put = await s.presignPut({ key, contentLength: body.length, expiresInSeconds: 60 });
    const r = await fetch(put.url, { method: 'PUT', body: new Uint8Array(body), headers: put.headers });
    expect(r.status).toBe(200);
    return key;
  }

  it('copies an object whole, verified by size and ETag, and answers the same object when run again', async () => {
    const body = randomBytes(2 * MiB + 5);
    const source = await putObject(store, body);
    const key = vaultKey();
    const send = vi.spyOn(store.client, 'send');
    let info;
    let sent: unknown[][];
    try {
      info = await store.copyToVault({ sourceKey: source, vaultKey: key, lock });
    } finally {
      sent = [...send.mock.calls];
      send.mockRestore();
    }
    // One CopyObject with the lock, the class (default GLACIER_IR), the metadata copied, the source pinned by ETag.
    const copy = sent.map(([c]) => c).find((c): c is CopyObjectCommand => c instanceof CopyObjectCommand);
    expect(copy?.input).toEqual({
      Bucket: server.bucket,
      Key: key,
      CopySource: `${server.bucket}/${source}`,
      CopySourceIfMatch: md5(body),
      MetadataDirective: 'COPY',
      StorageClass: 'GLACIER_IR',
      ObjectLockMode: 'COMPLIANCE',
      ObjectLockRetainUntilDate: lock.retainUntil,
      ObjectLockLegalHoldStatus: 'ON',
    });
    expect(info).toMatchObject({ key, size: body.length, etag: md5(body), restore: null });
    // s3rver keeps no lock: the adapter says so instead of inventing one.
    expect(info.lock).toBeNull();
    expect(await store.sha256(key)).toBe(sha256(body));
    expect(await store.copyToVault({ sourceKey: source, vaultKey: key, lock })).toEqual(info);
    const other = await putObject(store, randomBytes(body.length));
    await expect(store.copyToVault({ sourceKey: other, vaultKey: key, lock })).rejects.toBeInstanceOf(BlobObjectExistsError);
    expect(await store.sha256(key)).toBe(sha256(body));
  });

  it('copies by parts above the threshold (S3: over 5 GiB), every byte in place', async () => {
    const body = randomBytes(12 * MiB + 3);
    const source = await putObject(parts, body);
    const key = vaultKey();
    const send = vi.spyOn(parts.client, 'send');
    let info;
    let sent: unknown[][];
    try {
      info = await parts.copyToVault({ sourceKey: source, vaultKey: key, lock, storageClass: 'STANDARD' });
    } finally {
      sent = [...send.mock.calls];
      send.mockRestore();
    }
    const names = new Map<unknown, string>([
      [CreateMultipartUploadCommand, 'CreateMultipartUploadCommand'],
      [UploadPartCopyCommand, 'UploadPartCopyCommand'],
      [UploadPartCommand, 'UploadPartCommand'],
      [CompleteMultipartUploadCommand, 'CompleteMultipartUploadCommand'],
      [CopyObjectCommand, 'CopyObjectCommand'],
    ]);
    const calls = (sent as [{ input: unknown }][]).map(([command]) => ({
      name: names.get(Object.getPrototypeOf(command).constructor) ?? 'other',
      input: command.input as Record<string, unknown>,
    }));
    // The upload carries the lock and the class; the parts are copied by range (s3rver lacks UploadPartCopy, so
    // each range is read and uploaded instead: three parts of at most 5 MiB); then the upload is completed.
    expect(calls.find((c) => c.name === 'CreateMultipartUploadCommand')?.input).toMatchObject({
      Key: key,
      StorageClass: 'STANDARD',
      ObjectLockMode: 'COMPLIANCE',
      ObjectLockRetainUntilDate: lock.retainUntil,
      ObjectLockLegalHoldStatus: 'ON',
    });
    expect(calls.find((c) => c.name === 'UploadPartCopyCommand')?.input).toMatchObject({
      PartNumber: 1,
      CopySourceRange: `bytes=0-${MIN_PART_SIZE - 1}`,
    });
    expect(calls.filter((c) => c.name === 'UploadPartCommand').map((c) => c.input.ContentLength)).toEqual([
      MIN_PART_SIZE,
      MIN_PART_SIZE,
      body.length - 2 * MIN_PART_SIZE,
    ]);
    expect(calls.filter((c) => c.name === 'CompleteMultipartUploadCommand')).toHaveLength(1);
    expect(calls.some((c) => c.name === 'CopyObjectCommand')).toBe(false);
    expect(info.size).toBe(body.length);
    expect(await parts.sha256(key)).toBe(sha256(body));
    // Run again: the same bytes (compared by sha256, as the ETags differ in form) answer the object.
    expect((await parts.copyToVault({ sourceKey: source, vaultKey: key, lock })).etag).toBe(info.etag);
  });

  it('writes small documents with putLocked and refuses ordinary writes under vault/', async () => {
    const key = `vault/${randomUUID()}/${randomUUID()}/certificates/vault-20261128T100000Z.json`;
    const body = Buffer.from('{"a":1}');
    const info = await store.putLocked({ key, body, contentType: 'application/json', lock });
    expect(info).toMatchObject({ size: body.length, etag: md5(body) });
    expect(await store.putLocked({ key, body, contentType: 'application/json', lock })).toMatchObject({ etag: md5(body) });
    await expect(store.putLocked({ key, body: Buffer.from('{"a":2}'), contentType: 'application/json', lock })).rejects.toBeInstanceOf(
      BlobObjectExistsError,
    );
    await expect(store.presignPut({ key, contentLength: 1, expiresInSeconds: 60 })).rejects.toBeInstanceOf(BlobLockedError);
    await expect(store.createMultipart({ key })).rejects.toBeInstanceOf(BlobLockedError);
    await expect(store.copyToVault({ sourceKey: key, vaultKey: orgKey(), lock })).rejects.toBeInstanceOf(BlobInvalidKeyError);
    // Without Object Lock nothing holds the object: this is what writeOnceStatus reports as not enforced.
    await store.delete(key);
    expect(await store.vaultInfo(key)).toBeNull();
  });

  it('reports that write-once is not enforced, and /readyz stays ready but says why; start-up logs a warning', async () => {
    const status = await store.writeOnceStatus();
    expect(status).toMatchObject({ enforced: false, store: 's3', mode: null });
    expect(status.detail).toMatch(/Object Lock|could not read/);

    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const t = await createTestApp(
      {
        S3_ENDPOINT: server.endpoint,
        S3_BUCKET: server.bucket,
        S3_ACCESS_KEY_ID: server.accessKeyId,
        S3_SECRET_ACCESS_KEY: server.secretAccessKey,
      },
      { loggerInstance: pino({ level: 'warn' }, sink) },
    );
    try {
      const ready = await t.app.inject('/readyz');
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({
        status: 'ready',
        checks: { database: 'ok', objectStore: 'ok', vault: expect.stringMatching(/^write-once not enforced: /) },
      });
      await vi.waitFor(() => expect(lines.join('')).toMatch(/Vault storage: write-once not enforced/));
    } finally {
      await t.shutdown();
    }
  });
});

describe('S3 adapter with a scripted S3: the Object Lock answers s3rver cannot give', () => {
  const past = new Date(Date.now() - DAY);
  const future = new Date(Date.now() + 30 * DAY);
  const key = `vault/${randomUUID()}/${randomUUID()}/${randomUUID()}`;

  /** A store whose client answers from `answer` instead of the network; the commands sent are kept. */
  function scripted(answer: (command: unknown) => unknown) {
    const store = new S3BlobStore({ region: 'us-east-1', bucket: 'archive', forcePathStyle: true, endpoint: 'http://127.0.0.1:9' });
    const sent: unknown[] = [];
    vi.spyOn(store.client, 'send').mockImplementation((async (command: unknown) => {
      sent.push(command);
      const out = answer(command);
      if (out instanceof Error) throw out;
      return out;
    }) as never);
    return { store, sent };
  }
  const s3Error = (name: string, status: number) =>
    Object.assign(new Error(`${name} from S3`), { name, $metadata: { httpStatusCode: status } });
  const head = (lock: { until: Date; hold: 'ON' | 'OFF' }, extra: Record<string, unknown> = {}) => ({
    ContentLength: 3,
    ETag: '"900150983cd24fb0d6963f7d28e17f72"',
    VersionId: 'v-1',
    StorageClass: 'GLACIER_IR',
    ObjectLockMode: 'COMPLIANCE',
    ObjectLockRetainUntilDate: lock.until,
    ObjectLockLegalHoldStatus: lock.hold,
    ...extra,
  });

  it('reads the lock, version, class and restore state from HeadObject', async () => {
    const { store } = scripted(() => head({ until: future, hold: 'ON' }, { StorageClass: 'GLACIER', Restore: 'ongoing-request="true"' }));
    expect(await store.vaultInfo(key)).toEqual({
      key,
      versionId: 'v-1',
      size: 3,
      etag: '"900150983cd24fb0d6963f7d28e17f72"',
      lock: { mode: 'COMPLIANCE', retainUntil: future, legalHold: true },
      storageClass: 'GLACIER',
      restore: { required: true, ongoing: true, readyUntil: null },
    });
    const governance = scripted(() => head({ until: future, hold: 'OFF' }, { ObjectLockMode: 'GOVERNANCE' }));
    expect((await governance.store.vaultInfo(key))?.lock).toBeNull();
    const missing = scripted(() => s3Error('NotFound', 404));
    expect(await missing.store.vaultInfo(key)).toBeNull();
  });

  it('refuses to delete a locked vault object itself, deletes the version once allowed, and maps S3 refusing to BlobLockedError', async () => {
    const held = scripted(() => head({ until: past, hold: 'ON' }));
    await expect(held.store.delete(key)).rejects.toThrow(/legal hold on/);
    const retained = scripted(() => head({ until: future, hold: 'OFF' }));
    await expect(retained.store.delete(key)).rejects.toThrow(/retained until/);
    for (const s of [held, retained]) expect(s.sent.some((c) => c instanceof DeleteObjectCommand)).toBe(false);

    const allowed = scripted((c) => (c instanceof HeadObjectCommand ? head({ until: past, hold: 'OFF' }) : {}));
    await allowed.store.delete(key);
    expect(allowed.sent.find((c) => c instanceof DeleteObjectCommand)).toMatchObject({
      input: { Bucket: 'archive', Key: key, VersionId: 'v-1' },
    });

    const refused = scripted((c) => (c instanceof HeadObjectCommand ? head({ until: past, hold: 'OFF' }) : s3Error('AccessDenied', 403)));
    await expect(refused.store.delete(key)).rejects.toBeInstanceOf(BlobLockedError);
  });

  it('turns the legal hold on and off with PutObjectLegalHold and starts a restore only where one is needed', async () => {
    const hold = scripted(() => ({}));
    await hold.store.setLegalHold(key, false);
    await hold.store.setLegalHold(key, true);
    expect(hold.sent.map((c) => (c as PutObjectLegalHoldCommand).input)).toEqual([
      { Bucket: 'archive', Key: key, LegalHold: { Status: 'OFF' } },
      { Bucket: 'archive', Key: key, LegalHold: { Status: 'ON' } },
    ]);
    expect(hold.sent.every((c) => c instanceof PutObjectLegalHoldCommand)).toBe(true);
    const locked = scripted(() => s3Error('AccessDenied', 403));
    await expect(locked.store.setLegalHold(key, false)).rejects.toBeInstanceOf(BlobLockedError);

    const instant = scripted(() => head({ until: future, hold: 'ON' }));
    expect(await instant.store.requestRestore(key, 7)).toBeNull();
    expect(instant.sent.some((c) => c instanceof RestoreObjectCommand)).toBe(false);

    let restored = false;
    const cold = scripted((c) => {
      if (c instanceof RestoreObjectCommand) {
        restored = true;
        return {};
      }
      return head(
        { until: future, hold: 'ON' },
        { StorageClass: 'DEEP_ARCHIVE', ...(restored ? { Restore: 'ongoing-request="true"' } : {}) },
      );
    });
    expect(await cold.store.requestRestore(key, 7)).toEqual({ required: true, ongoing: true, readyUntil: null });
    expect(cold.sent.find((c) => c instanceof RestoreObjectCommand)).toMatchObject({
      input: { Bucket: 'archive', Key: key, VersionId: 'v-1', RestoreRequest: { Days: 7, GlacierJobParameters: { Tier: 'Standard' } } },
    });
    const already = scripted((c) =>
      c instanceof RestoreObjectCommand
        ? s3Error('RestoreAlreadyInProgress', 409)
        : head({ until: future, hold: 'ON' }, { StorageClass: 'GLACIER' }),
    );
    expect(await already.store.requestRestore(key, 7)).toMatchObject({ required: true });
  });

  it('reports write-once from the bucket: Object Lock and versioning on; names a default rule; says why when off', async () => {
    const enabled = (rule?: object) =>
      scripted((c) =>
        c instanceof GetObjectLockConfigurationCommand
          ? { ObjectLockConfiguration: { ObjectLockEnabled: 'Enabled', ...(rule ? { Rule: rule } : {}) } }
          : { Status: 'Enabled' },
      );
    expect(await enabled().store.writeOnceStatus()).toEqual({
      enforced: true,
      store: 's3',
      mode: 'COMPLIANCE',
      detail: 'Object Lock is enabled on bucket archive; vault objects are written in COMPLIANCE mode (storage class GLACIER_IR).',
    });
    expect((await enabled({ DefaultRetention: { Mode: 'GOVERNANCE', Years: 7 } }).store.writeOnceStatus()).detail).toMatch(
      /default retention rule \(GOVERNANCE 7 years\): it also locks working uploads/,
    );
    const none = scripted(() => s3Error('ObjectLockConfigurationNotFoundError', 404));
    expect(await none.store.writeOnceStatus()).toEqual({
      enforced: false,
      store: 's3',
      mode: null,
      detail: 'Object Lock is not enabled on bucket archive',
    });
    const unversioned = scripted((c) =>
      c instanceof GetObjectLockConfigurationCommand
        ? { ObjectLockConfiguration: { ObjectLockEnabled: 'Enabled' } }
        : { Status: 'Suspended' },
    );
    expect((await unversioned.store.writeOnceStatus()).detail).toBe('versioning is not enabled on bucket archive');
    const denied = scripted(() => s3Error('AccessDenied', 403));
    expect((await denied.store.writeOnceStatus()).detail).toMatch(
      /^could not read the Object Lock configuration of bucket archive \(AccessDenied/,
    );
  });

  it('extends a retention with PutObjectRetention on the current version, never shortening it', async () => {
    const later = new Date(Date.now() + 400 * DAY);
    const extend = scripted((c) => (c instanceof HeadObjectCommand ? head({ until: future, hold: 'ON' }) : {}));
    expect(await extend.store.extendRetention(key, later)).toEqual({ mode: 'COMPLIANCE', retainUntil: later, legalHold: true });
    expect(extend.sent.find((c) => c instanceof PutObjectRetentionCommand)).toMatchObject({
      input: { Bucket: 'archive', Key: key, VersionId: 'v-1', Retention: { Mode: 'COMPLIANCE', RetainUntilDate: later } },
    });
    const earlier = scripted(() => head({ until: future, hold: 'OFF' }));
    expect((await earlier.store.extendRetention(key, new Date(Date.now() + DAY))).retainUntil).toEqual(future);
    expect(earlier.sent.every((c) => c instanceof HeadObjectCommand)).toBe(true);
    const missing = scripted(() => s3Error('NotFound', 404));
    await expect(missing.store.extendRetention(key, later)).rejects.toBeInstanceOf(BlobNotFoundError);
    const refused = scripted((c) => (c instanceof HeadObjectCommand ? head({ until: future, hold: 'OFF' }) : s3Error('AccessDenied', 403)));
    await expect(refused.store.extendRetention(key, later)).rejects.toBeInstanceOf(BlobLockedError);
  });

  it('raises the lock of an object a repeated copy finds, never lowers it', async () => {
    const earlier = new Date(Date.now() + 10 * DAY);
    const repeat = scripted((c) => {
      if (c instanceof HeadObjectCommand) return head({ until: earlier, hold: 'OFF' }, { ETag: md5(Buffer.from('abc')) });
      return {};
    });
    await repeat.store.putLocked({
      key,
      body: Buffer.from('abc'),
      contentType: 'application/json',
      lock: { mode: 'COMPLIANCE', retainUntil: future, legalHold: true },
    });
    expect(repeat.sent.find((c) => c instanceof PutObjectRetentionCommand)).toMatchObject({
      input: { Key: key, VersionId: 'v-1', Retention: { Mode: 'COMPLIANCE', RetainUntilDate: future } },
    });
    expect(repeat.sent.find((c) => c instanceof PutObjectLegalHoldCommand)).toMatchObject({ input: { LegalHold: { Status: 'ON' } } });
    expect(repeat.sent.some((c) => c instanceof PutObjectCommand)).toBe(false);

    const stronger = scripted(() => head({ until: future, hold: 'ON' }, { ETag: md5(Buffer.from('abc')) }));
    await stronger.store.putLocked({
      key,
      body: Buffer.from('abc'),
      contentType: 'application/json',
      lock: { mode: 'COMPLIANCE', retainUntil: earlier, legalHold: false },
    });
    expect(stronger.sent.every((c) => c instanceof HeadObjectCommand)).toBe(true);
  });
});

describe('S3 restore state (x-amz-restore)', () => {
  it('reads the header of classes that need a restore, and answers null for the others', () => {
    expect(restoreState('GLACIER_IR', undefined, undefined)).toBeNull();
    expect(restoreState('STANDARD', undefined, undefined)).toBeNull();
    expect(restoreState('GLACIER', undefined, undefined)).toEqual({ required: true, ongoing: false, readyUntil: null });
    expect(restoreState('DEEP_ARCHIVE', undefined, 'ongoing-request="true"')).toEqual({ required: true, ongoing: true, readyUntil: null });
    expect(restoreState('GLACIER', undefined, 'ongoing-request="false", expiry-date="Fri, 21 Dec 2012 00:00:00 GMT"')).toEqual({
      required: true,
      ongoing: false,
      readyUntil: new Date('2012-12-21T00:00:00Z'),
    });
    expect(restoreState('INTELLIGENT_TIERING', 'DEEP_ARCHIVE_ACCESS', undefined)).toEqual({
      required: true,
      ongoing: false,
      readyUntil: null,
    });
  });
});

// ---------------------------------------------------------------- Object Lock against a real S3 (opt-in)

const env = process.env;
const lockTarget =
  env.S3_LOCK_TEST_ENDPOINT && env.S3_LOCK_TEST_BUCKET && env.S3_LOCK_TEST_ACCESS_KEY_ID && env.S3_LOCK_TEST_SECRET_ACCESS_KEY
    ? {
        endpoint: env.S3_LOCK_TEST_ENDPOINT,
        bucket: env.S3_LOCK_TEST_BUCKET,
        accessKeyId: env.S3_LOCK_TEST_ACCESS_KEY_ID,
        secretAccessKey: env.S3_LOCK_TEST_SECRET_ACCESS_KEY,
        region: env.S3_LOCK_TEST_REGION ?? 'us-east-1',
        forcePathStyle: (env.S3_LOCK_TEST_FORCE_PATH_STYLE ?? 'true') !== 'false',
      }
    : null;
const lockSuites = lockTarget ? [lockTarget] : [];
if (!lockTarget) {
  console.info(
    '[vault-store] S3 Object Lock suite NOT RUN: set S3_LOCK_TEST_ENDPOINT, S3_LOCK_TEST_BUCKET, S3_LOCK_TEST_ACCESS_KEY_ID and ' +
      'S3_LOCK_TEST_SECRET_ACCESS_KEY (a bucket with Object Lock) to run it. Covered here without it: see docs/decisions.md.',
  );
}

describe.each(lockSuites)('S3 Object Lock against $endpoint', (target) => {
  let store: S3BlobStore;
  // Short retentions: these objects cannot be deleted by anyone until then.
  const soon = () => new Date(Date.now() + 2 * 60_000);

  beforeAll(() => {
    store = new S3BlobStore({
      ...target,
      vaultStorageClass: env.S3_LOCK_TEST_STORAGE_CLASS ?? 'GLACIER_IR',
      multipartCopyThreshold: 6 * MiB,
      copyPartSize: MIN_PART_SIZE,
    });
  });
  afterAll(() => store.destroy());

  async function putObject(body: Buffer): Promise<string> {
    const key = orgKey();
    const put = await store.presignPut({ key, contentLength: body.length, expiresInSeconds: 60 });
    expect((await fetch(put.url, { method: 'PUT', body: new Uint8Array(body), headers: put.headers })).status).toBe(200);
    return key;
  }

  it('reports Object Lock enabled on the bucket', async () => {
    expect(await store.writeOnceStatus()).toMatchObject({ enforced: true, store: 's3', mode: 'COMPLIANCE' });
  });

  it('copies with COMPLIANCE, retain-until, legal hold and storage class; refuses deletes; the hold follows setLegalHold', async () => {
    const body = randomBytes(64 * 1024);
    const source = await putObject(body);
    const key = vaultKey();
    const retainUntil = soon();
    const info = await store.copyToVault({ sourceKey: source, vaultKey: key, lock: { mode: 'COMPLIANCE', retainUntil, legalHold: true } });
    expect(info.lock).toEqual({ mode: 'COMPLIANCE', retainUntil: expect.any(Date), legalHold: true });
    expect(Math.abs(info.lock!.retainUntil.getTime() - retainUntil.getTime())).toBeLessThan(1000);
    expect(info.versionId).toEqual(expect.any(String));
    expect(info.storageClass).toBe(env.S3_LOCK_TEST_STORAGE_CLASS ?? 'GLACIER_IR');
    expect(await store.sha256(key)).toBe(sha256(body));
    await expect(store.delete(key)).rejects.toBeInstanceOf(BlobLockedError);
    await store.setLegalHold(key, false);
    expect((await store.vaultInfo(key))?.lock?.legalHold).toBe(false);
    await expect(store.delete(key)).rejects.toBeInstanceOf(BlobLockedError);
    expect(await store.requestRestore(key, 1)).toBeNull();
  });

  it('copies by parts with the lock headers on the upload', async () => {
    const body = randomBytes(11 * MiB);
    const source = await putObject(body);
    const key = vaultKey();
    const info = await store.copyToVault({
      sourceKey: source,
      vaultKey: key,
      lock: { mode: 'COMPLIANCE', retainUntil: soon(), legalHold: false },
    });
    expect(info).toMatchObject({ size: body.length, lock: { mode: 'COMPLIANCE', legalHold: false } });
    expect(await store.sha256(key)).toBe(sha256(body));
  });

  it('extends a retention with PutObjectRetention and never shortens it', async () => {
    const key = `vault/${randomUUID()}/${randomUUID()}/${randomUUID()}`;
    const first = soon();
    await store.putLocked({
      key,
      body: Buffer.from('{}'),
      contentType: 'application/json',
      lock: { mode: 'COMPLIANCE', retainUntil: first, legalHold: false },
    });
    const later = new Date(first.getTime() + 60_000);
    await store.extendRetention(key, later);
    const lock = (await store.vaultInfo(key))?.lock;
    expect(Math.abs(lock!.retainUntil.getTime() - later.getTime())).toBeLessThan(1000);
    await store.extendRetention(key, first);
    expect(Math.abs((await store.vaultInfo(key))!.lock!.retainUntil.getTime() - later.getTime())).toBeLessThan(1000);
  });

  it('writes a locked document with putLocked', async () => {
    const key = `vault/${randomUUID()}/${randomUUID()}/certificates/vault-20261128T100000Z.json`;
    const info = await store.putLocked({
      key,
      body: Buffer.from('{}'),
      contentType: 'application/json',
      lock: { mode: 'COMPLIANCE', retainUntil: soon(), legalHold: false },
    });
    expect(info.lock?.mode).toBe('COMPLIANCE');
    await expect(store.delete(key)).rejects.toBeInstanceOf(BlobLockedError);
  });
});
