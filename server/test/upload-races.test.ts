/**
 * Upload and storage integrity under real concurrency, over real HTTP (the local store's URLs are fetched as a
 * browser would). Runs on PGlite and on PostgreSQL. What a user or an attacker sees is asserted: the answers,
 * and the stored bytes read back and hashed here, never the server's word for them.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_MSG } from '@strongroom/contracts';
import { runBinPurge } from '../src/features/nodes/index.js';
import { setOrganizationQuota } from '../src/features/users/users.service.js';
import { createFolder, createMatter, freePort, newOrganization, ok, sha256, type Member } from './factories.js';
import { createTestApp, type TestApp } from './helpers.js';

let t: TestApp;
let admin: Member;
beforeAll(async () => {
  const port = await freePort();
  t = await createTestApp({ JOB_RUNNER: 'off', APP_URL: `http://127.0.0.1:${port}` });
  await t.app.listen({ host: '127.0.0.1', port });
  admin = await newOrganization(t, 'Race & Partners');
});
afterAll(() => t.shutdown());

const MiB = 1024 * 1024;
const CHUNK = 10 * MiB;

const put = (url: string, body: Buffer, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'PUT', body: new Uint8Array(body), headers });

/** sha256 of the bytes the store holds under `key`, read back here. */
async function storedSha(key: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of await t.ctx.store.getStream(key)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

const sessionOf = (s3Key: string) => t.ctx.db.selectFrom('uploadSessions').selectAll().where('s3Key', '=', s3Key).executeTakeFirstOrThrow();
const nodesOf = (matterId: string) =>
  t.ctx.db.selectFrom('nodes').selectAll().where('matterId', '=', matterId).where('nodeType', '=', 'file').execute();

async function multipart(c: Member['client'], matterId: string, fileName: string, parts: Buffer[], fileSize?: number) {
  const meta = { fileName, fileType: 'application/zip', matterId, parentId: null };
  const init = ok(await c.post('/_api/upload/multipart-init', fileSize === undefined ? meta : { ...meta, fileSize }));
  const etags = await Promise.all(
    parts.map(async (bytes, i) => {
      const signed = ok(await c.post('/_api/upload/presigned', { ...meta, partNumber: i + 1, uploadId: init.uploadId, s3Key: init.s3Key }));
      const res = await put(signed.url, bytes, signed.headers);
      expect(res.status).toBe(200);
      return res.headers.get('etag')!.replace(/"/g, '');
    }),
  );
  const complete = (numbers: number[], extra: object = {}) =>
    c.post('/_api/upload/multipart-complete', {
      ...meta,
      s3Key: init.s3Key,
      uploadId: init.uploadId,
      fileSize: numbers.reduce((sum, n) => sum + parts[n - 1]!.length, 0),
      parts: numbers.map((n) => ({ PartNumber: n, ETag: etags[n - 1]! })),
      ...extra,
    });
  return { meta, init, etags, complete };
}

describe('concurrent completions of one upload', () => {
  it('20 completions with different part lists at once: exactly one 200, and the recorded size and sha256 are those of the stored bytes', async () => {
    const m = await createMatter(admin.client);
    // Four full parts and a short last one; no size declared at the start, so each completion's list is valid
    // on its own: every non-empty ascending subset (all parts full but the last).
    const parts = [randomBytes(CHUNK), randomBytes(CHUNK), randomBytes(CHUNK), randomBytes(CHUNK), randomBytes(4096)];
    const up = await multipart(admin.client, m.id, 'Raced.zip', parts);
    const lists: number[][] = [];
    for (let mask = 1; mask < 32 && lists.length < 20; mask++) lists.push([1, 2, 3, 4, 5].filter((n) => mask & (1 << (n - 1))));
    const answers = await Promise.all(lists.map((list) => up.complete(list)));

    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    for (const r of answers.filter((a) => a.statusCode !== 200)) {
      expect(r.statusCode).toBe(409);
      // Each refusal names its reason: another completion is at work, or the upload was completed with other parts.
      expect([
        { error: UPLOAD_MSG.completionInProgress, code: 'CONFLICT_ERROR', details: { reason: 'UPLOAD_COMPLETING' } },
        { error: UPLOAD_MSG.completedWithOtherParts, code: 'CONFLICT_ERROR', details: { reason: 'UPLOAD_COMPLETED_OTHERWISE' } },
      ]).toContainEqual(r.json());
    }
    const winnerIndex = statuses.indexOf(200);
    const file = answers[winnerIndex]!.json().file;
    const expected = Buffer.concat(lists[winnerIndex]!.map((n) => parts[n - 1]!));
    expect(file.fileSize).toBe(expected.length);
    expect(file.sha256Hash).toBe(sha256(expected));
    // The stored object, read back: the bytes the record describes.
    expect(await storedSha(up.init.s3Key)).toBe(file.sha256Hash);
    expect((await t.ctx.store.head(up.init.s3Key))!.size).toBe(file.fileSize);
    expect(await nodesOf(m.id)).toHaveLength(1);
    expect((await sessionOf(up.init.s3Key)).status).toBe('completed');

    // The same request again (a retry) answers the same file; another part list is refused.
    expect(ok(await up.complete(lists[winnerIndex]!)).file.id).toBe(file.id);
    const other = await up.complete(lists[(winnerIndex + 1) % lists.length]!);
    expect(other.statusCode).toBe(409);
    expect(other.json()).toEqual({
      error: UPLOAD_MSG.completedWithOtherParts,
      code: 'CONFLICT_ERROR',
      details: { reason: 'UPLOAD_COMPLETED_OTHERWISE' },
    });
  });

  it('a completion racing an abort: one winner, the loser gets a clear 4xx, and an abort leaves nothing stored', async () => {
    for (let round = 0; round < 6; round++) {
      const m = await createMatter(admin.client);
      const parts = [randomBytes(CHUNK), randomBytes(1000)];
      const up = await multipart(admin.client, m.id, `Raced-${round}.zip`, parts, CHUNK + 1000);
      const abort = () => admin.client.post('/_api/upload/multipart-abort', { s3Key: up.init.s3Key, uploadId: up.init.uploadId });
      const [completed, aborted] =
        round % 2 === 0
          ? await Promise.all([up.complete([1, 2]), abort()])
          : await Promise.all([abort(), up.complete([1, 2])]).then(([a, c]) => [c, a] as const);
      expect(completed.statusCode).toBeLessThan(500);
      expect(aborted.statusCode).toBeLessThan(500);
      // Never both: the user is not told a file was aborted while it exists, nor stored while it is gone.
      expect(completed.statusCode === 200 && aborted.statusCode === 200).toBe(false);
      if (completed.statusCode === 200) {
        expect(aborted.statusCode).toBe(409);
        expect([
          { error: UPLOAD_MSG.abortWhileCompleting, code: 'CONFLICT_ERROR', details: { reason: 'UPLOAD_COMPLETING' } },
          { error: UPLOAD_MSG.alreadyCompleted, code: 'CONFLICT_ERROR', details: { reason: 'UPLOAD_COMPLETED' } },
        ]).toContainEqual(aborted.json());
        expect(completed.json().file.sha256Hash).toBe(sha256(Buffer.concat(parts)));
        expect(await storedSha(up.init.s3Key)).toBe(completed.json().file.sha256Hash);
        expect(await nodesOf(m.id)).toHaveLength(1);
      } else {
        expect(aborted.statusCode).toBe(200);
        expect(completed.statusCode).toBe(404);
        expect(completed.json().error).toBe(UPLOAD_MSG.uploadNotFound);
        expect(await nodesOf(m.id)).toHaveLength(0);
        expect((await sessionOf(up.init.s3Key)).status).toBe('aborted');
        // Nothing left behind: no joined object, no parts.
        expect(await t.ctx.store.head(up.init.s3Key)).toBeNull();
        await expect(t.ctx.store.listParts({ key: up.init.s3Key, uploadId: up.init.uploadId })).rejects.toThrow(/No multipart upload/);
      }
    }
  });
});

describe('URLs that outlive their upload or file', () => {
  it('refuses a still-valid PUT URL replayed after its file was deleted, and a download link issued before the delete', async () => {
    const m = await createMatter(admin.client);
    const bytes = randomBytes(5000);
    const body = { fileName: 'Replayed.pdf', fileType: 'application/pdf', matterId: m.id, parentId: null, fileSize: bytes.length };
    const signed = ok(await admin.client.post('/_api/upload/presigned', body));
    expect((await put(signed.url, bytes, signed.headers)).status).toBe(200);
    const { file } = ok(await admin.client.post('/_api/upload/multipart-complete', { ...body, s3Key: signed.s3Key }));
    const { url: downloadUrl } = ok(await admin.client.get(`/_api/nodes/download-url?nodeId=${file.id}`));
    expect((await fetch(downloadUrl)).status).toBe(200);

    ok(await admin.client.post('/_api/nodes/delete', { nodeId: file.id }));
    // In the recycle bin the bytes are still stored: the link is dead all the same.
    expect(await t.ctx.store.head(signed.s3Key)).not.toBeNull();
    expect((await fetch(downloadUrl)).status).toBe(404);
    // Emptied from the bin, and the delete job run: the bytes are gone.
    await runBinPurge(t.ctx, new Date(Date.now() + 366 * 24 * 3600 * 1000));
    await t.ctx.jobs.runDueJobs(['delete-objects']);
    expect(await t.ctx.store.head(signed.s3Key)).toBeNull();

    // The PUT URL is still within its 15 minutes: replaying it stores nothing.
    const replay = await put(signed.url, bytes, signed.headers);
    expect(replay.status).toBe(410);
    expect(await t.ctx.store.head(signed.s3Key)).toBeNull();
  });

  it('refuses part PUTs once the upload was aborted', async () => {
    const m = await createMatter(admin.client);
    const meta = { fileName: 'Gone.zip', fileType: 'application/zip', matterId: m.id, parentId: null };
    const init = ok(await admin.client.post('/_api/upload/multipart-init', { ...meta, fileSize: 100 }));
    const signed = ok(
      await admin.client.post('/_api/upload/presigned', { ...meta, partNumber: 1, uploadId: init.uploadId, s3Key: init.s3Key }),
    );
    ok(await admin.client.post('/_api/upload/multipart-abort', { s3Key: init.s3Key, uploadId: init.uploadId }));
    expect((await put(signed.url, randomBytes(100))).status).toBe(410);
  });
});

describe('part and file sizes are bound to the plan', () => {
  it('refuses a 20 MiB part for a file declared as 10 bytes, and parts beyond the end', async () => {
    const m = await createMatter(admin.client);
    const meta = { fileName: 'Tiny.zip', fileType: 'application/zip', matterId: m.id, parentId: null };
    const init = ok(await admin.client.post('/_api/upload/multipart-init', { ...meta, fileSize: 10 }));
    const signed = ok(
      await admin.client.post('/_api/upload/presigned', { ...meta, partNumber: 1, uploadId: init.uploadId, s3Key: init.s3Key }),
    );
    const big = await put(signed.url, randomBytes(20 * MiB));
    expect(big.status).toBe(403);
    expect(await t.ctx.store.listParts({ key: init.s3Key, uploadId: init.uploadId })).toEqual([]);
    const beyond = await admin.client.post('/_api/upload/presigned', {
      ...meta,
      partNumber: 2,
      uploadId: init.uploadId,
      s3Key: init.s3Key,
    });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json().error).toBe(UPLOAD_MSG.partBeyondEnd);
    // The planned length is accepted.
    expect((await put(signed.url, randomBytes(10))).status).toBe(200);
  });

  it('binds each part of a declared size to its 10 MiB slice: full parts, the last one the remainder', async () => {
    const m = await createMatter(admin.client);
    const meta = { fileName: 'Planned.zip', fileType: 'application/zip', matterId: m.id, parentId: null };
    const size = CHUNK + 7;
    const init = ok(await admin.client.post('/_api/upload/multipart-init', { ...meta, fileSize: size }));
    const sign = async (n: number) =>
      ok(await admin.client.post('/_api/upload/presigned', { ...meta, partNumber: n, uploadId: init.uploadId, s3Key: init.s3Key }))
        .url as string;
    expect((await put(await sign(1), randomBytes(5 * MiB))).status).toBe(403);
    expect((await put(await sign(2), randomBytes(8))).status).toBe(403);
    expect((await put(await sign(2), randomBytes(7))).status).toBe(200);
  });

  it('without a declared size a part is at most one chunk', async () => {
    const m = await createMatter(admin.client);
    const meta = { fileName: 'Unsized.zip', fileType: 'application/zip', matterId: m.id, parentId: null };
    const init = ok(await admin.client.post('/_api/upload/multipart-init', meta));
    const signed = ok(
      await admin.client.post('/_api/upload/presigned', { ...meta, partNumber: 1, uploadId: init.uploadId, s3Key: init.s3Key }),
    );
    expect((await put(signed.url, randomBytes(CHUNK + 1))).status).toBe(413);
    expect(await t.ctx.store.listParts({ key: init.s3Key, uploadId: init.uploadId })).toEqual([]);
  });

  it('a standard upload without fileSize: the URL takes at most the single-upload limit, the size is checked at completion', async () => {
    const m = await createMatter(admin.client);
    const body = { fileName: 'Unsized.pdf', fileType: 'application/pdf', matterId: m.id, parentId: null };
    const signed = ok(await admin.client.post('/_api/upload/presigned', body));
    const bytes = randomBytes(3000);
    expect((await put(signed.url, bytes, signed.headers)).status).toBe(200);
    const wrong = await admin.client.post('/_api/upload/multipart-complete', { ...body, s3Key: signed.s3Key, fileSize: 2999 });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe(UPLOAD_MSG.sizeMismatch);
    // That completion failed the upload and removed the object.
    expect(await t.ctx.store.head(signed.s3Key)).toBeNull();

    const again = ok(await admin.client.post('/_api/upload/presigned', body));
    expect((await put(again.url, bytes, again.headers)).status).toBe(200);
    const done = ok(await admin.client.post('/_api/upload/multipart-complete', { ...body, s3Key: again.s3Key, fileSize: bytes.length }));
    expect(done.file.sha256Hash).toBe(sha256(bytes));
    // From 100 MB a file goes multipart.
    const large = await admin.client.post('/_api/upload/presigned', { ...body, fileName: 'Large.pdf', fileSize: 100 * MiB });
    expect(large.statusCode).toBe(400);
    expect(large.json().error).toBe(UPLOAD_MSG.multipartRequired('100MB'));
  });
});

describe('storage quota', () => {
  it('N concurrent uploads that together exceed the quota: the bytes recorded never exceed it', async () => {
    const org = await newOrganization(t, 'Quota LLP');
    const m = await createMatter(org.client);
    const folder = await createFolder(org.client, m.id, 'Burst');
    await setOrganizationQuota(t.ctx.db, org.organizationId, 10_000);
    const size = 3000;
    const body = (i: number) => ({
      fileName: `burst-${i}.pdf`,
      fileType: 'application/pdf',
      matterId: m.id,
      parentId: folder.id,
      fileSize: size,
    });
    const signed = await Promise.all(Array.from({ length: 8 }, (_, i) => org.client.post('/_api/upload/presigned', body(i))));
    const admitted = signed.filter((r) => r.statusCode === 200);
    // 3 x 3000 fit in 10000, a fourth does not.
    expect(admitted).toHaveLength(3);
    for (const r of signed.filter((x) => x.statusCode !== 200)) {
      expect(r.statusCode).toBe(413);
      expect(r.json().error).toBe(UPLOAD_MSG.quotaExceeded);
    }
    await Promise.all(
      signed.map(async (r, i) => {
        if (r.statusCode !== 200) return;
        const s = r.json();
        expect((await put(s.url, randomBytes(size), s.headers)).status).toBe(200);
        ok(await org.client.post('/_api/upload/multipart-complete', { ...body(i), s3Key: s.s3Key }));
      }),
    );
    const stored = (await nodesOf(m.id)).reduce((sum, n) => sum + Number(n.fileSize), 0);
    expect(stored).toBe(9000);

    // Uploads that declare no size are checked at completion, one after the other: never over the quota.
    await setOrganizationQuota(t.ctx.db, org.organizationId, 9000 + 2500);
    const unsized = await Promise.all(
      Array.from({ length: 5 }, async (_, i) => {
        const b = { fileName: `unsized-${i}.pdf`, fileType: 'application/pdf', matterId: m.id, parentId: folder.id };
        const s = ok(await org.client.post('/_api/upload/presigned', b));
        expect((await put(s.url, randomBytes(1000), s.headers)).status).toBe(200);
        return { b, s };
      }),
    );
    const completions = await Promise.all(
      unsized.map(({ b, s }) => org.client.post('/_api/upload/multipart-complete', { ...b, s3Key: s.s3Key, fileSize: 1000 })),
    );
    expect(completions.filter((r) => r.statusCode === 200)).toHaveLength(2);
    for (const r of completions.filter((x) => x.statusCode !== 200)) expect(r.json().error).toBe(UPLOAD_MSG.quotaExceeded);
    const total = (await nodesOf(m.id)).reduce((sum, n) => sum + Number(n.fileSize), 0);
    expect(total).toBe(11_000);
    expect(total).toBeLessThanOrEqual(11_500);
    // The refused uploads left no object behind.
    for (const [i, r] of completions.entries()) {
      if (r.statusCode !== 200) expect(await t.ctx.store.head(unsized[i]!.s.s3Key)).toBeNull();
    }
  });

  it('without a quota (the default) nothing is limited', async () => {
    const m = await createMatter(admin.client);
    const r = await admin.client.post('/_api/upload/presigned', {
      fileName: 'free.pdf',
      fileType: 'application/pdf',
      matterId: m.id,
      parentId: null,
      fileSize: 99 * MiB,
    });
    expect(r.statusCode).toBe(200);
  });
});
