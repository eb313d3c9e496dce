/**
 * File versions over real HTTP (presigned URLs are fetched as a browser would): uploading a name that exists as a
 * new version or keeping both, the versions list, downloading an old version, restoring one, and who may.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_MSG, UPLOAD_MSG } from '@strongroom/contracts';
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

type OnConflict = 'newVersion' | 'keepBoth' | undefined;
type Target = { matterId: string; parentId?: string | null };

/** Presigns a single PUT and stores the bytes; answers what completion needs. */
async function stored(c: Member['client'], at: Target, fileName: string, bytes: Buffer, onConflict?: OnConflict) {
  const body = { fileName, fileType: 'application/pdf', matterId: at.matterId, parentId: at.parentId ?? null, fileSize: bytes.length };
  const signed = ok(await c.post('/_api/upload/presigned', { ...body, ...(onConflict ? { onConflict } : {}) }));
  const res = await fetch(signed.url, { method: 'PUT', body: new Uint8Array(bytes), headers: signed.headers });
  expect(res.status).toBe(200);
  return { ...body, s3Key: signed.s3Key as string, ...(onConflict ? { onConflict } : {}) };
}

async function upload(c: Member['client'], at: Target, fileName: string, bytes: Buffer, onConflict?: OnConflict) {
  const body = await stored(c, at, fileName, bytes, onConflict);
  return ok(await c.post('/_api/upload/multipart-complete', body)).file;
}

const versionsOf = async (c: Member['client'], nodeId: string) => ok(await c.get(`/_api/nodes/versions?nodeId=${nodeId}`)).versions;

async function download(c: Member['client'], nodeId: string, version?: number): Promise<Buffer> {
  const { url } = ok(await c.get(`/_api/nodes/download-url?nodeId=${nodeId}${version ? `&version=${version}` : ''}`));
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('uploading a name that exists', () => {
  it('adds a new version: same file, next number, mirrored fields, listed newest first, each version downloadable', async () => {
    const m = await createMatter(admin.client);
    const folder = await createFolder(admin.client, m.id, 'Pleadings');
    const at = { matterId: m.id, parentId: folder.id };
    const v1 = randomBytes(300);
    const v2 = randomBytes(500);
    const first = await upload(admin.client, at, 'Defence.pdf', v1);
    expect(first.currentVersion).toBe(1);
    // Without a choice the name is refused, as always.
    const refused = await admin.client.post('/_api/upload/presigned', {
      fileName: 'defence.PDF',
      fileType: 'application/pdf',
      ...at,
      fileSize: 10,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe(NODE_MSG.nameExists('defence.PDF'));

    const second = await upload(admin.client, at, 'Defence.pdf', v2, 'newVersion');
    expect(second).toMatchObject({ id: first.id, name: 'Defence.pdf', currentVersion: 2, fileSize: 500, sha256Hash: sha256(v2) });
    const versions = await versionsOf(admin.client, first.id);
    expect(versions).toEqual([
      expect.objectContaining({ versionNumber: 2, fileSize: 500, sha256Hash: sha256(v2), isCurrent: true, restoredFromVersion: null }),
      expect.objectContaining({ versionNumber: 1, fileSize: 300, sha256Hash: sha256(v1), isCurrent: false, restoredFromVersion: null }),
    ]);
    expect(versions[0]).toMatchObject({ createdByName: expect.any(String), createdBy: expect.any(String), mimeType: 'application/pdf' });
    expect(sha256(await download(admin.client, first.id))).toBe(sha256(v2));
    expect(sha256(await download(admin.client, first.id, 1))).toBe(sha256(v1));
    expect(sha256(await download(admin.client, first.id, 2))).toBe(sha256(v2));

    const audit = await auditActions(t, admin.organizationId);
    const uploads = audit.filter((a) => a.action === 'UPLOAD_FILE' && a.targetId === first.id);
    expect(uploads.map((a) => a.details.version)).toEqual([1, 2]);
    const downloads = audit.filter((a) => a.action === 'DOWNLOAD_FILE' && a.targetId === first.id);
    expect(downloads.map((a) => a.details.version)).toEqual([2, 1, 2]);
    expect(downloads[1]!.details.sha256Hash).toBe(sha256(v1));
  });

  it('answers a repeated completion with the same file, and a version of a file deleted meanwhile becomes a new file', async () => {
    const m = await createMatter(admin.client);
    const at = { matterId: m.id };
    const first = await upload(admin.client, at, 'Brief.pdf', randomBytes(100));
    const body = await stored(admin.client, at, 'Brief.pdf', randomBytes(120), 'newVersion');
    const done = ok(await admin.client.post('/_api/upload/multipart-complete', body)).file;
    const again = ok(await admin.client.post('/_api/upload/multipart-complete', body)).file;
    expect(again).toMatchObject({ id: done.id, currentVersion: 2, fileSize: 120 });
    // A later version does not change what the earlier upload's retry answers.
    await upload(admin.client, at, 'Brief.pdf', randomBytes(130), 'newVersion');
    expect(ok(await admin.client.post('/_api/upload/multipart-complete', body)).file).toMatchObject({ id: first.id, currentVersion: 3 });

    const pending = await stored(admin.client, at, 'Brief.pdf', randomBytes(140), 'newVersion');
    ok(await admin.client.post('/_api/nodes/delete', { nodeId: first.id }));
    const recreated = ok(await admin.client.post('/_api/upload/multipart-complete', pending)).file;
    expect(recreated.id).not.toBe(first.id);
    expect(recreated).toMatchObject({ name: 'Brief.pdf', currentVersion: 1, fileSize: 140 });
  });

  it('refuses a new version of a folder with 409, as a taken name', async () => {
    const m = await createMatter(admin.client);
    await createFolder(admin.client, m.id, 'Exhibits.pdf');
    const res = await admin.client.post('/_api/upload/presigned', {
      fileName: 'Exhibits.pdf',
      fileType: 'application/pdf',
      matterId: m.id,
      parentId: null,
      fileSize: 10,
      onConflict: 'newVersion',
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(NODE_MSG.nameExists('Exhibits.pdf'));
    const bad = await admin.client.post('/_api/upload/presigned', {
      fileName: 'x.pdf',
      fileType: 'application/pdf',
      matterId: m.id,
      fileSize: 10,
      onConflict: 'overwrite',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(UPLOAD_MSG.onConflictInvalid);
  });

  it('keeps both under the first free numbered name, decided at completion', async () => {
    const m = await createMatter(admin.client);
    const at = { matterId: m.id };
    await upload(admin.client, at, 'Defence.pdf', randomBytes(10));
    // Two keep-both uploads presigned before either completes: each takes the next free name at completion.
    const a = await stored(admin.client, at, 'Defence.pdf', randomBytes(11), 'keepBoth');
    const b = await stored(admin.client, at, 'Defence.pdf', randomBytes(12), 'keepBoth');
    const [fa, fb] = await Promise.all(
      [a, b].map(async (body) => ok(await admin.client.post('/_api/upload/multipart-complete', body)).file),
    );
    expect([fa.name, fb.name].sort()).toEqual(['Defence (2).pdf', 'Defence (3).pdf']);
    expect(fa.currentVersion).toBe(1);
    // A name never taken needs no number.
    expect((await upload(admin.client, at, 'Reply.pdf', randomBytes(5), 'keepBoth')).name).toBe('Reply.pdf');
  });

  it('adds a version through a multipart upload', async () => {
    const m = await createMatter(admin.client);
    const first = await upload(admin.client, { matterId: m.id }, 'Bundle.pdf', randomBytes(50));
    const bytes = randomBytes(2048);
    const meta = { fileName: 'Bundle.pdf', fileType: 'application/pdf', matterId: m.id, parentId: null };
    const init = ok(await admin.client.post('/_api/upload/multipart-init', { ...meta, fileSize: bytes.length, onConflict: 'newVersion' }));
    const part = ok(
      await admin.client.post('/_api/upload/presigned', { ...meta, partNumber: 1, uploadId: init.uploadId, s3Key: init.s3Key }),
    );
    const res = await fetch(part.url, { method: 'PUT', body: new Uint8Array(bytes), headers: part.headers });
    expect(res.status).toBe(200);
    const done = ok(
      await admin.client.post('/_api/upload/multipart-complete', {
        ...meta,
        s3Key: init.s3Key,
        uploadId: init.uploadId,
        fileSize: bytes.length,
        parts: [{ PartNumber: 1, ETag: res.headers.get('etag')! }],
        onConflict: 'newVersion',
      }),
    ).file;
    expect(done).toMatchObject({ id: first.id, currentVersion: 2, sha256Hash: sha256(bytes), fileSize: 2048 });
    // Without onConflict the start is refused, as always.
    const refused = await admin.client.post('/_api/upload/multipart-init', { ...meta, fileSize: bytes.length });
    expect(refused.statusCode).toBe(409);
  });

  it('makes two new-version uploads completed at once versions 2 and 3, none lost', async () => {
    const m = await createMatter(admin.client);
    const at = { matterId: m.id };
    const first = await upload(admin.client, at, 'Race.pdf', randomBytes(10));
    const bodies = await Promise.all([20, 30].map((n) => stored(admin.client, at, 'Race.pdf', randomBytes(n), 'newVersion')));
    const files = await Promise.all(bodies.map(async (b) => ok(await admin.client.post('/_api/upload/multipart-complete', b)).file));
    expect(files.every((f) => f.id === first.id)).toBe(true);
    const versions = await versionsOf(admin.client, first.id);
    expect(versions.map((v: { versionNumber: number }) => v.versionNumber)).toEqual([3, 2, 1]);
    expect(
      versions
        .slice(0, 2)
        .map((v: { fileSize: number }) => v.fileSize)
        .sort(),
    ).toEqual([20, 30]);
  });
});

describe('restoring a version', () => {
  it('makes a new version pointing at the old object, audited; the current one and unknown ones are refused', async () => {
    const m = await createMatter(admin.client);
    const at = { matterId: m.id };
    const v1 = randomBytes(64);
    const file = await upload(admin.client, at, 'Contract.pdf', v1);
    await upload(admin.client, at, 'Contract.pdf', randomBytes(80), 'newVersion');
    const restored = ok(await admin.client.post('/_api/nodes/restore-version', { nodeId: file.id, versionNumber: 1 })).node;
    expect(restored).toMatchObject({ id: file.id, currentVersion: 3, fileSize: 64, sha256Hash: sha256(v1), storagePath: file.storagePath });
    const versions = await versionsOf(admin.client, file.id);
    expect(versions[0]).toMatchObject({ versionNumber: 3, restoredFromVersion: 1, isCurrent: true, sha256Hash: sha256(v1) });
    expect(sha256(await download(admin.client, file.id))).toBe(sha256(v1));
    const audit = (await auditActions(t, admin.organizationId)).filter((a) => a.action === 'RESTORE_VERSION');
    expect(audit.at(-1)).toMatchObject({ targetId: file.id, details: expect.objectContaining({ restoredFromVersion: 1, version: 3 }) });

    const current = await admin.client.post('/_api/nodes/restore-version', { nodeId: file.id, versionNumber: 3 });
    expect(current.statusCode).toBe(400);
    expect(current.json().error).toBe(NODE_MSG.alreadyCurrentVersion);
    const unknown = await admin.client.post('/_api/nodes/restore-version', { nodeId: file.id, versionNumber: 9 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe(NODE_MSG.versionNotFound);
    const unknownDownload = await admin.client.get(`/_api/nodes/download-url?nodeId=${file.id}&version=9`);
    expect(unknownDownload.statusCode).toBe(404);
    expect(unknownDownload.json().error).toBe(NODE_MSG.versionNotFound);
    for (const versionNumber of [0, 1.5, '1']) {
      const bad = await admin.client.post('/_api/nodes/restore-version', { nodeId: file.id, versionNumber });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toBe(NODE_MSG.invalidVersionNumber);
    }
    expect((await admin.client.get(`/_api/nodes/download-url?nodeId=${file.id}&version=abc`)).json().error).toBe(
      NODE_MSG.invalidVersionNumber,
    );
  });

  it('is refused under legal hold and in the vault, as uploads of a new version are', async () => {
    const m = await createMatter(admin.client);
    const v1 = randomBytes(10);
    const v1Hash = sha256(v1);
    const file = await upload(admin.client, { matterId: m.id }, 'Held.pdf', v1);
    await upload(admin.client, { matterId: m.id }, 'Held.pdf', randomBytes(12), 'newVersion');
    await setMatterFlags(t, m.id, { legalHold: true });
    const held = await admin.client.post('/_api/nodes/restore-version', { nodeId: file.id, versionNumber: 1 });
    expect(held.statusCode).toBe(409);
    expect(held.json().error).toBe(NODE_MSG.legalHold);
    const upload409 = await admin.client.post('/_api/upload/presigned', {
      fileName: 'Held.pdf',
      fileType: 'application/pdf',
      matterId: m.id,
      fileSize: 10,
      onConflict: 'newVersion',
    });
    expect(upload409.statusCode).toBe(409);
    expect(upload409.json().error).toBe(UPLOAD_MSG.legalHold);
    // Reading every version stays allowed under hold.
    expect((await versionsOf(admin.client, file.id)).length).toBe(2);
    await setMatterFlags(t, m.id, { legalHold: false, vaulted: true });
    const vaulted = await admin.client.post('/_api/nodes/restore-version', { nodeId: file.id, versionNumber: 1 });
    expect(vaulted.statusCode).toBe(409);
    expect(vaulted.json().error).toBe(NODE_MSG.vaulted);
    // An earlier version of a vaulted file still downloads (its object stays in the working store).
    expect(sha256(await download(admin.client, file.id, 1))).toBe(v1Hash);
  });
});

describe('who may see and change versions', () => {
  it('needs canUpload to restore; another organization and an unshared guest get 404', async () => {
    const m = await createMatter(admin.client);
    const file = await upload(admin.client, { matterId: m.id }, 'Secret.pdf', randomBytes(10));
    await upload(admin.client, { matterId: m.id }, 'Secret.pdf', randomBytes(11), 'newVersion');
    const reader = await addMember(t, admin.organizationId, 'user', { canUpload: false, canRename: true, canRetrieve: true });
    expect((await versionsOf(reader.client, file.id)).length).toBe(2);
    expect((await reader.client.post('/_api/nodes/restore-version', { nodeId: file.id, versionNumber: 1 })).statusCode).toBe(403);

    const guest = await addMember(t, admin.organizationId, 'guest');
    expect((await guest.client.get(`/_api/nodes/versions?nodeId=${file.id}`)).statusCode).toBe(404);
    expect((await guest.client.get(`/_api/nodes/download-url?nodeId=${file.id}&version=1`)).statusCode).toBe(404);

    for (const res of [
      await other.client.get(`/_api/nodes/versions?nodeId=${file.id}`),
      await other.client.get(`/_api/nodes/download-url?nodeId=${file.id}&version=1`),
      await other.client.post('/_api/nodes/restore-version', { nodeId: file.id, versionNumber: 1 }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe(NODE_MSG.itemNotFound);
    }
    // Nothing changed.
    expect((await versionsOf(admin.client, file.id)).map((v: { versionNumber: number }) => v.versionNumber)).toEqual([2, 1]);
  });

  it('answers 400 for the versions of a folder', async () => {
    const m = await createMatter(admin.client);
    const folder = await createFolder(admin.client, m.id, 'Folder');
    const res = await admin.client.get(`/_api/nodes/versions?nodeId=${folder.id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(NODE_MSG.versionsFilesOnly);
  });
});

describe('previewing a version', () => {
  it('answers an inline link to the bytes of the version asked for, audited with it; unknown and bad numbers are refused', async () => {
    const m = await createMatter(admin.client);
    const first = randomBytes(300);
    const second = randomBytes(500);
    const file = await upload(admin.client, { matterId: m.id }, 'Witness.pdf', first);
    await upload(admin.client, { matterId: m.id }, 'Witness.pdf', second, 'newVersion');

    const old = ok(await admin.client.get(`/_api/nodes/preview-url?nodeId=${file.id}&version=1`));
    expect(old).toMatchObject({ fileName: 'Witness.pdf', previewKind: 'pdf' });
    const res = await fetch(old.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^inline/);
    expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(first));
    const current = ok(await admin.client.get(`/_api/nodes/preview-url?nodeId=${file.id}`));
    expect(sha256(Buffer.from(await (await fetch(current.url)).arrayBuffer()))).toBe(sha256(second));
    const audit = await t.ctx.db
      .selectFrom('auditLogs')
      .select('details')
      .where('action', '=', 'PREVIEW_FILE')
      .where('targetId', '=', file.id)
      .orderBy('id')
      .execute();
    expect(audit.map((a) => (a.details as { version?: number }).version)).toEqual([1, 2]);

    const unknown = await admin.client.get(`/_api/nodes/preview-url?nodeId=${file.id}&version=9`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe(NODE_MSG.versionNotFound);
    const bad = await admin.client.get(`/_api/nodes/preview-url?nodeId=${file.id}&version=0`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(NODE_MSG.invalidVersionNumber);
    // Another organization's member learns nothing of the file or its versions.
    expect((await other.client.get(`/_api/nodes/preview-url?nodeId=${file.id}&version=1`)).statusCode).toBe(404);
  });
});
