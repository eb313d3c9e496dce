import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS, MSG } from '@strongroom/contracts';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { addMember, createFolder, createMatter, newOrganization, ok, type Member } from '../../../test/factories.js';

/**
 * Read-only matters: a person who holds no permission that changes matters sees every matter read-only, and a
 * matter whose retention has ended is read-only for everyone. Every write is refused with a 4xx and the text
 * 'Actions are disabled for read-only matters'; reading goes on.
 */
let t: TestApp;
let admin: Member;
let reader: Member;
beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Acme LLP');
  // A plain user whose write permissions were all switched off: may read and download, change nothing.
  reader = await addMember(t, admin.organizationId, 'user', { canUpload: false, canRename: false, canDelete: false }, 'Rhea Reader');
});
afterAll(() => t.shutdown());

const READ_ONLY = 'Actions are disabled for read-only matters';

describe('a person who may change nothing', () => {
  it('reads the matter but every change is refused with 403 and the read-only text, and nothing changes', async () => {
    const matter = await createMatter(admin.client, { matterName: 'Reader sees this' });
    const folder = await createFolder(admin.client, matter.id, 'Docs');
    const target = await createFolder(admin.client, matter.id, 'Target');

    const detail = await reader.client.get(`/_api/matters/detail?matterId=${matter.id}`);
    expect(detail.statusCode).toBe(200);

    const attempts = [
      reader.client.post('/_api/matters/update', { matterId: matter.id, expectedVersion: matter.version, matterName: 'Hijacked' }),
      reader.client.post('/_api/nodes/create', { matterId: matter.id, parentId: null, folderName: 'Sneaky' }),
      reader.client.post('/_api/nodes/rename', { nodeId: folder.id, newName: 'Sneaky' }),
      reader.client.post('/_api/nodes/move', { nodeId: folder.id, newParentId: target.id }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: READ_ONLY, code: 'PERMISSION_ERROR', details: { reason: 'READ_ONLY' } });
    }
    const after = ok(await admin.client.get(`/_api/matters/detail?matterId=${matter.id}`));
    expect(after.matter).toMatchObject({ matterName: 'Reader sees this', version: 1 });
    expect(after.nodes.map((n: { name: string }) => n.name).sort()).toEqual(['Docs', 'Target']);
  });

  it('is refused delete and every upload call with the same 403 read-only answer, and nothing is stored', async () => {
    const matter = await createMatter(admin.client, { matterName: 'Reader uploads nothing' });
    const folder = await createFolder(admin.client, matter.id, 'Keep me');
    const file = { fileName: 'brief.pdf', fileType: 'application/pdf', matterId: matter.id, parentId: null };
    const attempts = await Promise.all([
      reader.client.post('/_api/nodes/delete', { nodeId: folder.id }),
      reader.client.post('/_api/upload/presigned', { ...file, fileSize: 10 }),
      reader.client.post('/_api/upload/presigned', file),
      reader.client.post('/_api/upload/multipart-init', { ...file, fileSize: 200 * 1024 * 1024 }),
      reader.client.post('/_api/upload/multipart-init', file),
    ]);
    for (const res of attempts) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error: READ_ONLY, code: 'PERMISSION_ERROR', details: { reason: 'READ_ONLY' } });
    }
    const after = ok(await admin.client.get(`/_api/matters/detail?matterId=${matter.id}`));
    expect(after.nodes.map((n: { name: string }) => n.name)).toEqual(['Keep me']);
    const sessions = await t.ctx.db.selectFrom('uploadSessions').select('id').where('matterId', '=', matter.id).execute();
    expect(sessions).toEqual([]);
  });

  it('cannot complete an upload started before every write permission was taken away', async () => {
    const uploader = await addMember(t, admin.organizationId, 'user', { canUpload: true }, 'Uma Uploader');
    const matter = await createMatter(admin.client);
    const bytes = Buffer.from('signed engagement letter');
    const file = { fileName: 'letter.pdf', fileType: 'application/pdf', matterId: matter.id, parentId: null, fileSize: bytes.length };
    const signed = ok(await uploader.client.post('/_api/upload/presigned', file));
    const url = new URL(signed.url);
    const put = await t.app.inject({
      method: 'PUT',
      url: url.pathname + url.search,
      payload: bytes,
      headers: { ...signed.headers, 'content-length': String(bytes.length) },
    });
    expect(put.statusCode).toBe(200);
    await t.ctx.db
      .updateTable('users')
      .set({ permissions: JSON.stringify({ ...DEFAULT_PERMISSIONS.user, canUpload: false, canRename: false, canDelete: false }) })
      .where('id', '=', uploader.userId)
      .execute();
    const done = await uploader.client.post('/_api/upload/multipart-complete', { ...file, s3Key: signed.s3Key });
    expect(done.statusCode).toBe(403);
    expect(done.json()).toMatchObject({ error: READ_ONLY, details: { reason: 'READ_ONLY' } });
    expect(ok(await admin.client.get(`/_api/matters/detail?matterId=${matter.id}`)).nodes).toEqual([]);
  });

  it('keeps the plain permission answer for someone who holds another write permission but not the one needed', async () => {
    const renamer = await addMember(
      t,
      admin.organizationId,
      'user',
      { canUpload: false, canRename: true, canDelete: false },
      'Rita Renamer',
    );
    const deleter = await addMember(
      t,
      admin.organizationId,
      'user',
      { canUpload: false, canRename: false, canDelete: true },
      'Dan Deleter',
    );
    const matter = await createMatter(admin.client);
    const folder = await createFolder(admin.client, matter.id, 'Docs');
    const spare = await createFolder(admin.client, matter.id, 'Spare');
    const file = { fileName: 'brief.pdf', fileType: 'application/pdf', matterId: matter.id, parentId: null };
    const refused = await Promise.all([
      renamer.client.post('/_api/nodes/delete', { nodeId: folder.id }),
      renamer.client.post('/_api/upload/presigned', { ...file, fileSize: 10 }),
      renamer.client.post('/_api/upload/multipart-init', file),
      deleter.client.post('/_api/upload/presigned', { ...file, fileSize: 10 }),
      deleter.client.post('/_api/upload/multipart-init', file),
    ]);
    for (const res of refused) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ error: MSG.permissionDenied, code: 'PERMISSION_ERROR' });
    }
    // Each may still do what their permission allows.
    expect(ok(await deleter.client.post('/_api/nodes/delete', { nodeId: spare.id }))).toMatchObject({ success: true, deletedCount: 1 });
    expect((await renamer.client.post('/_api/nodes/rename', { nodeId: folder.id, newName: 'Docs 2' })).statusCode).toBe(200);
  });

  it('is not read-only when one write permission is held: a renamer may rename but not edit', async () => {
    const renamer = await addMember(t, admin.organizationId, 'user', { canUpload: false, canRename: true }, 'Remy Renamer');
    const matter = await createMatter(admin.client);
    const folder = await createFolder(admin.client, matter.id, 'Docs');
    expect((await renamer.client.post('/_api/nodes/rename', { nodeId: folder.id, newName: 'Docs 2' })).statusCode).toBe(200);
    const edit = await renamer.client.post('/_api/matters/update', { matterId: matter.id, expectedVersion: 1, matterName: 'No' });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().error).toBe(MSG.permissionDenied);
  });
});

describe('a matter whose retention has expired', () => {
  it('refuses every change with 409 and the read-only text, uploads included, while a running retention does not', async () => {
    const matter = await createMatter(admin.client);
    const folder = await createFolder(admin.client, matter.id, 'Docs');
    const target = await createFolder(admin.client, matter.id, 'Target');
    await t.ctx.db
      .updateTable('matters')
      .set({ retentionExpiresAt: new Date(Date.now() + 86_400_000) })
      .where('id', '=', matter.id)
      .execute();
    expect(
      (await admin.client.post('/_api/nodes/create', { matterId: matter.id, parentId: null, folderName: 'Still fine' })).statusCode,
    ).toBe(200);

    await t.ctx.db
      .updateTable('matters')
      .set({ retentionExpiresAt: new Date(Date.now() - 1000) })
      .where('id', '=', matter.id)
      .execute();
    const attempts = await Promise.all([
      admin.client.post('/_api/matters/update', { matterId: matter.id, expectedVersion: matter.version, description: 'late' }),
      admin.client.post('/_api/nodes/create', { matterId: matter.id, parentId: null, folderName: 'Too late' }),
      admin.client.post('/_api/nodes/rename', { nodeId: folder.id, newName: 'Too late' }),
      admin.client.post('/_api/nodes/move', { nodeId: folder.id, newParentId: target.id }),
      admin.client.post('/_api/nodes/delete', { nodeId: target.id }),
      admin.client.post('/_api/upload/presigned', {
        fileName: 'late.pdf',
        fileType: 'application/pdf',
        matterId: matter.id,
        parentId: null,
        fileSize: 10,
      }),
    ]);
    for (const res of attempts) {
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ error: READ_ONLY, details: { reason: 'RETENTION_EXPIRED' } });
    }
    const after = ok(await admin.client.get(`/_api/matters/detail?matterId=${matter.id}`));
    expect(after.matter.description).toBeNull();
    expect(after.nodes.map((n: { name: string }) => n.name).sort()).toEqual(['Docs', 'Still fine', 'Target']);
  });
});
