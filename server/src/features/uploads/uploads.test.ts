/**
 * Uploads end to end over real HTTP: the app listens on 127.0.0.1 with APP_URL set to that address, so the
 * local store's presigned URLs are real URLs that fetch() PUTs bytes to, as a browser would.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MATTER_MSG, MSG, UPLOAD_MSG } from '@strongroom/contracts';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import {
  addMember,
  auditActions,
  createFolder,
  createMatter,
  freePort,
  newOrganization,
  ok,
  setMatterFlags,
  sha256,
  type Member,
} from '../../../test/factories.js';

let t: TestApp;
let admin: Member;
let other: Member;
beforeAll(async () => {
  const port = await freePort();
  t = await createTestApp({ JOB_RUNNER: 'off', APP_URL: `http://127.0.0.1:${port}` });
  await t.app.listen({ host: '127.0.0.1', port });
  admin = await newOrganization(t, 'Acme LLP');
  other = await newOrganization(t, 'Other & Partners');
});
afterAll(() => t.shutdown());

const MiB = 1024 * 1024;

async function put(url: string, body: Buffer, headers: Record<string, string> = {}) {
  return fetch(url, { method: 'PUT', body: new Uint8Array(body), headers });
}

async function download(c: Member['client'], nodeId: string): Promise<Buffer> {
  const { url } = ok(await c.get(`/_api/nodes/download-url?nodeId=${nodeId}`));
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

async function sessionOf(s3Key: string) {
  return t.ctx.db.selectFrom('uploadSessions').selectAll().where('s3Key', '=', s3Key).executeTakeFirstOrThrow();
}

async function nodesOf(matterId: string) {
  return t.ctx.db.selectFrom('nodes').selectAll().where('matterId', '=', matterId).execute();
}

describe('standard upload', () => {
  it('presigns a PUT under a key the server chose, stores the bytes, registers the file with its sha256, and downloads the same bytes', async () => {
    const m = await createMatter(admin.client);
    const folder = await createFolder(admin.client, m.id, 'Correspondence');
    const bytes = randomBytes(200_000);
    const signed = ok(
      await admin.client.post('/_api/upload/presigned', {
        fileName: 'Letter to client.pdf',
        fileType: 'application/pdf',
        matterId: m.id,
        parentId: folder.id,
        fileSize: bytes.length,
      }),
    );
    expect(signed).toMatchObject({ method: 'PUT', headers: { 'Content-Type': 'application/pdf' } });
    expect(signed.s3Key).toMatch(new RegExp(`^org/${admin.organizationId}/matters/${m.id}/[0-9a-f-]{36}$`));
    expect(signed.s3Key).not.toContain('Letter');
    expect(new Date(signed.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    expect(signed.url.startsWith(t.config.appUrl)).toBe(true);

    const res = await put(signed.url, bytes, signed.headers);
    expect(res.status).toBe(200);
    // Write-once: the same URL cannot replace the bytes.
    expect((await put(signed.url, randomBytes(bytes.length), signed.headers)).status).toBe(412);

    const done = ok(
      await admin.client.post('/_api/upload/multipart-complete', {
        s3Key: signed.s3Key,
        fileName: 'Letter to client.pdf',
        fileType: 'application/pdf',
        matterId: m.id,
        parentId: folder.id,
        fileSize: bytes.length,
      }),
    );
    expect(done.file).toMatchObject({
      name: 'Letter to client.pdf',
      nodeType: 'file',
      parentId: folder.id,
      matterId: m.id,
      fileSize: bytes.length,
      mimeType: 'application/pdf',
      sha256Hash: sha256(bytes),
      storagePath: signed.s3Key,
      uploadStatus: 'completed',
      uploadProgress: 100,
      path: '/Correspondence/Letter to client.pdf',
    });
    expect(sha256(await download(admin.client, done.file.id))).toBe(sha256(bytes));
    // Completing again answers the same file (a retried request), and creates nothing new.
    const again = ok(
      await admin.client.post('/_api/upload/multipart-complete', {
        s3Key: signed.s3Key,
        fileName: 'Letter to client.pdf',
        fileType: 'application/pdf',
        matterId: m.id,
        parentId: folder.id,
        fileSize: bytes.length,
      }),
    );
    expect(again.file.id).toBe(done.file.id);
    expect(await nodesOf(m.id)).toHaveLength(2);
    const entry = (await auditActions(t, admin.organizationId)).find((e) => e.action === 'UPLOAD_FILE' && e.targetId === done.file.id);
    expect(entry?.details).toMatchObject({
      fileName: 'Letter to client.pdf',
      fileSize: bytes.length,
      sha256Hash: sha256(bytes),
      multipart: false,
      matterId: m.id,
    });
  });

  it('fails a completion whose fileSize does not match, leaving no node and no object', async () => {
    const m = await createMatter(admin.client);
    const bytes = randomBytes(1000);
    const body = { fileName: 'a.pdf', fileType: 'application/pdf', matterId: m.id, parentId: null };
    const signed = ok(await admin.client.post('/_api/upload/presigned', { ...body, fileSize: bytes.length }));
    expect((await put(signed.url, bytes, signed.headers)).status).toBe(200);
    const r = await admin.client.post('/_api/upload/multipart-complete', { ...body, s3Key: signed.s3Key, fileSize: bytes.length + 1 });
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toBe(UPLOAD_MSG.sizeMismatch);
    expect(await nodesOf(m.id)).toHaveLength(0);
    expect(await t.ctx.store.head(signed.s3Key)).toBeNull();
    expect((await sessionOf(signed.s3Key)).status).toBe('failed');
    // The durable deletion job is there too, and harmless.
    expect(await t.ctx.jobs.runDueJobs(['delete-objects'])).toEqual({ completed: 1, failed: 0 });
    // The failed upload cannot be completed afterwards.
    expect(
      (await admin.client.post('/_api/upload/multipart-complete', { ...body, s3Key: signed.s3Key, fileSize: bytes.length })).statusCode,
    ).toBe(404);
  });

  it('asks to upload again when the bytes never arrived, and refuses details other than those presigned', async () => {
    const m = await createMatter(admin.client);
    const body = { fileName: 'b.pdf', fileType: 'application/pdf', matterId: m.id, parentId: null, fileSize: 10 };
    const signed = ok(await admin.client.post('/_api/upload/presigned', body));
    const missing = await admin.client.post('/_api/upload/multipart-complete', { ...body, s3Key: signed.s3Key });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe(UPLOAD_MSG.fileMissing);
    const renamed = await admin.client.post('/_api/upload/multipart-complete', { ...body, fileName: 'c.pdf', s3Key: signed.s3Key });
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().error).toBe(UPLOAD_MSG.uploadMismatch);
    const m2 = await createMatter(admin.client);
    expect(
      (await admin.client.post('/_api/upload/multipart-complete', { ...body, matterId: m2.id, s3Key: signed.s3Key })).json().error,
    ).toBe(UPLOAD_MSG.uploadMismatch);
    expect(
      (
        await admin.client.post('/_api/upload/multipart-complete', {
          ...body,
          s3Key: `org/${admin.organizationId}/matters/${m.id}/made-up`,
        })
      ).statusCode,
    ).toBe(404);
  });

  it('leaves no node when the matter is put under legal hold before completion, and deletes the object', async () => {
    const m = await createMatter(admin.client);
    const bytes = Buffer.from('held back');
    const body = { fileName: 'late.pdf', fileType: 'application/pdf', matterId: m.id, parentId: null, fileSize: bytes.length };
    const signed = ok(await admin.client.post('/_api/upload/presigned', body));
    expect((await put(signed.url, bytes, signed.headers)).status).toBe(200);
    await setMatterFlags(t, m.id, { legalHold: true });
    const r = await admin.client.post('/_api/upload/multipart-complete', { ...body, s3Key: signed.s3Key });
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toBe(UPLOAD_MSG.legalHold);
    expect(await nodesOf(m.id)).toHaveLength(0);
    expect(await t.ctx.store.head(signed.s3Key)).toBeNull();
  });
});

describe('multipart upload', () => {
  it('uploads 3 parts (10 MiB, 10 MiB, 1 KiB) with a parts listing for resume, completes with the sha256 of the whole file', async () => {
    const m = await createMatter(admin.client);
    const parts = [randomBytes(10 * MiB), randomBytes(10 * MiB), randomBytes(1024)];
    const whole = Buffer.concat(parts);
    const meta = { fileName: 'Discovery.zip', fileType: 'application/zip', matterId: m.id, parentId: null };
    const init = ok(await admin.client.post('/_api/upload/multipart-init', { ...meta, fileSize: whole.length }));
    expect(init.uploadId).toEqual(expect.any(String));
    expect(init.s3Key).toMatch(new RegExp(`^org/${admin.organizationId}/matters/${m.id}/`));

    const etags: string[] = [];
    const sendPart = async (i: number) => {
      const signed = ok(
        await admin.client.post('/_api/upload/presigned', { ...meta, partNumber: i + 1, uploadId: init.uploadId, s3Key: init.s3Key }),
      );
      expect(signed).toMatchObject({ partNumber: i + 1, s3Key: init.s3Key, method: 'PUT' });
      const res = await put(signed.url, parts[i]!, signed.headers);
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-expose-headers')).toContain('ETag');
      etags[i] = res.headers.get('etag')!;
    };
    await sendPart(0);
    await sendPart(1);
    // A reload: what is stored already, so only the rest is sent.
    const listed = ok(
      await admin.client.get(`/_api/upload/parts?uploadId=${encodeURIComponent(init.uploadId)}&s3Key=${encodeURIComponent(init.s3Key)}`),
    );
    expect(listed).toEqual({
      listable: true,
      parts: [
        { partNumber: 1, etag: etags[0]!.replace(/"/g, ''), size: 10 * MiB },
        { partNumber: 2, etag: etags[1]!.replace(/"/g, ''), size: 10 * MiB },
      ],
    });
    await sendPart(2);
    // Parts given unquoted (as the client keeps them) and out of order: the server sorts them.
    const done = ok(
      await admin.client.post('/_api/upload/multipart-complete', {
        ...meta,
        s3Key: init.s3Key,
        uploadId: init.uploadId,
        fileSize: whole.length,
        parts: [2, 0, 1].map((i) => ({ PartNumber: i + 1, ETag: etags[i]!.replace(/"/g, '') })),
      }),
    );
    expect(done.file).toMatchObject({
      name: 'Discovery.zip',
      fileSize: whole.length,
      sha256Hash: sha256(whole),
      uploadId: init.uploadId,
      mimeType: 'application/zip',
    });
    expect(sha256(await download(admin.client, done.file.id))).toBe(sha256(whole));
    expect((await sessionOf(init.s3Key)).status).toBe('completed');
    const entry = (await auditActions(t, admin.organizationId)).find((e) => e.action === 'UPLOAD_FILE' && e.targetId === done.file.id);
    expect(entry?.details).toMatchObject({ multipart: true, parts: 3, sha256Hash: sha256(whole) });
  });

  it('records the sha256 and size of the bytes stored: a part sent again with other bytes counts, the earlier copy does not', async () => {
    const m = await createMatter(admin.client);
    const meta = { fileName: 'Exhibits.zip', fileType: 'application/zip', matterId: m.id, parentId: null };
    // Full parts of the planned size, then a short last part of an odd length.
    const parts = [randomBytes(10 * MiB), randomBytes(10 * MiB), randomBytes(10 * MiB), randomBytes(3 * MiB + 7)];
    const resent = randomBytes(10 * MiB);
    const whole = Buffer.concat([parts[0]!, resent, parts[2]!, parts[3]!]);
    const init = ok(await admin.client.post('/_api/upload/multipart-init', { ...meta, fileSize: whole.length }));
    const sendPart = async (partNumber: number, bytes: Buffer) => {
      const signed = ok(
        await admin.client.post('/_api/upload/presigned', { ...meta, partNumber, uploadId: init.uploadId, s3Key: init.s3Key }),
      );
      const res = await put(signed.url, bytes, signed.headers);
      expect(res.status).toBe(200);
      return res.headers.get('etag')!.replace(/"/g, '');
    };
    // Parts arrive out of order, two at a time.
    const etags = new Array<string>(4);
    await Promise.all([3, 1].map(async (i) => (etags[i] = await sendPart(i + 1, parts[i]!))));
    await Promise.all([0, 2].map(async (i) => (etags[i] = await sendPart(i + 1, parts[i]!))));
    const first = etags[1]!;
    etags[1] = await sendPart(2, resent);
    expect(etags[1]).not.toBe(first);
    const complete = (partEtags: string[]) =>
      admin.client.post('/_api/upload/multipart-complete', {
        ...meta,
        s3Key: init.s3Key,
        uploadId: init.uploadId,
        fileSize: whole.length,
        parts: partEtags.map((ETag, i) => ({ PartNumber: i + 1, ETag })),
      });
    // The copy that was replaced is gone: naming it is refused and the upload stays open.
    const stale = await complete([etags[0]!, first, etags[2]!, etags[3]!]);
    expect(stale.statusCode).toBe(400);
    expect(stale.json().error).toBe(UPLOAD_MSG.partsMismatch);
    const done = ok(await complete(etags));
    const downloaded = await download(admin.client, done.file.id);
    expect(downloaded.equals(whole)).toBe(true);
    expect(done.file).toMatchObject({ fileSize: downloaded.length, sha256Hash: sha256(downloaded) });
    const node = (await nodesOf(m.id)).find((n) => n.id === done.file.id)!;
    expect({ size: Number(node.fileSize), sha: node.sha256Hash }).toEqual({ size: downloaded.length, sha: sha256(downloaded) });
    // The store's own reading of the stored bytes agrees.
    expect(await t.ctx.store.sha256(init.s3Key)).toBe(sha256(downloaded));
  });

  it('refuses a completion with parts that were not uploaded (the upload stays open), and one whose size does not match', async () => {
    const m = await createMatter(admin.client);
    const meta = { fileName: 'big.mp4', fileType: 'video/mp4', matterId: m.id, parentId: null };
    const init = ok(await admin.client.post('/_api/upload/multipart-init', meta));
    const signed = ok(
      await admin.client.post('/_api/upload/presigned', { ...meta, partNumber: 1, uploadId: init.uploadId, s3Key: init.s3Key }),
    );
    const bytes = randomBytes(2048);
    const etag = (await put(signed.url, bytes, signed.headers)).headers.get('etag')!;
    const wrongParts = await admin.client.post('/_api/upload/multipart-complete', {
      ...meta,
      s3Key: init.s3Key,
      uploadId: init.uploadId,
      fileSize: bytes.length,
      parts: [
        { PartNumber: 1, ETag: etag },
        { PartNumber: 2, ETag: 'a'.repeat(32) },
      ],
    });
    expect(wrongParts.statusCode).toBe(400);
    expect(wrongParts.json().error).toBe(UPLOAD_MSG.partsMismatch);
    expect((await sessionOf(init.s3Key)).status).toBe('pending');
    // The size the client claims differs from what was stored: no node, nothing left.
    const wrongSize = await admin.client.post('/_api/upload/multipart-complete', {
      ...meta,
      s3Key: init.s3Key,
      uploadId: init.uploadId,
      fileSize: bytes.length + 5,
      parts: [{ PartNumber: 1, ETag: etag }],
    });
    expect(wrongSize.statusCode).toBe(400);
    expect(wrongSize.json().error).toBe(UPLOAD_MSG.sizeMismatch);
    expect(await nodesOf(m.id)).toHaveLength(0);
    expect(await t.ctx.store.head(init.s3Key)).toBeNull();
    expect((await sessionOf(init.s3Key)).status).toBe('failed');
  });

  it('refuses a completion whose size differs from the size given at the start, before assembling', async () => {
    const m = await createMatter(admin.client);
    const meta = { fileName: 'sized.zip', fileType: 'application/zip', matterId: m.id, parentId: null };
    const init = ok(await admin.client.post('/_api/upload/multipart-init', { ...meta, fileSize: 100 }));
    const r = await admin.client.post('/_api/upload/multipart-complete', {
      ...meta,
      s3Key: init.s3Key,
      uploadId: init.uploadId,
      fileSize: 99,
      parts: [{ PartNumber: 1, ETag: 'b'.repeat(32) }],
    });
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toBe(UPLOAD_MSG.sizeMismatch);
    expect((await sessionOf(init.s3Key)).status).toBe('failed');
    await expect(t.ctx.store.listParts({ key: init.s3Key, uploadId: init.uploadId })).rejects.toThrow(/No multipart upload/);
  });

  it('aborts: parts removed, audited, idempotent, and nothing can be completed afterwards', async () => {
    const m = await createMatter(admin.client);
    const meta = { fileName: 'cancel.zip', fileType: 'application/zip', matterId: m.id, parentId: null };
    const init = ok(await admin.client.post('/_api/upload/multipart-init', meta));
    const signed = ok(
      await admin.client.post('/_api/upload/presigned', { ...meta, partNumber: 1, uploadId: init.uploadId, s3Key: init.s3Key }),
    );
    const etag = (await put(signed.url, randomBytes(100), signed.headers)).headers.get('etag')!;
    expect(ok(await admin.client.post('/_api/upload/multipart-abort', { s3Key: init.s3Key, uploadId: init.uploadId }))).toEqual({
      success: true,
    });
    expect(ok(await admin.client.post('/_api/upload/multipart-abort', { s3Key: init.s3Key, uploadId: init.uploadId }))).toEqual({
      success: true,
    });
    await expect(t.ctx.store.listParts({ key: init.s3Key, uploadId: init.uploadId })).rejects.toThrow(/No multipart upload/);
    expect(
      (await admin.client.get(`/_api/upload/parts?uploadId=${init.uploadId}&s3Key=${encodeURIComponent(init.s3Key)}`)).statusCode,
    ).toBe(404);
    const late = await admin.client.post('/_api/upload/multipart-complete', {
      ...meta,
      s3Key: init.s3Key,
      uploadId: init.uploadId,
      fileSize: 100,
      parts: [{ PartNumber: 1, ETag: etag }],
    });
    expect(late.statusCode).toBe(404);
    expect(
      (await admin.client.post('/_api/upload/presigned', { ...meta, partNumber: 2, uploadId: init.uploadId, s3Key: init.s3Key }))
        .statusCode,
    ).toBe(404);
    const entries = (await auditActions(t, admin.organizationId)).filter((e) => e.action === 'UPLOAD_ABORTED');
    expect(entries).toHaveLength(1);
    expect(entries[0]!.details).toMatchObject({ fileName: 'cancel.zip', matterId: m.id });
  });

  it('binds part URLs, listing, completion and abort to the user who started the upload', async () => {
    const m = await createMatter(admin.client);
    const meta = { fileName: 'mine.zip', fileType: 'application/zip', matterId: m.id, parentId: null };
    const init = ok(await admin.client.post('/_api/upload/multipart-init', meta));
    const colleague = await addMember(t, admin.organizationId, 'user');
    for (const c of [colleague.client, other.client]) {
      expect(
        (await c.post('/_api/upload/presigned', { ...meta, partNumber: 1, uploadId: init.uploadId, s3Key: init.s3Key })).statusCode,
      ).toBe(404);
      expect((await c.get(`/_api/upload/parts?uploadId=${init.uploadId}&s3Key=${encodeURIComponent(init.s3Key)}`)).statusCode).toBe(404);
      expect((await c.post('/_api/upload/multipart-abort', { s3Key: init.s3Key, uploadId: init.uploadId })).json().error).toBe(
        UPLOAD_MSG.uploadNotFound,
      );
      expect(
        (
          await c.post('/_api/upload/multipart-complete', {
            ...meta,
            s3Key: init.s3Key,
            uploadId: init.uploadId,
            fileSize: 1,
            parts: [{ PartNumber: 1, ETag: 'c'.repeat(32) }],
          })
        ).statusCode,
      ).toBe(404);
    }
    // A key of this upload with another upload id is not this upload.
    expect(
      (await admin.client.post('/_api/upload/presigned', { ...meta, partNumber: 1, uploadId: 'f'.repeat(32), s3Key: init.s3Key }))
        .statusCode,
    ).toBe(404);
    expect((await sessionOf(init.s3Key)).status).toBe('pending');
  });
});

describe('upload rules', () => {
  let m: { id: string };
  beforeAll(async () => {
    m = await createMatter(admin.client);
  });
  const presign = (body: object, c = admin.client) =>
    c.post('/_api/upload/presigned', {
      fileName: 'ok.pdf',
      fileType: 'application/pdf',
      matterId: m.id,
      parentId: null,
      fileSize: 10,
      ...body,
    });
  const error = async (body: object) => {
    const r = await presign(body);
    expect(r.statusCode).toBe(400);
    return r.json().error;
  };

  it('checks file names with the published messages', async () => {
    expect(await error({ fileName: '' })).toBe('File name is required.');
    expect(await error({ fileName: `${'a'.repeat(252)}.pdf` })).toBe('File name must be less than 255 characters.');
    expect(await error({ fileName: 'a<b>.pdf' })).toBe('File name contains invalid characters.');
    expect(await error({ fileName: 'a\u0001.pdf' })).toBe('File name contains invalid characters.');
    expect(await error({ fileName: 'a..b.pdf' })).toBe("File name cannot contain '..' sequences.");
    expect(await error({ fileName: '.secret.pdf' })).toBe("File name cannot start with '.'.");
    expect(await error({ fileName: 'dir/a.pdf' })).toBe('File name cannot contain directory separators.');
    expect(await error({ fileName: 'dir\\a.pdf' })).toBe('File name cannot contain directory separators.');
    expect(await error({ fileName: '%2e%2e%2fetc.pdf' })).toBe('File name contains path traversal characters.');
    expect(await error({ fileName: 'report.pdf/' })).toBe('File name cannot contain directory separators.');
    expect((await presign({ fileName: `${'a'.repeat(251)}.pdf` })).statusCode).toBe(200);
  });

  it('checks type, size and ids with the published messages', async () => {
    expect(await error({ fileType: '' })).toBe('File type is required.');
    expect(await error({ matterId: 'm' })).toBe('Invalid Matter ID.');
    expect(await error({ parentId: 'p' })).toBe('Invalid Parent ID.');
    expect(await error({ fileSize: 0 })).toBe('File cannot be empty.');
    expect(await error({ fileSize: 100 * MiB })).toBe('Files of 100MB or more must be uploaded in parts (multipart).');
    expect(await error({ fileSize: 5 * 1024 ** 3 + 1 })).toBe('File size must be less than 5GB.');
    expect(await error({ partNumber: 1 })).toBe('uploadId and s3Key are required for multipart uploads.');
    expect(await error({ partNumber: 1, uploadId: 'u' })).toBe('uploadId and s3Key are required for multipart uploads.');
    expect(await error({ partNumber: 0, uploadId: 'u', s3Key: 'k' })).toBe(UPLOAD_MSG.partNumberInvalid);
    expect(await error({ s3Key: 'org/x' })).toBe(UPLOAD_MSG.partNumberRequired);
    expect(await error({ extra: true })).toBe(MSG.unknownFields(['extra']));
    const init = await admin.client.post('/_api/upload/multipart-init', {
      fileName: 'x.zip',
      fileType: 'application/zip',
      matterId: m.id,
      fileSize: 5 * 1024 ** 3 + 1,
    });
    expect(init.json().error).toBe('File size must be less than 5GB.');
    const complete = await admin.client.post('/_api/upload/multipart-complete', {
      s3Key: 'k',
      fileName: 'x.zip',
      fileType: 'application/zip',
      matterId: m.id,
      fileSize: 1,
      uploadId: 'u',
    });
    expect(complete.json().error).toBe('Parts are required to complete a multipart upload.');
    expect(
      (
        await admin.client.post('/_api/upload/multipart-complete', {
          s3Key: 'k',
          fileName: 'x.zip',
          fileType: 'application/zip',
          matterId: m.id,
          fileSize: 1,
          uploadId: 'u',
          parts: [],
        })
      ).json().error,
    ).toBe('Parts are required to complete a multipart upload.');
    expect((await admin.client.post('/_api/upload/multipart-abort', { s3Key: '', uploadId: 'u' })).json().error).toBe(
      'S3 key is required.',
    );
    expect((await admin.client.post('/_api/upload/multipart-abort', { s3Key: 'k' })).json().error).toBe('Upload ID is required.');
  });

  it('allows the listed legal formats and never executables', async () => {
    for (const [fileName, fileType] of [
      ['a.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['mail.eml', 'message/rfc822'],
      ['mail.msg', 'application/octet-stream'],
      ['scan.TIFF', 'image/tiff'],
      ['call.mp3', 'audio/mpeg'],
      ['clip.mov', 'video/quicktime'],
      ['data.csv', 'text/csv; charset=utf-8'],
      ['notes.txt', 'text/plain'],
      ['photo.jpeg', 'image/jpeg'],
    ]) {
      expect((await presign({ fileName, fileType })).statusCode, fileName).toBe(200);
    }
    for (const [fileName, fileType] of [
      ['setup.exe', 'application/octet-stream'],
      ['run.bat', 'application/octet-stream'],
      ['tool.msi', 'application/x-msi'],
      ['app.js', 'text/javascript'],
      ['s.ps1', 'text/plain'],
      ['x.sh', 'application/x-sh'],
      ['lib.dll', 'application/octet-stream'],
      ['a.jar', 'application/java-archive'],
      ['invoice.pdf.exe', 'application/pdf'],
      ['page.pdf', 'text/html'],
      ['README', 'text/plain'],
    ]) {
      expect(await error({ fileName, fileType }), fileName).toBe('Invalid file type.');
    }
  });

  it('keeps names unique in the folder at the start of an upload', async () => {
    await createFolder(admin.client, m.id, 'Taken.pdf');
    const r = await presign({ fileName: 'TAKEN.pdf' });
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toBe('An item named "TAKEN.pdf" already exists in this folder.');
  });

  it('needs canUpload; guests, other organizations, held and vaulted matters are refused', async () => {
    const reader = await addMember(t, admin.organizationId, 'user', { canUpload: false });
    expect((await presign({}, reader.client)).statusCode).toBe(403);
    expect(
      (await reader.client.post('/_api/upload/multipart-init', { fileName: 'a.zip', fileType: 'application/zip', matterId: m.id }))
        .statusCode,
    ).toBe(403);
    const guest = await addMember(t, admin.organizationId, 'guest', { canUpload: true });
    expect((await presign({}, guest.client)).json().error).toBe(MSG.accessDenied('guest'));
    const foreign = await presign({}, other.client);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('Matter not found.');
    const held = await createMatter(admin.client);
    await setMatterFlags(t, held.id, { legalHold: true });
    const h = await presign({ matterId: held.id });
    expect(h.statusCode).toBe(409);
    expect(h.json().error).toBe('Cannot upload files while matter is under legal hold');
    expect(
      (await admin.client.post('/_api/upload/multipart-init', { fileName: 'a.zip', fileType: 'application/zip', matterId: held.id })).json()
        .error,
    ).toBe(UPLOAD_MSG.legalHold);
    await setMatterFlags(t, held.id, { vaulted: true });
    expect((await presign({ matterId: held.id })).json().error).toBe('Cannot upload files to vaulted matter');
  });

  it('stops part URLs once the matter is put under legal hold', async () => {
    const mm = await createMatter(admin.client);
    const meta = { fileName: 'long.zip', fileType: 'application/zip', matterId: mm.id, parentId: null };
    const init = ok(await admin.client.post('/_api/upload/multipart-init', meta));
    await setMatterFlags(t, mm.id, { legalHold: true });
    const r = await admin.client.post('/_api/upload/presigned', { ...meta, partNumber: 1, uploadId: init.uploadId, s3Key: init.s3Key });
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toBe(UPLOAD_MSG.legalHold);
    // Aborting stays possible: it only cleans up.
    expect(ok(await admin.client.post('/_api/upload/multipart-abort', { s3Key: init.s3Key, uploadId: init.uploadId }))).toEqual({
      success: true,
    });
  });
});

describe('part URLs of a matter vaulted during the upload', () => {
  it('answers with the vaulted text, and hides the matter from users who may not see vaulted ones', async () => {
    const mm = await createMatter(admin.client);
    const meta = { fileName: 'vaulting.zip', fileType: 'application/zip', matterId: mm.id, parentId: null };
    const init = ok(await admin.client.post('/_api/upload/multipart-init', meta));
    await setMatterFlags(t, mm.id, { vaulted: true });
    const r = await admin.client.post('/_api/upload/presigned', { ...meta, partNumber: 1, uploadId: init.uploadId, s3Key: init.s3Key });
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toBe(UPLOAD_MSG.vaulted);

    // A member who may upload but not see vaulted matters is told nothing about the vault.
    const member = await addMember(t, admin.organizationId, 'user', { canViewVaulted: false });
    const other = await createMatter(admin.client);
    const theirs = { ...meta, matterId: other.id };
    const started = ok(await member.client.post('/_api/upload/multipart-init', theirs));
    await setMatterFlags(t, other.id, { vaulted: true });
    const hidden = await member.client.post('/_api/upload/presigned', {
      ...theirs,
      partNumber: 1,
      uploadId: started.uploadId,
      s3Key: started.s3Key,
    });
    expect(hidden.statusCode).toBe(403);
    expect(hidden.json().error).toBe(MATTER_MSG.vaultedHidden);
  });
});

describe('cleanup of incomplete uploads', () => {
  it('aborts multipart uploads older than 7 days and removes single PUTs never registered', async () => {
    const m = await createMatter(admin.client);
    const meta = { fileName: 'stale.zip', fileType: 'application/zip', matterId: m.id, parentId: null };
    const init = ok(await admin.client.post('/_api/upload/multipart-init', meta));
    const part = ok(
      await admin.client.post('/_api/upload/presigned', { ...meta, partNumber: 1, uploadId: init.uploadId, s3Key: init.s3Key }),
    );
    expect((await put(part.url, randomBytes(64))).status).toBe(200);
    const fresh = ok(await admin.client.post('/_api/upload/multipart-init', { ...meta, fileName: 'fresh.zip' }));
    const single = ok(
      await admin.client.post('/_api/upload/presigned', { ...meta, fileName: 'orphan.pdf', fileType: 'application/pdf', fileSize: 3 }),
    );
    expect((await put(single.url, Buffer.from('abc'), single.headers)).status).toBe(200);
    const eightDaysAgo = new Date(Date.now() - 8 * 86_400_000);
    await t.ctx.db
      .updateTable('uploadSessions')
      .set({ createdAt: eightDaysAgo, expiresAt: new Date(Date.now() - 86_400_000) })
      .where('s3Key', 'in', [init.s3Key, single.s3Key])
      .execute();

    await t.ctx.jobs.enqueue(t.ctx.db, 'cleanup-incomplete-uploads', {});
    expect(await t.ctx.jobs.runDueJobs(['cleanup-incomplete-uploads'])).toEqual({ completed: 1, failed: 0 });
    expect((await sessionOf(init.s3Key)).status).toBe('expired');
    expect((await sessionOf(single.s3Key)).status).toBe('expired');
    expect((await sessionOf(fresh.s3Key)).status).toBe('pending');
    await expect(t.ctx.store.listParts({ key: init.s3Key, uploadId: init.uploadId })).rejects.toThrow(/No multipart upload/);
    expect(await t.ctx.store.listParts({ key: fresh.s3Key, uploadId: fresh.uploadId })).toEqual([]);
    // The single PUT's object is swept at once; the delete-objects job the cleanup enqueued finds nothing left.
    expect(await t.ctx.store.head(single.s3Key)).toBeNull();
    await t.ctx.jobs.runDueJobs(['delete-objects']);
    expect(await t.ctx.store.head(single.s3Key)).toBeNull();
    const expired = (await auditActions(t, admin.organizationId)).filter((e) => e.action === 'UPLOAD_EXPIRED');
    expect(expired.map((e) => e.details.fileName).sort()).toEqual(['orphan.pdf', 'stale.zip']);
    // An expired upload can no longer be completed or continued.
    expect(
      (await admin.client.post('/_api/upload/presigned', { ...meta, partNumber: 2, uploadId: init.uploadId, s3Key: init.s3Key }))
        .statusCode,
    ).toBe(404);
  });
});
