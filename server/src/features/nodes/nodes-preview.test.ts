import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NODE_MSG, PREVIEW_MSG } from '@strongroom/contracts';
import { PREVIEW_CSP } from '../../platform/storage/blob-store.js';
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
  admin = await newOrganization(t, 'Preview LLP');
  other = await newOrganization(t, 'Other & Partners');
  // Guests are shared matters here without a second factor.
  await t.ctx.db
    .updateTable('featureFlags')
    .set({ enabled: false })
    .where('organizationId', '=', admin.organizationId)
    .where('flagName', '=', 'MFA_USER_MANAGEMENT')
    .execute();
});
afterAll(() => t.shutdown());

const preview = (c: Member, nodeId: string) => c.client.get(`/_api/nodes/preview-url?nodeId=${nodeId}`);
/** The object URL's answer, as the browser gets it. */
const fetchObject = (url: string) => t.app.inject({ method: 'GET', url: new URL(url).pathname + new URL(url).search });

async function publicIdOf(userId: number): Promise<string> {
  return (await t.ctx.db.selectFrom('users').select('publicId').where('id', '=', userId).executeTakeFirstOrThrow()).publicId;
}

describe('GET /_api/nodes/preview-url', () => {
  it('signs a short-lived inline link with the viewer, audited as PREVIEW_FILE; the bytes come inline and sandboxed', async () => {
    const m = await createMatter(admin.client);
    const f = await uploadFile(t, admin.client, m.id, 'Defence.pdf', Buffer.from('%PDF-1.4 defence'));
    const r = ok(await preview(admin, f.id));
    expect(r).toMatchObject({ mimeType: 'application/pdf', fileName: 'Defence.pdf', previewKind: 'pdf' });
    expect(r.url).toContain('/_objects/');
    const lives = new Date(r.expiresAt).getTime() - Date.now();
    expect(lives).toBeGreaterThan(4 * 60_000);
    expect(lives).toBeLessThanOrEqual(5 * 60_000);

    const got = await fetchObject(r.url);
    expect(got.statusCode).toBe(200);
    expect(got.body).toBe('%PDF-1.4 defence');
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.headers['content-disposition']).toBe(`inline; filename="Defence.pdf"; filename*=UTF-8''Defence.pdf`);
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.headers['content-security-policy']).toBe("sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'");
    expect(got.headers['content-security-policy']).toBe(PREVIEW_CSP);

    const entry = (await auditActions(t, admin.organizationId)).find((e) => e.action === 'PREVIEW_FILE' && e.targetId === f.id);
    expect(entry?.details).toMatchObject({ fileName: 'Defence.pdf', matterId: m.id, sha256Hash: f.sha256Hash, vaulted: false });
    // A preview is not a download.
    expect((await auditActions(t, admin.organizationId)).some((e) => e.action === 'DOWNLOAD_FILE' && e.targetId === f.id)).toBe(false);
  });

  it('chooses the viewer by extension, then stored type, and never answers text as a page', async () => {
    const m = await createMatter(admin.client);
    const cases: Array<[string, string, string, string]> = [
      // name, stored type, kind, type the URL answers with
      ['notes.txt', 'text/html', 'text', 'text/plain; charset=utf-8'],
      ['ledger.csv', 'text/csv', 'csv', 'text/plain; charset=utf-8'],
      ['scan.png', 'image/png', 'image', 'image/png'],
      ['photo.JPG', 'image/svg+xml', 'image', 'application/octet-stream'],
      ['letter.eml', 'message/rfc822', 'email', 'message/rfc822'],
      ['brief.docx', 'application/octet-stream', 'word', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
      ['README', 'text/plain', 'text', 'text/plain; charset=utf-8'],
      ['page.html', 'text/html', 'none', 'application/octet-stream'],
      ['drawing.svg', 'image/svg+xml', 'none', 'application/octet-stream'],
      ['archive.zip', 'application/zip', 'none', 'application/octet-stream'],
    ];
    for (const [i, [name, stored, kind, served]] of cases.entries()) {
      // Rows as older uploads or other clients left them: the name and stored type are set directly.
      const f = await uploadFile(t, admin.client, m.id, `file-${i}.pdf`, Buffer.from(`<script>alert(1)</script> ${name}`));
      await t.ctx.db.updateTable('nodes').set({ name, mimeType: stored }).where('id', '=', f.id).execute();
      const r = ok(await preview(admin, f.id));
      expect(r, name).toMatchObject({ previewKind: kind, mimeType: served, fileName: name });
      const got = await fetchObject(r.url);
      expect(got.statusCode, name).toBe(200);
      expect(got.headers['content-type'], name).toBe(served);
      expect(got.headers['content-security-policy'], name).toBe(PREVIEW_CSP);
      expect(got.headers['content-disposition'], name).toMatch(/^inline; /);
    }
  });

  it('a signed link cannot be turned from a download into a preview or back', async () => {
    const m = await createMatter(admin.client);
    const f = await uploadFile(t, admin.client, m.id, 'deed.pdf', Buffer.from('deed'));
    const download = ok(await admin.client.get(`/_api/nodes/download-url?nodeId=${f.id}`)).url as string;
    expect((await fetchObject(download)).headers['content-disposition']).toMatch(/^attachment; /);
    expect((await fetchObject(`${download}&disposition=inline`)).statusCode).toBe(403);
    const inline = ok(await preview(admin, f.id)).url as string;
    expect((await fetchObject(inline.replace('&disposition=inline', ''))).statusCode).toBe(403);
    expect((await fetchObject(inline.replace('disposition=inline', 'disposition=attachment'))).statusCode).toBe(403);
    // The link dies with its file.
    ok(await admin.client.post('/_api/nodes/delete', { nodeId: f.id }));
    expect((await fetchObject(inline)).statusCode).toBe(404);
  });

  it('previews under legal hold; a folder is refused with why; bad ids and other organizations are refused', async () => {
    const m = await createMatter(admin.client);
    const f = await uploadFile(t, admin.client, m.id, 'held.pdf', Buffer.from('held'));
    await setMatterFlags(t, m.id, { legalHold: true });
    expect(ok(await preview(admin, f.id)).previewKind).toBe('pdf');
    const folder = await createFolder(admin.client, (await createMatter(admin.client)).id, 'Pleadings');
    const refused = await preview(admin, folder.id);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'VALIDATION_ERROR', error: PREVIEW_MSG.filesOnly });
    const foreign = await preview(other, f.id);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe(NODE_MSG.itemNotFound);
    const bad = await admin.client.get('/_api/nodes/preview-url?nodeId=1');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(NODE_MSG.invalidNodeId);
    expect((await admin.client.get('/_api/nodes/preview-url')).json().error).toBe(NODE_MSG.nodeIdRequired);
  });

  it('members need canRetrieve; in a vaulted matter canViewVaulted too, and the audit says it was vaulted', async () => {
    const m = await createMatter(admin.client);
    const f = await uploadFile(t, admin.client, m.id, 'vaulted.pdf', Buffer.from('vaulted'));
    const noRetrieve = await addMember(t, admin.organizationId, 'user', { canRetrieve: false, canViewVaulted: true });
    const noVault = await addMember(t, admin.organizationId, 'user', { canRetrieve: true, canViewVaulted: false });
    const reviewer = await addMember(t, admin.organizationId, 'user', { canRetrieve: true, canViewVaulted: true });
    expect((await preview(noRetrieve, f.id)).statusCode).toBe(403);
    expect(ok(await preview(noVault, f.id)).previewKind).toBe('pdf');
    await setMatterFlags(t, m.id, { vaulted: true, legalHold: true });
    expect((await preview(noVault, f.id)).statusCode).toBe(403);
    expect((await preview(noRetrieve, f.id)).statusCode).toBe(403);
    const r = ok(await preview(reviewer, f.id));
    expect((await fetchObject(r.url)).body).toBe('vaulted');
    const entry = (await auditActions(t, admin.organizationId)).filter((e) => e.action === 'PREVIEW_FILE' && e.targetId === f.id).at(-1);
    expect(entry?.details).toMatchObject({ vaulted: true });
  });

  it("a guest previews with a 'view' grant (which still refuses the download) or a 'download' grant; unshared is 404", async () => {
    const m = await createMatter(admin.client);
    const f = await uploadFile(t, admin.client, m.id, 'engagement.pdf', Buffer.from('%PDF-1.4 engagement'));
    const guest = await addMember(t, admin.organizationId, 'guest', { canRetrieve: false }, 'Gia Guest');
    const unshared = await preview(guest, f.id);
    expect(unshared.statusCode).toBe(404);
    expect(unshared.json().error).toBe(NODE_MSG.itemNotFound);

    const userId = await publicIdOf(guest.userId);
    ok(await admin.client.post('/_api/settings/guest-access/grant', { userId, matterId: m.id, access: 'view' }));
    const r = ok(await preview(guest, f.id));
    expect(r.previewKind).toBe('pdf');
    expect((await fetchObject(r.url)).body).toBe('%PDF-1.4 engagement');
    const download = await guest.client.get(`/_api/nodes/download-url?nodeId=${f.id}`);
    expect(download.statusCode).toBe(403);
    expect(download.json().error).toBe(NODE_MSG.guestViewOnly);
    const audited = await t.ctx.db
      .selectFrom('auditLogs')
      .select(['actorId', 'action'])
      .where('organizationId', '=', admin.organizationId)
      .where('targetId', '=', f.id)
      .execute();
    expect(audited).toContainEqual({ actorId: guest.userId, action: 'PREVIEW_FILE' });

    ok(await admin.client.post('/_api/settings/guest-access/grant', { userId, matterId: m.id, access: 'download' }));
    expect(ok(await preview(guest, f.id)).previewKind).toBe('pdf');
    // Another matter of the firm, not shared with the guest, stays unknown to them.
    const m2 = await createMatter(admin.client);
    const f2 = await uploadFile(t, admin.client, m2.id, 'secret.pdf', Buffer.from('secret'));
    expect((await preview(guest, f2.id)).statusCode).toBe(404);
  });
});
