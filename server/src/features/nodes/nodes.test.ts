import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, NODE_MSG } from '@strongroom/contracts';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import {
  addMember,
  auditActions,
  createFolder,
  createMatter,
  newOrganization,
  ok,
  setMatterFlags,
  uploadFile,
  type Member,
} from '../../../test/factories.js';

let t: TestApp;
let admin: Member;
let other: Member;
beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Acme LLP');
  other = await newOrganization(t, 'Other & Partners');
});
afterAll(() => t.shutdown());

type TreeNode = { id: string; name: string; parentId: string | null; children: TreeNode[] };
async function tree(matterId: string, c = admin.client): Promise<TreeNode[]> {
  return ok(await c.get(`/_api/matters/detail?matterId=${matterId}`)).nodes;
}

describe('POST /_api/nodes/create', () => {
  it('creates folders at the root and inside folders, audited', async () => {
    const m = await createMatter(admin.client);
    const a = await createFolder(admin.client, m.id, '  Pleadings  ');
    expect(a).toMatchObject({
      name: 'Pleadings',
      nodeType: 'folder',
      parentId: null,
      matterId: m.id,
      path: '/Pleadings',
      fileSize: null,
      sha256Hash: null,
    });
    const b = ok(await admin.client.post('/_api/nodes/create', { matterId: m.id, folderName: 'No parent field' })).node;
    expect(b.parentId).toBeNull();
    const c = await createFolder(admin.client, m.id, 'Drafts', a.id);
    expect(c).toMatchObject({ parentId: a.id, path: '/Pleadings/Drafts' });
    const entry = (await auditActions(t, admin.organizationId)).find((e) => e.action === 'CREATE_FOLDER' && e.targetId === c.id);
    expect(entry?.details).toMatchObject({ matterId: m.id, name: 'Drafts', parentId: a.id });
  });

  it('keeps names unique within a folder, ignoring case', async () => {
    const m = await createMatter(admin.client);
    const a = await createFolder(admin.client, m.id, 'Evidence');
    const dup = await admin.client.post('/_api/nodes/create', { matterId: m.id, parentId: null, folderName: 'EVIDENCE' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toEqual({
      error: 'An item named "EVIDENCE" already exists in this folder.',
      code: 'CONFLICT_ERROR',
      details: { reason: 'NAME_TAKEN', field: 'name' },
    });
    // The same name in another folder is fine.
    await createFolder(admin.client, m.id, 'Evidence', a.id);
    // Two at once: one wins.
    const [x, y] = await Promise.all([
      admin.client.post('/_api/nodes/create', { matterId: m.id, parentId: null, folderName: 'Race' }),
      admin.client.post('/_api/nodes/create', { matterId: m.id, parentId: null, folderName: 'race' }),
    ]);
    expect([x.statusCode, y.statusCode].sort()).toEqual([200, 409]);
    const lost = x.statusCode === 409 ? x : y;
    expect(lost.json().details).toEqual({ reason: 'NAME_TAKEN', field: 'name' });
  });

  it('validates with the published messages', async () => {
    const m = await createMatter(admin.client);
    const v = async (body: object) => {
      const r = await admin.client.post('/_api/nodes/create', body);
      expect(r.statusCode).toBe(400);
      return r.json().error;
    };
    expect(await v({ matterId: m.id, parentId: null, folderName: '' })).toBe('Folder name cannot be empty.');
    expect(await v({ matterId: m.id, parentId: null, folderName: '   ' })).toBe('Folder name cannot be empty.');
    expect(await v({ matterId: m.id, parentId: null, folderName: 'x'.repeat(256) })).toBe('Folder name is too long.');
    expect(await v({ matterId: m.id, parentId: null, folderName: 'a/b' })).toBe('Folder name cannot contain directory separators.');
    expect(await v({ matterId: m.id, parentId: null, folderName: 'a\\b' })).toBe('Folder name cannot contain directory separators.');
    expect(await v({ matterId: m.id, parentId: null, folderName: 'a..b' })).toBe("Folder name cannot contain '..' sequences.");
    expect(await v({ matterId: m.id, parentId: null, folderName: '.hidden' })).toBe("Folder name cannot start with '.'.");
    expect(await v({ matterId: m.id, parentId: null, folderName: 'a%2fb' })).toBe('Folder name contains path traversal characters.');
    expect(await v({ matterId: m.id, parentId: null, folderName: 'what?' })).toBe('Folder name contains invalid characters.');
    expect(await v({ matterId: m.id, parentId: null, folderName: 'tab\there' })).toBe('Folder name contains invalid characters.');
    expect(await v({ matterId: 'x', parentId: null, folderName: 'A' })).toBe('Invalid Matter ID format.');
    expect(await v({ matterId: m.id, parentId: 'x', folderName: 'A' })).toBe('Invalid Parent ID format.');
    expect(await v({ matterId: m.id, parentId: null, folderName: 'A', x: 1 })).toBe(MSG.unknownFields(['x']));
    expect((await createFolder(admin.client, m.id, 'x'.repeat(255))).name).toHaveLength(255);
  });

  it('needs a folder of the same matter as parent', async () => {
    const m = await createMatter(admin.client);
    const m2 = await createMatter(admin.client);
    const elsewhere = await createFolder(admin.client, m2.id, 'Elsewhere');
    const r = await admin.client.post('/_api/nodes/create', { matterId: m.id, parentId: elsewhere.id, folderName: 'X' });
    expect(r.statusCode).toBe(404);
    expect(r.json().error).toBe('Item not found.');
    const file = await uploadFile(t, admin.client, m.id, 'brief.pdf', Buffer.from('%PDF-1.4 brief'));
    const r2 = await admin.client.post('/_api/nodes/create', { matterId: m.id, parentId: file.id, folderName: 'X' });
    expect(r2.statusCode).toBe(400);
    expect(r2.json().error).toBe(NODE_MSG.targetNotFolder);
  });

  it('refuses under legal hold and in a vaulted matter with their own texts', async () => {
    const m = await createMatter(admin.client);
    await setMatterFlags(t, m.id, { legalHold: true });
    const r = await admin.client.post('/_api/nodes/create', { matterId: m.id, parentId: null, folderName: 'X' });
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toBe('Cannot create folders while matter is under legal hold');
    await setMatterFlags(t, m.id, { vaulted: true });
    const r2 = await admin.client.post('/_api/nodes/create', { matterId: m.id, parentId: null, folderName: 'X' });
    expect(r2.json().error).toBe('Cannot create folders in vaulted matter');
  });

  it('needs canUpload, refuses guests and answers 404 for another organization', async () => {
    const m = await createMatter(admin.client);
    const reader = await addMember(t, admin.organizationId, 'user', { canUpload: false });
    expect((await reader.client.post('/_api/nodes/create', { matterId: m.id, parentId: null, folderName: 'X' })).statusCode).toBe(403);
    const guest = await addMember(t, admin.organizationId, 'guest', { canUpload: true });
    expect((await guest.client.post('/_api/nodes/create', { matterId: m.id, parentId: null, folderName: 'X' })).json().error).toBe(
      MSG.accessDenied('guest'),
    );
    const r = await other.client.post('/_api/nodes/create', { matterId: m.id, parentId: null, folderName: 'X' });
    expect(r.statusCode).toBe(404);
    expect(r.json().error).toBe('Matter not found.');
    expect((await admin.client.post('/_api/nodes/create', { matterId: randomUUID(), parentId: null, folderName: 'X' })).statusCode).toBe(
      404,
    );
  });
});

describe('POST /_api/nodes/rename', () => {
  it('renames a folder and answers the node with its matterId', async () => {
    const m = await createMatter(admin.client);
    const a = await createFolder(admin.client, m.id, 'Old');
    const sub = await createFolder(admin.client, m.id, 'Inner', a.id);
    const r = ok(await admin.client.post('/_api/nodes/rename', { nodeId: a.id, newName: 'New' }));
    expect(r.node).toMatchObject({ id: a.id, name: 'New', matterId: m.id, path: '/New' });
    expect((await tree(m.id))[0]!.children[0]).toMatchObject({ id: sub.id, path: '/New/Inner' });
    // Only the case changes: allowed (the clash check ignores the node itself).
    expect(ok(await admin.client.post('/_api/nodes/rename', { nodeId: a.id, newName: 'NEW' })).node.name).toBe('NEW');
    // Unchanged: answers the node, nothing audited.
    const before = (await auditActions(t, admin.organizationId)).filter((e) => e.action === 'RENAME_NODE').length;
    expect(ok(await admin.client.post('/_api/nodes/rename', { nodeId: a.id, newName: 'NEW' })).node.name).toBe('NEW');
    const renames = (await auditActions(t, admin.organizationId)).filter((e) => e.action === 'RENAME_NODE');
    expect(renames).toHaveLength(before);
    expect(renames.at(-1)).toMatchObject({ targetId: a.id, details: { from: 'New', to: 'NEW', matterId: m.id } });
  });

  it('refuses a name the folder already holds, and bad input', async () => {
    const m = await createMatter(admin.client);
    const a = await createFolder(admin.client, m.id, 'One');
    await createFolder(admin.client, m.id, 'Two');
    const clash = await admin.client.post('/_api/nodes/rename', { nodeId: a.id, newName: 'two' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toEqual({
      error: 'An item named "two" already exists in this folder.',
      code: 'CONFLICT_ERROR',
      details: { reason: 'NAME_TAKEN', field: 'name' },
    });
    const v = async (body: object) => (await admin.client.post('/_api/nodes/rename', body)).json().error;
    expect(await v({ nodeId: a.id, newName: '' })).toBe('Name cannot be empty.');
    expect(await v({ nodeId: a.id, newName: 'y'.repeat(256) })).toBe('Name is too long.');
    expect(await v({ nodeId: a.id, newName: '../x' })).toBe("Name cannot contain '..' sequences.");
    expect(await v({ nodeId: a.id, newName: 'a:b' })).toBe('Name contains invalid characters.');
    expect(await v({ nodeId: 'nope', newName: 'x' })).toBe('Invalid Node ID format.');
  });

  it('needs canRename; hold, vault and other organizations are refused', async () => {
    const m = await createMatter(admin.client);
    const a = await createFolder(admin.client, m.id, 'F');
    const user = await addMember(t, admin.organizationId, 'user');
    expect((await user.client.post('/_api/nodes/rename', { nodeId: a.id, newName: 'G' })).statusCode).toBe(403);
    const renamer = await addMember(t, admin.organizationId, 'user', { canRename: true });
    expect(ok(await renamer.client.post('/_api/nodes/rename', { nodeId: a.id, newName: 'G' })).node.name).toBe('G');
    const foreign = await other.client.post('/_api/nodes/rename', { nodeId: a.id, newName: 'H' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('Item not found.');
    await setMatterFlags(t, m.id, { legalHold: true });
    const held = await admin.client.post('/_api/nodes/rename', { nodeId: a.id, newName: 'H' });
    expect(held.statusCode).toBe(409);
    expect(held.json().error).toBe('Actions are disabled due to legal hold');
    await setMatterFlags(t, m.id, { vaulted: true });
    expect((await admin.client.post('/_api/nodes/rename', { nodeId: a.id, newName: 'H' })).json().error).toBe(
      'Actions are disabled for vaulted matters',
    );
  });
});

describe('POST /_api/nodes/rename of a file', () => {
  const renames = async (nodeId: string) =>
    (await auditActions(t, admin.organizationId)).filter((e) => e.action === 'RENAME_NODE' && e.targetId === nodeId);
  const fileRow = (id: string) =>
    t.ctx.db.selectFrom('nodes').select(['name', 'storagePath', 'sha256Hash', 'fileSize']).where('id', '=', id).executeTakeFirstOrThrow();

  it('renames a file, audited; its stored object, hash and size stay, and downloads use the new name', async () => {
    const m = await createMatter(admin.client);
    const folder = await createFolder(admin.client, m.id, 'Pleadings');
    const file = await uploadFile(t, admin.client, m.id, 'draft.pdf', Buffer.from('the claim'), folder.id);
    const before = await fileRow(file.id);
    const r = ok(await admin.client.post('/_api/nodes/rename', { nodeId: file.id, newName: '  Claim (final).pdf ' }));
    expect(r.node).toMatchObject({ id: file.id, name: 'Claim (final).pdf', nodeType: 'file', path: '/Pleadings/Claim (final).pdf' });
    expect(r.undoId).toMatch(/^[0-9a-f-]{36}$/);
    expect(await fileRow(file.id)).toEqual({ ...before, name: 'Claim (final).pdf' });
    expect((await renames(file.id)).at(-1)).toMatchObject({
      details: { matterId: m.id, nodeType: 'file', from: 'draft.pdf', to: 'Claim (final).pdf' },
    });
    const url = new URL(ok(await admin.client.get(`/_api/nodes/download-url?nodeId=${file.id}`)).url);
    const got = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(got.body).toBe('the claim');
    expect(got.headers['content-disposition']).toContain('Claim (final).pdf');
    expect(got.headers['content-disposition']).not.toContain('draft.pdf');
  });

  it('refuses a name its folder already holds, ignoring case, and the name rules', async () => {
    const m = await createMatter(admin.client);
    const file = await uploadFile(t, admin.client, m.id, 'memo.pdf', Buffer.from('memo'));
    await uploadFile(t, admin.client, m.id, 'Letter.pdf', Buffer.from('letter'));
    await createFolder(admin.client, m.id, 'Archive');
    for (const name of ['LETTER.PDF', 'archive']) {
      const clash = await admin.client.post('/_api/nodes/rename', { nodeId: file.id, newName: name });
      expect(clash.statusCode).toBe(409);
      expect(clash.json()).toEqual({
        error: `An item named "${name}" already exists in this folder.`,
        code: 'CONFLICT_ERROR',
        details: { reason: 'NAME_TAKEN', field: 'name' },
      });
    }
    const v = async (newName: string) => (await admin.client.post('/_api/nodes/rename', { nodeId: file.id, newName })).json().error;
    expect(await v('.hidden.pdf')).toBe("Name cannot start with '.'.");
    expect(await v('a/b.pdf')).toBe('Name cannot contain directory separators.');
    expect(await v('a?.pdf')).toBe('Name contains invalid characters.');
    // Only the case changes: allowed.
    expect(ok(await admin.client.post('/_api/nodes/rename', { nodeId: file.id, newName: 'MEMO.pdf' })).node.name).toBe('MEMO.pdf');
    expect((await renames(file.id)).map((e) => e.details.to)).toEqual(['MEMO.pdf']);
  });

  it('needs canRename; another organization, hold and vault are refused', async () => {
    const m = await createMatter(admin.client);
    const file = await uploadFile(t, admin.client, m.id, 'deed.pdf', Buffer.from('deed'));
    const uploader = await addMember(t, admin.organizationId, 'user', { canUpload: true, canRename: false });
    const denied = await uploader.client.post('/_api/nodes/rename', { nodeId: file.id, newName: 'x.pdf' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ error: MSG.permissionDenied, code: 'PERMISSION_ERROR' });
    const foreign = await other.client.post('/_api/nodes/rename', { nodeId: file.id, newName: 'x.pdf' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe(NODE_MSG.itemNotFound);
    await setMatterFlags(t, m.id, { legalHold: true });
    const held = await admin.client.post('/_api/nodes/rename', { nodeId: file.id, newName: 'x.pdf' });
    expect(held.statusCode).toBe(409);
    expect(held.json()).toMatchObject({ error: NODE_MSG.legalHold, details: { reason: 'LEGAL_HOLD' } });
    await setMatterFlags(t, m.id, { vaulted: true });
    expect((await admin.client.post('/_api/nodes/rename', { nodeId: file.id, newName: 'x.pdf' })).json().error).toBe(NODE_MSG.vaulted);
    expect((await fileRow(file.id)).name).toBe('deed.pdf');
    expect(await renames(file.id)).toEqual([]);
  });

  it('undo gives the file its former name back', async () => {
    const m = await createMatter(admin.client);
    const file = await uploadFile(t, admin.client, m.id, 'exhibit-a.pdf', Buffer.from('a'));
    const before = await fileRow(file.id);
    const { undoId } = ok(await admin.client.post('/_api/nodes/rename', { nodeId: file.id, newName: 'Exhibit A.pdf' }));
    const res = ok(await admin.client.post('/_api/undo', { undoId }));
    expect(res).toMatchObject({ kind: 'node.rename', targetId: file.id, matterId: m.id });
    expect(await fileRow(file.id)).toEqual(before);
    const entry = (await auditActions(t, admin.organizationId)).find((e) => e.action === 'UNDO_RENAME_NODE' && e.targetId === file.id);
    expect(entry?.details).toMatchObject({ nodeType: 'file', from: 'Exhibit A.pdf', to: 'exhibit-a.pdf', undoId });
  });

  it('two renames sent at once: they run one after the other and the audit chain ends at the final name', async () => {
    const m = await createMatter(admin.client);
    const file = await uploadFile(t, admin.client, m.id, 'scan.pdf', Buffer.from('scan'));
    const [x, y] = await Promise.all([
      admin.client.post('/_api/nodes/rename', { nodeId: file.id, newName: 'Scan A.pdf' }),
      admin.client.post('/_api/nodes/rename', { nodeId: file.id, newName: 'Scan B.pdf' }),
    ]);
    const final = (await fileRow(file.id)).name;
    expect(['Scan A.pdf', 'Scan B.pdf']).toContain(final);
    const succeeded = [x, y].filter((r) => r.statusCode === 200);
    // Either both went through, one after the other, or one was refused; never a 5xx.
    for (const r of [x, y]) expect([200, 409]).toContain(r.statusCode);
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    const chain = (await renames(file.id)).map((e) => e.details as { from: string; to: string });
    expect(chain).toHaveLength(succeeded.length);
    expect(chain[0]!.from).toBe('scan.pdf');
    for (let i = 1; i < chain.length; i++) expect(chain[i]!.from).toBe(chain[i - 1]!.to);
    expect(chain.at(-1)!.to).toBe(final);
  });
});

describe('POST /_api/nodes/move', () => {
  it('moves files and folders between folders and to the root, audited', async () => {
    const m = await createMatter(admin.client);
    const a = await createFolder(admin.client, m.id, 'A');
    const b = await createFolder(admin.client, m.id, 'B');
    const file = await uploadFile(t, admin.client, m.id, 'exhibit.pdf', Buffer.from('exhibit'), a.id);
    expect(ok(await admin.client.post('/_api/nodes/move', { nodeId: file.id, newParentId: b.id })).node).toMatchObject({
      parentId: b.id,
      path: '/B/exhibit.pdf',
    });
    expect(ok(await admin.client.post('/_api/nodes/move', { nodeId: a.id, newParentId: b.id })).node).toMatchObject({
      parentId: b.id,
      path: '/B/A',
    });
    expect(ok(await admin.client.post('/_api/nodes/move', { nodeId: a.id, newParentId: null })).node).toMatchObject({
      parentId: null,
      path: '/A',
    });
    const moves = (await auditActions(t, admin.organizationId)).filter((e) => e.action === 'MOVE_NODE' && e.targetId === a.id);
    expect(moves.map((e) => e.details)).toEqual([
      expect.objectContaining({ fromParentId: null, toParentId: b.id }),
      expect.objectContaining({ fromParentId: b.id, toParentId: null }),
    ]);
  });

  it('never moves a folder into itself or below itself, nor to where it already is', async () => {
    const m = await createMatter(admin.client);
    const a = await createFolder(admin.client, m.id, 'A');
    const b = await createFolder(admin.client, m.id, 'B', a.id);
    const c = await createFolder(admin.client, m.id, 'C', b.id);
    for (const target of [a.id, b.id, c.id]) {
      const r = await admin.client.post('/_api/nodes/move', { nodeId: a.id, newParentId: target });
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe(NODE_MSG.moveIntoItself);
    }
    const same = await admin.client.post('/_api/nodes/move', { nodeId: c.id, newParentId: b.id });
    expect(same.statusCode).toBe(400);
    expect(same.json().error).toBe(NODE_MSG.moveSameParent);
    expect((await admin.client.post('/_api/nodes/move', { nodeId: a.id, newParentId: null })).json().error).toBe(NODE_MSG.moveSameParent);
  });

  it('refuses a name clash in the target folder and a target of another matter', async () => {
    const m = await createMatter(admin.client);
    const a = await createFolder(admin.client, m.id, 'A');
    await createFolder(admin.client, m.id, 'Notes', a.id);
    const notes = await createFolder(admin.client, m.id, 'notes');
    const r = await admin.client.post('/_api/nodes/move', { nodeId: notes.id, newParentId: a.id });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({
      error: 'An item named "notes" already exists in this folder.',
      code: 'CONFLICT_ERROR',
      details: { reason: 'NAME_TAKEN', field: 'name' },
    });
    const m2 = await createMatter(admin.client);
    const far = await createFolder(admin.client, m2.id, 'Far');
    expect((await admin.client.post('/_api/nodes/move', { nodeId: notes.id, newParentId: far.id })).statusCode).toBe(404);
    expect((await admin.client.post('/_api/nodes/move', { nodeId: notes.id, newParentId: 'bad' })).json().error).toBe(
      'Invalid Parent ID format.',
    );
  });

  it('keeps the tree valid when two moves that would make a cycle race', async () => {
    for (let round = 0; round < 3; round++) {
      const m = await createMatter(admin.client);
      const a = await createFolder(admin.client, m.id, 'A');
      const b = await createFolder(admin.client, m.id, 'B');
      const [x, y] = await Promise.all([
        admin.client.post('/_api/nodes/move', { nodeId: a.id, newParentId: b.id }),
        admin.client.post('/_api/nodes/move', { nodeId: b.id, newParentId: a.id }),
      ]);
      expect([x.statusCode, y.statusCode].sort()).toEqual([200, 400]);
      expect((x.statusCode === 400 ? x : y).json().error).toBe(NODE_MSG.moveIntoItself);
      // Exactly one root folder with the other inside it.
      const roots = await tree(m.id);
      expect(roots).toHaveLength(1);
      expect(roots[0]!.children).toHaveLength(1);
      const rows = await t.ctx.db.selectFrom('nodes').select(['id', 'parentId']).where('matterId', '=', m.id).execute();
      expect(rows.filter((r) => r.parentId === null)).toHaveLength(1);
    }
  });

  it('needs canRename; hold and another organization are refused', async () => {
    const m = await createMatter(admin.client);
    const a = await createFolder(admin.client, m.id, 'A');
    const b = await createFolder(admin.client, m.id, 'B');
    const user = await addMember(t, admin.organizationId, 'user');
    expect((await user.client.post('/_api/nodes/move', { nodeId: a.id, newParentId: b.id })).statusCode).toBe(403);
    expect((await other.client.post('/_api/nodes/move', { nodeId: a.id, newParentId: null })).statusCode).toBe(404);
    await setMatterFlags(t, m.id, { legalHold: true });
    expect((await admin.client.post('/_api/nodes/move', { nodeId: a.id, newParentId: b.id })).json().error).toBe(
      'Actions are disabled due to legal hold',
    );
  });
});

describe('POST /_api/nodes/delete', () => {
  it('moves a folder with its subtree to the recycle bin in one go; the stored objects stay until the bin is emptied', async () => {
    const m = await createMatter(admin.client);
    const top = await createFolder(admin.client, m.id, 'Top');
    const mid = await createFolder(admin.client, m.id, 'Mid', top.id);
    const keep = await createFolder(admin.client, m.id, 'Keep');
    const f1 = await uploadFile(t, admin.client, m.id, 'one.pdf', Buffer.from('one'), top.id);
    const f2 = await uploadFile(t, admin.client, m.id, 'two.pdf', Buffer.from('two'), mid.id);
    const f3 = await uploadFile(t, admin.client, m.id, 'three.pdf', Buffer.from('three'), keep.id);

    const r = ok(await admin.client.post('/_api/nodes/delete', { nodeId: top.id }));
    expect(r).toMatchObject({ success: true, deletedCount: 4, binEntryId: expect.any(String), undoId: expect.any(String) });
    const days = (new Date(r.purgeAfter).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    // The tree shows only what is live; the binned rows stay, marked, and nothing is queued for deletion.
    expect((await tree(m.id)).map((n) => n.id).sort()).toEqual([keep.id].sort());
    const binned = await t.ctx.db.selectFrom('nodes').select('id').where('binEntryId', '=', r.binEntryId).execute();
    expect(binned.map((x) => x.id).sort()).toEqual([top.id, mid.id, f1.id, f2.id].sort());
    expect(await t.ctx.jobs.pendingCount('delete-objects')).toBe(0);
    for (const f of [f1, f2, f3]) expect(await t.ctx.store.head(f.storagePath)).not.toBeNull();
    const entry = (await auditActions(t, admin.organizationId)).find((e) => e.action === 'DELETE_NODE' && e.targetId === top.id);
    expect(entry?.details).toMatchObject({
      name: 'Top',
      nodeType: 'folder',
      path: '/Top',
      binEntryId: r.binEntryId,
      deletedNodes: 4,
      deletedFiles: 2,
      deletedBytes: 6,
    });
    // A single file too; a binned file cannot be downloaded, renamed or deleted again.
    expect(ok(await admin.client.post('/_api/nodes/delete', { nodeId: f3.id }))).toMatchObject({ success: true, deletedCount: 1 });
    expect((await admin.client.get(`/_api/nodes/download-url?nodeId=${f3.id}`)).statusCode).toBe(404);
    expect((await admin.client.post('/_api/nodes/rename', { nodeId: f3.id, newName: 'x.pdf' })).statusCode).toBe(404);
    expect((await admin.client.post('/_api/nodes/delete', { nodeId: f3.id })).statusCode).toBe(404);
  });

  it('enqueues nothing when the deletion is refused or rolled back', async () => {
    const m = await createMatter(admin.client);
    const f = await uploadFile(t, admin.client, m.id, 'held.pdf', Buffer.from('held'));
    await setMatterFlags(t, m.id, { legalHold: true });
    const r = await admin.client.post('/_api/nodes/delete', { nodeId: f.id });
    expect(r.statusCode).toBe(409);
    expect(r.json().error).toBe('Actions are disabled due to legal hold');
    expect(await t.ctx.jobs.pendingCount('delete-objects')).toBe(0);
    expect(await t.ctx.store.head(f.storagePath)).not.toBeNull();
    await setMatterFlags(t, m.id, { legalHold: false, vaulted: true });
    expect((await admin.client.post('/_api/nodes/delete', { nodeId: f.id })).json().error).toBe('Actions are disabled for vaulted matters');
  });

  it('needs canDelete; another organization gets 404', async () => {
    const m = await createMatter(admin.client);
    const a = await createFolder(admin.client, m.id, 'A');
    const user = await addMember(t, admin.organizationId, 'user');
    expect((await user.client.post('/_api/nodes/delete', { nodeId: a.id })).statusCode).toBe(403);
    const foreign = await other.client.post('/_api/nodes/delete', { nodeId: a.id });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('Item not found.');
    expect((await admin.client.post('/_api/nodes/delete', { nodeId: 'zzz' })).json().error).toBe('Invalid Node ID format.');
    expect((await admin.client.post('/_api/nodes/delete', { nodeId: randomUUID() })).statusCode).toBe(404);
    const deleter = await addMember(t, admin.organizationId, 'user', { canDelete: true });
    expect(ok(await deleter.client.post('/_api/nodes/delete', { nodeId: a.id })).deletedCount).toBe(1);
  });
});

describe('GET /_api/nodes/download-url', () => {
  it('signs a short-lived link for a file, audited as DOWNLOAD_FILE, also under legal hold', async () => {
    const m = await createMatter(admin.client);
    const f = await uploadFile(t, admin.client, m.id, 'deed.pdf', Buffer.from('deed'));
    await setMatterFlags(t, m.id, { legalHold: true });
    const r = ok(await admin.client.get(`/_api/nodes/download-url?nodeId=${f.id}`));
    expect(r.url).toContain('/_objects/');
    expect(new Date(r.expiresAt).getTime() - Date.now()).toBeLessThanOrEqual(15 * 60_000);
    const url = new URL(r.url);
    const got = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    expect(got.statusCode).toBe(200);
    expect(got.body).toBe('deed');
    expect(got.headers['content-disposition']).toContain('deed.pdf');
    const entry = (await auditActions(t, admin.organizationId)).find((e) => e.action === 'DOWNLOAD_FILE' && e.targetId === f.id);
    expect(entry?.details).toMatchObject({ fileName: 'deed.pdf', matterId: m.id, sha256Hash: f.sha256Hash });
  });

  it('needs canRetrieve, a file, and the organization', async () => {
    const m = await createMatter(admin.client);
    const f = await uploadFile(t, admin.client, m.id, 'x.pdf', Buffer.from('x'));
    const folder = await createFolder(admin.client, m.id, 'Folder');
    const noRetrieve = await addMember(t, admin.organizationId, 'user', { canRetrieve: false });
    expect((await noRetrieve.client.get(`/_api/nodes/download-url?nodeId=${f.id}`)).statusCode).toBe(403);
    const folderUrl = await admin.client.get(`/_api/nodes/download-url?nodeId=${folder.id}`);
    expect(folderUrl.statusCode).toBe(400);
    expect(folderUrl.json().error).toBe(NODE_MSG.downloadFilesOnly);
    expect((await other.client.get(`/_api/nodes/download-url?nodeId=${f.id}`)).statusCode).toBe(404);
    expect((await admin.client.get('/_api/nodes/download-url?nodeId=1')).json().error).toBe('Invalid Node ID format.');
    // A guest to whom this matter was never shared is told nothing of it, whatever their canRetrieve says.
    const guest = await addMember(t, admin.organizationId, 'guest', { canRetrieve: true });
    const unshared = await guest.client.get(`/_api/nodes/download-url?nodeId=${f.id}`);
    expect(unshared.statusCode).toBe(404);
    expect(unshared.json().error).toBe(NODE_MSG.itemNotFound);
  });
});
