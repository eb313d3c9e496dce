import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_MSG, TEAM_MSG } from '@strongroom/contracts';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { addMember, auditActions, createMatter, newOrganization, ok, uploadFile } from '../../../test/factories.js';

// A guest's download is decided by the grant the administrator made for that matter: 'download' (the default)
// downloads whatever the guest's canRetrieve says, 'view' lists the files and refuses their download with why.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.shutdown());

async function publicIdOf(userId: number): Promise<string> {
  return (await t.ctx.db.selectFrom('users').select('publicId').where('id', '=', userId).executeTakeFirstOrThrow()).publicId;
}

/** A firm whose administrator shares without a code, with a guest and a matter holding one file. */
async function firm(name: string) {
  const admin = await newOrganization(t, name);
  await t.ctx.db
    .updateTable('featureFlags')
    .set({ enabled: false })
    .where('organizationId', '=', admin.organizationId)
    .where('flagName', '=', 'MFA_USER_MANAGEMENT')
    .execute();
  const guest = await addMember(t, admin.organizationId, 'guest', {}, 'Gia Guest');
  const matter = await createMatter(admin.client);
  const file = await uploadFile(t, admin.client, matter.id, 'engagement.pdf', Buffer.from('%PDF-1.4 engagement letter'));
  return { admin, guest, guestId: await publicIdOf(guest.userId), matter, file };
}

const download = (f: Awaited<ReturnType<typeof firm>>, nodeId: string) => f.guest.client.get(`/_api/nodes/download-url?nodeId=${nodeId}`);

describe("a guest's downloads follow the grant", () => {
  it("a 'download' grant (the default) downloads without canRetrieve, audited as DOWNLOAD_FILE", async () => {
    const f = await firm('Grant Download LLP');
    const g = ok(await f.admin.client.post('/_api/settings/guest-access/grant', { userId: f.guestId, matterId: f.matter.id }));
    expect(g.grants).toEqual([expect.objectContaining({ matterId: f.matter.id, access: 'download' })]);
    const guestRow = await t.ctx.db.selectFrom('users').select('permissions').where('id', '=', f.guest.userId).executeTakeFirstOrThrow();
    expect(guestRow.permissions.canRetrieve).toBe(false);

    const res = await download(f, f.file.id);
    expect(res.statusCode, res.body).toBe(200);
    const { url } = res.json();
    const bytes = await t.app.inject({ method: 'GET', url: new URL(url).pathname + new URL(url).search });
    expect(bytes.statusCode).toBe(200);
    expect(bytes.body).toBe('%PDF-1.4 engagement letter');
    const audited = (await auditActions(t, f.admin.organizationId)).filter((a) => a.action === 'DOWNLOAD_FILE').at(-1);
    expect(audited).toMatchObject({ targetId: f.file.id, details: { matterId: f.matter.id, fileName: 'engagement.pdf' } });
    const actor = await t.ctx.db
      .selectFrom('auditLogs')
      .select('actorId')
      .where('organizationId', '=', f.admin.organizationId)
      .where('action', '=', 'DOWNLOAD_FILE')
      .executeTakeFirstOrThrow();
    expect(actor.actorId).toBe(f.guest.userId);
  });

  it("a 'view' grant lists the files but refuses their download with a clear message, even with canRetrieve", async () => {
    const f = await firm('Grant View LLP');
    const g = ok(
      await f.admin.client.post('/_api/settings/guest-access/grant', { userId: f.guestId, matterId: f.matter.id, access: 'view' }),
    );
    expect(g).toMatchObject({ message: TEAM_MSG.guestGranted, grants: [{ matterId: f.matter.id, access: 'view' }] });
    const detail = ok(await f.guest.client.get(`/_api/matters/detail?matterId=${f.matter.id}`));
    expect(detail.nodes.map((n: { name: string }) => n.name)).toEqual(['engagement.pdf']);
    // The page is told the grant's access, so it offers no download; members are told nothing of grants.
    expect(detail.guestAccess).toBe('view');
    expect(ok(await f.admin.client.get(`/_api/matters/detail?matterId=${f.matter.id}`)).guestAccess).toBeUndefined();
    const refused = await download(f, f.file.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'PERMISSION_ERROR', error: NODE_MSG.guestViewOnly });
    ok(await f.admin.client.post('/_api/settings/users/permissions', { userId: f.guestId, permissions: { canRetrieve: true } }));
    expect((await download(f, f.file.id)).statusCode).toBe(403);
    expect((await auditActions(t, f.admin.organizationId)).some((a) => a.action === 'DOWNLOAD_FILE')).toBe(false);
  });

  it('the administrator changes a grant between view and download; the change is answered, listed and audited', async () => {
    const f = await firm('Grant Change LLP');
    const grant = (access?: string) =>
      f.admin.client.post('/_api/settings/guest-access/grant', { userId: f.guestId, matterId: f.matter.id, ...(access ? { access } : {}) });
    ok(await grant('view'));
    const changed = ok(await grant('download'));
    expect(changed).toMatchObject({ message: TEAM_MSG.guestAccessChanged, grants: [{ access: 'download' }] });
    expect((await download(f, f.file.id)).statusCode).toBe(200);
    // The same access again changes and records nothing.
    ok(await grant('download'));
    expect(ok(await f.admin.client.get(`/_api/settings/guest-access?userId=${f.guestId}`)).grants).toEqual([
      expect.objectContaining({ access: 'download' }),
    ]);
    const granted = (await auditActions(t, f.admin.organizationId)).filter((a) => a.action === 'GUEST_ACCESS_GRANTED');
    expect(granted.map((a) => a.details)).toEqual([
      expect.objectContaining({ access: 'view' }),
      expect.objectContaining({ access: 'download', previousAccess: 'view' }),
    ]);
    ok(await grant('view'));
    expect((await download(f, f.file.id)).json().error).toBe(NODE_MSG.guestViewOnly);
  });

  it('refuses an access other than download or view, with the message, and changes nothing', async () => {
    const f = await firm('Grant Invalid LLP');
    for (const access of ['edit', '', 7, null]) {
      const res = await f.admin.client.post('/_api/settings/guest-access/grant', { userId: f.guestId, matterId: f.matter.id, access });
      expect(res.statusCode, JSON.stringify(access)).toBe(400);
      expect(res.json().error).toBe(TEAM_MSG.guestAccessInvalid);
    }
    expect(await t.ctx.db.selectFrom('guestMatterGrants').selectAll().where('userId', '=', f.guest.userId).execute()).toEqual([]);
  });

  it("answers 404 for a file of a matter not shared with the guest, and for another organization's file", async () => {
    const f = await firm('Grant Scope LLP');
    const other = await firm('Grant Elsewhere LLP');
    ok(await f.admin.client.post('/_api/settings/guest-access/grant', { userId: f.guestId, matterId: f.matter.id }));
    const unshared = await createMatter(f.admin.client);
    const unsharedFile = await uploadFile(t, f.admin.client, unshared.id, 'memo.pdf', Buffer.from('%PDF-1.4 internal memo'));
    const notShared = await download(f, unsharedFile.id);
    expect(notShared.statusCode).toBe(404);
    expect(notShared.json().error).toBe(NODE_MSG.itemNotFound);
    // Another organization's file, even one shared with that organization's own guest.
    ok(await other.admin.client.post('/_api/settings/guest-access/grant', { userId: other.guestId, matterId: other.matter.id }));
    const foreign = await download(f, other.file.id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe(NODE_MSG.itemNotFound);
  });
});
