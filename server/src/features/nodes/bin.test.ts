/**
 * The recycle bin: a delete moves the item to its matter's bin, the bin lists it, a restore (or the delete's
 * undo) puts it back, and the daily bin-purge job deletes it for good with its stored objects.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_MSG, UNDO_MSG } from '@strongroom/contracts';
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
import { runBinPurge } from './bin-purge.jobs.js';

let t: TestApp;
let admin: Member;
let other: Member;
beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Bin & Co');
  other = await newOrganization(t, 'Elsewhere LLP');
});
afterAll(() => t.shutdown());

type TreeNode = { id: string; name: string; parentId: string | null; children: TreeNode[] };
const tree = async (matterId: string): Promise<TreeNode[]> => ok(await admin.client.get(`/_api/matters/detail?matterId=${matterId}`)).nodes;
const del = async (nodeId: string, c = admin.client) => ok(await c.post('/_api/nodes/delete', { nodeId }));
const bin = async (matterId: string, c = admin.client) => ok(await c.get(`/_api/nodes/bin?matterId=${matterId}`)).items;
const restore = (binEntryId: string, c = admin.client) => c.post('/_api/nodes/bin/restore', { binEntryId });
const DAY = 86_400_000;

describe('GET /_api/nodes/bin', () => {
  it('lists what was deleted, newest first, with where it was, who deleted it and when it goes for good', async () => {
    const m = await createMatter(admin.client);
    const folder = await createFolder(admin.client, m.id, 'Pleadings');
    const f = await uploadFile(t, admin.client, m.id, 'Defence.pdf', Buffer.from('defence'), folder.id);
    const other1 = await uploadFile(t, admin.client, m.id, 'Notes.pdf', Buffer.from('n'));
    const first = await del(f.id);
    const second = await del(folder.id);
    const items = await bin(m.id);
    expect(items).toEqual([
      expect.objectContaining({
        binEntryId: second.binEntryId,
        nodeId: folder.id,
        name: 'Pleadings',
        nodeType: 'folder',
        originalPath: '/',
      }),
      expect.objectContaining({
        binEntryId: first.binEntryId,
        nodeId: f.id,
        name: 'Defence.pdf',
        nodeType: 'file',
        originalPath: '/Pleadings',
        fileCount: 1,
        totalBytes: 7,
        deletedByName: expect.any(String),
        purgeAfter: first.purgeAfter,
      }),
    ]);
    expect(items[0].fileCount).toBe(0);
    expect(items[1].deletedBy).toMatch(/^[0-9a-f-]{36}$/);
    // Live reads skip the bin: the tree, the search in the matter.
    expect((await tree(m.id)).map((n) => n.id)).toEqual([other1.id]);
    const search = ok(await admin.client.get(`/_api/search?q=Defence&matterId=${m.id}`), 200);
    expect(JSON.stringify(search)).not.toContain(f.id);
  });

  it('validates, answers 404 for another organization and a guest without the matter', async () => {
    const m = await createMatter(admin.client);
    expect((await admin.client.get('/_api/nodes/bin?matterId=zzz')).json().error).toBe(NODE_MSG.invalidMatterId);
    expect((await admin.client.get('/_api/nodes/bin')).json().error).toBe(NODE_MSG.matterIdRequired);
    expect((await other.client.get(`/_api/nodes/bin?matterId=${m.id}`)).statusCode).toBe(404);
    expect((await admin.client.get(`/_api/nodes/bin?matterId=${randomUUID()}`)).statusCode).toBe(404);
    // A guest reads the bin of a matter shared with them, as its tree; another matter is refused as the tree is.
    const guest = await addMember(t, admin.organizationId, 'guest');
    const unshared = await guest.client.get(`/_api/nodes/bin?matterId=${m.id}`);
    const detail = await guest.client.get(`/_api/matters/detail?matterId=${m.id}`);
    expect(unshared.statusCode).toBe(detail.statusCode);
    expect(unshared.json().error).toBe(detail.json().error);
  });
});

describe('POST /_api/nodes/bin/restore', () => {
  it('puts an item back into its folder, audited; a binned name can be reused meanwhile', async () => {
    const m = await createMatter(admin.client);
    const folder = await createFolder(admin.client, m.id, 'Drafts');
    const f = await uploadFile(t, admin.client, m.id, 'Brief.pdf', Buffer.from('v1'), folder.id);
    const d = await del(f.id);
    // The name is free again for a new file.
    const again = await uploadFile(t, admin.client, m.id, 'Brief.pdf', Buffer.from('v2'), folder.id);
    const clash = await restore(d.binEntryId);
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({ error: NODE_MSG.nameExists('Brief.pdf'), details: { reason: 'NAME_TAKEN' } });
    ok(await admin.client.post('/_api/nodes/rename', { nodeId: again.id, newName: 'Brief v2.pdf' }));
    const back = ok(await restore(d.binEntryId)).node;
    expect(back).toMatchObject({ id: f.id, parentId: folder.id, name: 'Brief.pdf', path: '/Drafts/Brief.pdf' });
    expect(await bin(m.id)).toEqual([]);
    const entry = (await auditActions(t, admin.organizationId)).find((e) => e.action === 'RESTORE_NODE' && e.targetId === f.id);
    expect(entry?.details).toMatchObject({ matterId: m.id, binEntryId: d.binEntryId, name: 'Brief.pdf', toParentId: folder.id });
    // Gone from the bin: a second restore answers 404.
    const twice = await restore(d.binEntryId);
    expect(twice.statusCode).toBe(404);
    expect(twice.json().error).toBe(NODE_MSG.binEntryNotFound);
  });

  it("restores into the matter's root when the folder it was in is itself in the bin", async () => {
    const m = await createMatter(admin.client);
    const folder = await createFolder(admin.client, m.id, 'Old');
    const f = await uploadFile(t, admin.client, m.id, 'Memo.pdf', Buffer.from('memo'), folder.id);
    const fileEntry = await del(f.id);
    await del(folder.id);
    expect(ok(await restore(fileEntry.binEntryId)).node).toMatchObject({ id: f.id, parentId: null, path: '/Memo.pdf' });
  });

  it('restores a folder with everything that was in it', async () => {
    const m = await createMatter(admin.client);
    const top = await createFolder(admin.client, m.id, 'Top');
    const sub = await createFolder(admin.client, m.id, 'Sub', top.id);
    const f = await uploadFile(t, admin.client, m.id, 'deep.pdf', Buffer.from('deep'), sub.id);
    const d = await del(top.id);
    ok(await restore(d.binEntryId));
    const [restoredTop] = await tree(m.id);
    expect(restoredTop?.children[0]?.children[0]?.id).toBe(f.id);
  });

  it('needs canDelete, refuses held and vaulted matters, and answers 404 to another organization', async () => {
    const m = await createMatter(admin.client);
    const f = await uploadFile(t, admin.client, m.id, 'x.pdf', Buffer.from('x'));
    const d = await del(f.id);
    expect((await admin.client.post('/_api/nodes/bin/restore', { binEntryId: 'zzz' })).json().error).toBe(NODE_MSG.invalidBinEntryId);
    expect((await admin.client.post('/_api/nodes/bin/restore', {})).json().error).toBe(NODE_MSG.binEntryIdRequired);
    expect((await restore(randomUUID())).statusCode).toBe(404);
    const foreign = await restore(d.binEntryId, other.client);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe(NODE_MSG.binEntryNotFound);
    const user = await addMember(t, admin.organizationId, 'user', { canUpload: true });
    expect((await restore(d.binEntryId, user.client)).statusCode).toBe(403);
    const guest = await addMember(t, admin.organizationId, 'guest');
    expect((await restore(d.binEntryId, guest.client)).statusCode).toBe(403);
    await setMatterFlags(t, m.id, { legalHold: true });
    expect((await restore(d.binEntryId)).json()).toMatchObject({ error: NODE_MSG.legalHold, details: { reason: 'LEGAL_HOLD' } });
    await setMatterFlags(t, m.id, { legalHold: false, vaulted: true });
    expect((await restore(d.binEntryId)).json()).toMatchObject({ error: NODE_MSG.vaulted, details: { reason: 'VAULTED' } });
    await setMatterFlags(t, m.id, { vaulted: false });
    const deleter = await addMember(t, admin.organizationId, 'user', { canDelete: true });
    expect(ok(await restore(d.binEntryId, deleter.client)).node.id).toBe(f.id);
  });

  it('two restores at once: one wins, the other is told the item is gone or its name taken', async () => {
    const m = await createMatter(admin.client);
    const f = await uploadFile(t, admin.client, m.id, 'race.pdf', Buffer.from('race'));
    const d = await del(f.id);
    const answers = await Promise.all([restore(d.binEntryId), restore(d.binEntryId), restore(d.binEntryId)]);
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    for (const c of codes.filter((c) => c !== 200)) expect([404, 409]).toContain(c);
    const restored = (await auditActions(t, admin.organizationId)).filter((e) => e.action === 'RESTORE_NODE' && e.targetId === f.id);
    expect(restored).toHaveLength(1);
  });
});

describe('undo of a delete', () => {
  it('brings the item back from the bin through POST /_api/undo, once', async () => {
    const m = await createMatter(admin.client);
    const folder = await createFolder(admin.client, m.id, 'Exhibits');
    const d = await del(folder.id);
    const u = ok(await admin.client.post('/_api/undo', { undoId: d.undoId }));
    expect(u).toMatchObject({ kind: 'node.delete', targetId: folder.id, matterId: m.id, message: UNDO_MSG.success });
    expect((await tree(m.id)).map((n) => n.id)).toEqual([folder.id]);
    expect(await bin(m.id)).toEqual([]);
    expect((await admin.client.post('/_api/undo', { undoId: d.undoId })).statusCode).toBeGreaterThanOrEqual(400);
    const entry = (await auditActions(t, admin.organizationId)).find((e) => e.action === 'UNDO_DELETE_NODE' && e.targetId === folder.id);
    expect(entry?.details).toMatchObject({ binEntryId: d.binEntryId, undoId: d.undoId });
  });

  it('is refused once the item was restored from the bin already', async () => {
    const m = await createMatter(admin.client);
    const folder = await createFolder(admin.client, m.id, 'Once');
    const d = await del(folder.id);
    ok(await restore(d.binEntryId));
    const u = await admin.client.post('/_api/undo', { undoId: d.undoId });
    expect(u.statusCode).toBe(409);
    expect(u.json().error).toBe(UNDO_MSG.unavailable);
  });
});

describe('the bin-purge job', () => {
  it('deletes entries past their date with their objects, audited; skips held matters; keeps the rest', async () => {
    const m = await createMatter(admin.client);
    const held = await createMatter(admin.client);
    const folder = await createFolder(admin.client, m.id, 'Gone');
    const f1 = await uploadFile(t, admin.client, m.id, 'a.pdf', Buffer.from('aa'), folder.id);
    const f2 = await uploadFile(t, admin.client, m.id, 'b.pdf', Buffer.from('bbb'));
    const f3 = await uploadFile(t, admin.client, held.id, 'c.pdf', Buffer.from('c'));
    const inner = await del(f1.id);
    const outer = await del(folder.id);
    const recent = await del(f2.id);
    const frozen = await del(f3.id);
    await setMatterFlags(t, held.id, { legalHold: true });
    const later = new Date(Date.now() + 31 * DAY);
    // Entries of the other tests are not due in this run.
    const mine = [inner, outer, recent, frozen].map((d) => d.binEntryId);
    await t.ctx.db
      .updateTable('binEntries')
      .set({ purgeAfter: new Date(Date.now() + 99 * DAY) })
      .where('id', 'not in', mine)
      .execute();
    // Only the recent one is still within its days: pretend it was deleted today and the others long ago.
    await t.ctx.db
      .updateTable('binEntries')
      .set({ purgeAfter: new Date(Date.now() + 40 * DAY) })
      .where('id', '=', recent.binEntryId)
      .execute();

    const run = await runBinPurge(t.ctx, later);
    expect(run).toMatchObject({ entriesPurged: 2, nodesDeleted: 2, objectsQueued: 1, entriesWaiting: 1 });
    const left = await t.ctx.db.selectFrom('nodes').select('id').where('id', 'in', [folder.id, f1.id, f2.id, f3.id]).execute();
    expect(left.map((r) => r.id).sort()).toEqual([f2.id, f3.id].sort());
    expect((await bin(m.id)).map((i: { binEntryId: string }) => i.binEntryId)).toEqual([recent.binEntryId]);
    expect((await bin(held.id)).map((i: { binEntryId: string }) => i.binEntryId)).toEqual([frozen.binEntryId]);
    // The objects go with the delete-objects job.
    expect(await t.ctx.store.head(f1.storagePath)).not.toBeNull();
    await t.ctx.jobs.runDueJobs(['delete-objects']);
    expect(await t.ctx.store.head(f1.storagePath)).toBeNull();
    expect(await t.ctx.store.head(f2.storagePath)).not.toBeNull();
    expect(await t.ctx.store.head(f3.storagePath)).not.toBeNull();
    const purged = (await auditActions(t, admin.organizationId)).filter((e) => e.action === 'PURGE_NODE');
    expect(purged.map((e) => e.details.binEntryId).sort()).toEqual([inner.binEntryId, outer.binEntryId].sort());
    const actors = await t.ctx.db.selectFrom('auditLogs').select('actorId').where('action', '=', 'PURGE_NODE').execute();
    expect(actors.every((a) => a.actorId === null)).toBe(true);
    // Run again: nothing more to do. Once the hold is lifted the held entry goes too.
    expect(await runBinPurge(t.ctx, later)).toMatchObject({ entriesPurged: 0, entriesWaiting: 1 });
    await setMatterFlags(t, held.id, { legalHold: false });
    expect(await runBinPurge(t.ctx, later)).toMatchObject({ entriesPurged: 1 });
    expect(await bin(held.id)).toEqual([]);
  });

  it('uses the organization’s bin days at delete time', async () => {
    await t.ctx.db.updateTable('organizations').set({ binRetentionDays: 3 }).where('id', '=', admin.organizationId).execute();
    try {
      const m = await createMatter(admin.client);
      const f = await createFolder(admin.client, m.id, 'Short');
      const d = await del(f.id);
      const days = (new Date(d.purgeAfter).getTime() - Date.now()) / DAY;
      expect(days).toBeGreaterThan(2.9);
      expect(days).toBeLessThanOrEqual(3);
    } finally {
      await t.ctx.db.updateTable('organizations').set({ binRetentionDays: 30 }).where('id', '=', admin.organizationId).execute();
    }
  });
});
