import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MATTER_MSG, MSG, UNDO_MSG, UNDO_WINDOW_MS } from '@strongroom/contracts';
import { createTestApp, type Client, type TestApp } from '../../../test/helpers.js';
import {
  addMember,
  auditActions,
  createFolder,
  createMatter,
  newOrganization,
  ok,
  setMatterFlags,
  type Member,
} from '../../../test/factories.js';

let t: TestApp;
let admin: Member;
let colleague: Member;
let other: Member;
beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Acme LLP');
  colleague = await addMember(t, admin.organizationId, 'admin', {}, 'Casey Colleague');
  other = await newOrganization(t, 'Other & Partners');
});
afterAll(() => t.shutdown());

const undo = (c: Client, undoId: unknown) => c.post('/_api/undo', { undoId });

async function nodeRow(id: string) {
  return t.ctx.db.selectFrom('nodes').select(['name', 'parentId', 'version']).where('id', '=', id).executeTakeFirstOrThrow();
}
async function matterRow(id: string) {
  return t.ctx.db.selectFrom('matters').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}
async function rename(c: Client, nodeId: string, newName: string) {
  return ok(await c.post('/_api/nodes/rename', { nodeId, newName })) as { node: { name: string }; undoId?: string; undoExpiresAt?: string };
}
async function move(c: Client, nodeId: string, newParentId: string | null) {
  return ok(await c.post('/_api/nodes/move', { nodeId, newParentId })) as { node: { parentId: string | null }; undoId?: string };
}
async function edit(c: Client, matterId: string, fields: Record<string, unknown>) {
  const { version } = await matterRow(matterId);
  return ok(await c.post('/_api/matters/update', { matterId, expectedVersion: version, ...fields })) as {
    matter: Record<string, unknown>;
    undoId?: string;
  };
}
async function undoAudits(organizationId: string) {
  return (await auditActions(t, organizationId)).filter((e) => e.action.startsWith('UNDO_'));
}
const unavailable = (res: { statusCode: number; json(): unknown }, status: number) => {
  expect(res.statusCode).toBe(status);
  expect(res.json()).toMatchObject({ error: UNDO_MSG.unavailable, code: 'CONFLICT_ERROR' });
};

describe('undo of a folder rename', () => {
  it('answers an undo offer for 5 minutes; undo restores the name once, in one audited change', async () => {
    const matter = await createMatter(admin.client);
    const folder = await createFolder(admin.client, matter.id, 'Pleadings');
    const renamed = await rename(admin.client, folder.id, 'Pleadings (old)');
    expect(renamed.node.name).toBe('Pleadings (old)');
    expect(renamed.undoId).toMatch(/^[0-9a-f-]{36}$/);
    const window = Date.parse(renamed.undoExpiresAt!) - Date.now();
    expect(window).toBeGreaterThan(UNDO_WINDOW_MS - 60_000);
    expect(window).toBeLessThanOrEqual(UNDO_WINDOW_MS + 5_000);

    const res = await undo(admin.client, renamed.undoId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'Undo operation successful.',
      kind: 'node.rename',
      targetId: folder.id,
      matterId: matter.id,
    });
    expect((await nodeRow(folder.id)).name).toBe('Pleadings');
    const detail = ok(await admin.client.get(`/_api/matters/detail?matterId=${matter.id}`));
    expect(detail.nodes.map((n: { name: string }) => n.name)).toContain('Pleadings');
    expect((await undoAudits(admin.organizationId)).at(-1)).toMatchObject({
      action: 'UNDO_RENAME_NODE',
      targetId: folder.id,
      details: { undoId: renamed.undoId, from: 'Pleadings (old)', to: 'Pleadings', matterId: matter.id },
    });

    // Used once: a second undo of the same entry is refused and changes nothing.
    unavailable(await undo(admin.client, renamed.undoId), 410);
    expect((await nodeRow(folder.id)).name).toBe('Pleadings');
  });

  it('offers no undo when nothing changed (the same name again)', async () => {
    const matter = await createMatter(admin.client);
    const folder = await createFolder(admin.client, matter.id, 'Same');
    const res = await rename(admin.client, folder.id, 'Same');
    expect(res.undoId).toBeUndefined();
  });

  it('refuses an entry past its 5 minutes', async () => {
    const matter = await createMatter(admin.client);
    const folder = await createFolder(admin.client, matter.id, 'Drafts');
    const { undoId } = await rename(admin.client, folder.id, 'Drafts 2');
    await t.ctx.db
      .updateTable('undoEntries')
      .set({ expiresAt: sql<Date>`now() - interval '1 second'` })
      .where('id', '=', undoId!)
      .execute();
    unavailable(await undo(admin.client, undoId), 410);
    expect((await nodeRow(folder.id)).name).toBe('Drafts 2');
  });

  it('never overwrites a later change: after another rename the entry is no longer available', async () => {
    const matter = await createMatter(admin.client);
    const folder = await createFolder(admin.client, matter.id, 'A');
    const first = await rename(admin.client, folder.id, 'B');
    // The later change is a colleague's: the first entry must not put 'A' over it.
    await rename(colleague.client, folder.id, 'C');
    unavailable(await undo(admin.client, first.undoId), 409);
    expect((await nodeRow(folder.id)).name).toBe('C');
    expect(await undoAudits(admin.organizationId)).not.toContainEqual(expect.objectContaining({ targetId: folder.id }));
  });

  it('refuses when the former name was taken meanwhile, with the name clash text', async () => {
    const matter = await createMatter(admin.client);
    const folder = await createFolder(admin.client, matter.id, 'Evidence');
    const { undoId } = await rename(admin.client, folder.id, 'Exhibits');
    await createFolder(admin.client, matter.id, 'Evidence');
    const res = await undo(admin.client, undoId);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('An item named "Evidence" already exists in this folder.');
    expect((await nodeRow(folder.id)).name).toBe('Exhibits');
  });
});

describe('undo of a move', () => {
  it('puts the item back in its former folder', async () => {
    const matter = await createMatter(admin.client);
    const from = await createFolder(admin.client, matter.id, 'From');
    const to = await createFolder(admin.client, matter.id, 'To');
    const item = await createFolder(admin.client, matter.id, 'Item', from.id);
    const moved = await move(admin.client, item.id, to.id);
    expect(moved.node.parentId).toBe(to.id);
    const res = await undo(admin.client, moved.undoId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'node.move', targetId: item.id, matterId: matter.id, message: UNDO_MSG.success });
    expect((await nodeRow(item.id)).parentId).toBe(from.id);
    expect((await undoAudits(admin.organizationId)).at(-1)).toMatchObject({
      action: 'UNDO_MOVE_NODE',
      details: { fromParentId: to.id, toParentId: from.id },
    });
  });

  it('puts an item moved out of the root back at the root', async () => {
    const matter = await createMatter(admin.client);
    const to = await createFolder(admin.client, matter.id, 'To');
    const item = await createFolder(admin.client, matter.id, 'Loose');
    const moved = await move(admin.client, item.id, to.id);
    expect((await undo(admin.client, moved.undoId)).statusCode).toBe(200);
    expect((await nodeRow(item.id)).parentId).toBeNull();
  });

  it('refuses when the former folder is gone, or now lies inside the item (no cycle is ever made)', async () => {
    const matter = await createMatter(admin.client);
    const from = await createFolder(admin.client, matter.id, 'Old home');
    const to = await createFolder(admin.client, matter.id, 'New home');
    const item = await createFolder(admin.client, matter.id, 'Wanderer', from.id);
    const moved = await move(admin.client, item.id, to.id);
    ok(await admin.client.post('/_api/nodes/delete', { nodeId: from.id }));
    unavailable(await undo(admin.client, moved.undoId), 409);
    expect((await nodeRow(item.id)).parentId).toBe(to.id);

    const p = await createFolder(admin.client, matter.id, 'P');
    const a = await createFolder(admin.client, matter.id, 'A', p.id);
    const q = await createFolder(admin.client, matter.id, 'Q');
    const movedA = await move(admin.client, a.id, q.id);
    await move(admin.client, p.id, a.id); // P now lies inside A; A's own row did not change.
    unavailable(await undo(admin.client, movedA.undoId), 409);
    expect((await nodeRow(a.id)).parentId).toBe(q.id);
    expect((await nodeRow(p.id)).parentId).toBe(a.id);
  });
});

describe('undo of a matter edit', () => {
  it('restores exactly the fields the edit changed, raises the version and audits it', async () => {
    const matter = await createMatter(admin.client, { matterName: 'Original', clientName: 'Client One', description: 'First words' });
    const edited = await edit(admin.client, matter.id, { matterName: 'Renamed matter', clientName: null, description: 'Second words' });
    expect(edited.matter).toMatchObject({ matterName: 'Renamed matter', clientName: null, description: 'Second words', version: 2 });
    expect(edited.undoId).toBeDefined();
    const res = await undo(admin.client, edited.undoId);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'matter.update', targetId: matter.id, matterId: matter.id });
    const row = await matterRow(matter.id);
    expect(row).toMatchObject({
      matterName: 'Original',
      clientName: 'Client One',
      description: 'First words',
      responsibleLawyer: 'Jane Counsel',
      version: 3,
    });
    expect((await undoAudits(admin.organizationId)).at(-1)).toMatchObject({
      action: 'UNDO_UPDATE_MATTER',
      targetId: matter.id,
      details: {
        undoId: edited.undoId,
        version: 3,
        changes: { matterName: { from: 'Renamed matter', to: 'Original' }, clientName: { from: null, to: 'Client One' } },
      },
    });
    unavailable(await undo(admin.client, edited.undoId), 410);
  });

  it('offers no undo for an edit that changes nothing', async () => {
    const matter = await createMatter(admin.client, { matterName: 'Steady' });
    expect((await edit(admin.client, matter.id, { matterName: 'Steady' })).undoId).toBeUndefined();
  });

  it('never overwrites a later edit', async () => {
    const matter = await createMatter(admin.client, { matterName: 'One' });
    const first = await edit(admin.client, matter.id, { matterName: 'Two' });
    await edit(colleague.client, matter.id, { description: 'Colleague was here' });
    unavailable(await undo(admin.client, first.undoId), 409);
    expect(await matterRow(matter.id)).toMatchObject({ matterName: 'Two', description: 'Colleague was here', version: 3 });
  });

  it('refuses to give back a number another matter took meanwhile', async () => {
    const matter = await createMatter(admin.client, { matterNumber: 'MAT-2031-101' });
    const first = await edit(admin.client, matter.id, { matterNumber: 'MAT-2031-102' });
    await createMatter(admin.client, { matterNumber: 'MAT-2031-101' });
    const res = await undo(admin.client, first.undoId);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(MATTER_MSG.matterNumberExists);
    expect((await matterRow(matter.id)).matterNumber).toBe('MAT-2031-102');
  });
});

describe('who may undo', () => {
  it('only the person who made the change; another organization’s undo id answers as one that does not exist', async () => {
    const matter = await createMatter(admin.client);
    const folder = await createFolder(admin.client, matter.id, 'Mine');
    const { undoId } = await rename(admin.client, folder.id, 'Mine 2');

    const byColleague = await undo(colleague.client, undoId);
    expect(byColleague.statusCode).toBe(403);
    expect(byColleague.json()).toMatchObject({ error: MSG.permissionDenied, code: 'PERMISSION_ERROR' });

    const foreign = await undo(other.client, undoId);
    const nowhere = await undo(other.client, randomUUID());
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(nowhere.json());
    expect((await nodeRow(folder.id)).name).toBe('Mine 2');

    // Still there for its author.
    expect((await undo(admin.client, undoId)).statusCode).toBe(200);
  });

  it('needs the permission still: an author who lost canRename cannot undo', async () => {
    const renamer = await addMember(t, admin.organizationId, 'user', { canRename: true }, 'Rita Renamer');
    const matter = await createMatter(admin.client);
    const folder = await createFolder(admin.client, matter.id, 'Orig');
    const { undoId } = await rename(renamer.client, folder.id, 'Changed');
    const users = await t.ctx.db
      .selectFrom('users')
      .select(['id', 'permissions'])
      .where('id', '=', renamer.userId)
      .executeTakeFirstOrThrow();
    await t.ctx.db
      .updateTable('users')
      .set({ permissions: JSON.stringify({ ...users.permissions, canRename: false }) })
      .where('id', '=', renamer.userId)
      .execute();
    const res = await undo(renamer.client, undoId);
    expect(res.statusCode).toBe(403);
    expect((await nodeRow(folder.id)).name).toBe('Changed');
  });

  it('answers 400 with a clear text for a missing or malformed id', async () => {
    const missing = await admin.client.post('/_api/undo', {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toContain(UNDO_MSG.undoIdRequired);
    const bad = await undo(admin.client, 'not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toContain(UNDO_MSG.invalidUndoId);
  });
});

describe('undo on a matter that became read-only', () => {
  it('is refused under legal hold and in the vault, and changes nothing', async () => {
    const matter = await createMatter(admin.client);
    const folder = await createFolder(admin.client, matter.id, 'Held folder');
    const renamed = await rename(admin.client, folder.id, 'Held folder 2');
    const edited = await edit(admin.client, matter.id, { description: 'before hold' });
    await setMatterFlags(t, matter.id, { legalHold: true });
    const held = await undo(admin.client, renamed.undoId);
    expect(held.statusCode).toBe(409);
    expect(held.json()).toMatchObject({ error: 'Actions are disabled due to legal hold', details: { reason: 'LEGAL_HOLD' } });
    const heldEdit = await undo(admin.client, edited.undoId);
    expect(heldEdit.statusCode).toBe(409);
    expect(heldEdit.json()).toMatchObject({ error: MATTER_MSG.legalHold });
    await setMatterFlags(t, matter.id, { vaulted: true });
    const vaulted = await undo(admin.client, renamed.undoId);
    expect(vaulted.statusCode).toBe(409);
    expect(vaulted.json()).toMatchObject({ error: 'Actions are disabled for vaulted matters', details: { reason: 'VAULTED' } });
    expect((await nodeRow(folder.id)).name).toBe('Held folder 2');
    expect((await matterRow(matter.id)).description).toBe('before hold');
  });

  it('is refused once the matter’s retention has expired', async () => {
    const matter = await createMatter(admin.client);
    const folder = await createFolder(admin.client, matter.id, 'Kept');
    const { undoId } = await rename(admin.client, folder.id, 'Kept 2');
    await t.ctx.db
      .updateTable('matters')
      .set({ retentionExpiresAt: new Date(Date.now() - 1000) })
      .where('id', '=', matter.id)
      .execute();
    const res = await undo(admin.client, undoId);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: 'Actions are disabled for read-only matters', details: { reason: 'RETENTION_EXPIRED' } });
    expect((await nodeRow(folder.id)).name).toBe('Kept 2');
  });
});

describe('an undo entry is used once, even under concurrent requests', () => {
  it('of many simultaneous undos of one rename exactly one succeeds', async () => {
    const matter = await createMatter(admin.client);
    const folder = await createFolder(admin.client, matter.id, 'Race');
    const { undoId } = await rename(admin.client, folder.id, 'Race 2');
    const before = (await undoAudits(admin.organizationId)).length;
    const results = await Promise.all(Array.from({ length: 8 }, () => undo(admin.client, undoId)));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.statusCode !== 200)) unavailable(r, 410);
    expect((await nodeRow(folder.id)).name).toBe('Race');
    expect((await undoAudits(admin.organizationId)).length).toBe(before + 1);
  });

  it('of many simultaneous undos of one matter edit exactly one succeeds and the version rises once', async () => {
    const matter = await createMatter(admin.client, { matterName: 'Racing matter' });
    const { undoId } = await edit(admin.client, matter.id, { matterName: 'Racing matter (edited)' });
    const results = await Promise.all(Array.from({ length: 8 }, () => undo(admin.client, undoId)));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.statusCode !== 200)) unavailable(r, 410);
    expect(await matterRow(matter.id)).toMatchObject({ matterName: 'Racing matter', version: 3 });
  });
});
