/**
 * A folder or a whole matter as one ZIP: the paths as the tree has them, every file's bytes, and manifest.csv with
 * each file's size and recorded sha256, checked here by reading the ZIP back; who may (canRetrieve, a guest's
 * download grant, vaulted matters with canViewVaulted), another organization's ids 404, audited; a file whose stored
 * bytes are not the recorded ones ends the download with an error instead of a ZIP that says something untrue.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBuffer, type Entry, type ZipFile } from 'yauzl';
import { NODE_MSG, ZIP_MANIFEST_NAME } from '@strongroom/contracts';
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
import type { LocalBlobStore } from '../../platform/storage/local-store.js';

let t: TestApp;
let admin: Member;
let other: Member;
beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Acme LLP');
  other = await newOrganization(t, 'Other & Partners');
  await t.ctx.db
    .updateTable('featureFlags')
    .set({ enabled: false })
    .where('organizationId', '=', admin.organizationId)
    .where('flagName', '=', 'MFA_USER_MANAGEMENT')
    .execute();
});
afterAll(() => t.shutdown());

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Every entry of a ZIP with its bytes, read back with an independent ZIP reader. */
function readZip(buffer: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    fromBuffer(buffer, { lazyEntries: true }, (err, zip?: ZipFile) => {
      if (err || !zip) return reject(err ?? new Error('no zip'));
      const out = new Map<string, Buffer>();
      zip.on('entry', (entry: Entry) => {
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            out.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

/** A matter: Pleadings/Defence.pdf, Pleadings/Drafts/Draft 1.docx, Letter.pdf at the root, and an empty folder. */
async function matterWithTree(c = admin.client, name = 'Smith v Jones') {
  const matter = await createMatter(c, { matterName: name });
  const pleadings = await createFolder(c, matter.id, 'Pleadings');
  const drafts = await createFolder(c, matter.id, 'Drafts', pleadings.id);
  await createFolder(c, matter.id, 'Empty');
  const bytes = { defence: randomBytes(3000), draft: randomBytes(700), letter: randomBytes(1200) };
  const files = {
    defence: await uploadFile(t, c, matter.id, 'Defence.pdf', bytes.defence, pleadings.id),
    draft: await uploadFile(
      t,
      c,
      matter.id,
      'Draft 1.docx',
      bytes.draft,
      drafts.id,
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ),
    letter: await uploadFile(t, c, matter.id, 'Letter.pdf', bytes.letter),
  };
  return { matter, pleadings, drafts, bytes, files };
}

describe('GET /_api/nodes/download-zip', () => {
  it('streams a whole matter: every file at its path, and a manifest of paths, sizes and sha256', async () => {
    const m = await matterWithTree();
    const res = await admin.client.get(`/_api/nodes/download-zip?matterId=${m.matter.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toContain('Smith v Jones.zip');
    const zip = await readZip(res.rawPayload);
    expect([...zip.keys()].sort()).toEqual(
      [ZIP_MANIFEST_NAME, 'Letter.pdf', 'Pleadings/Defence.pdf', 'Pleadings/Drafts/Draft 1.docx'].sort(),
    );
    expect(zip.get('Pleadings/Defence.pdf')).toEqual(m.bytes.defence);
    expect(zip.get('Pleadings/Drafts/Draft 1.docx')).toEqual(m.bytes.draft);
    expect(zip.get('Letter.pdf')).toEqual(m.bytes.letter);
    expect(zip.get(ZIP_MANIFEST_NAME)!.toString('utf8').trim().split('\r\n')).toEqual([
      'path,size,sha256',
      `Letter.pdf,1200,${sha(m.bytes.letter)}`,
      `Pleadings/Defence.pdf,3000,${sha(m.bytes.defence)}`,
      `Pleadings/Drafts/Draft 1.docx,700,${sha(m.bytes.draft)}`,
    ]);
    const entry = (await auditActions(t, admin.organizationId)).find((e) => e.action === 'DOWNLOAD_ZIP' && e.targetId === m.matter.id);
    expect(entry?.details).toMatchObject({ matterId: m.matter.id, folderName: null, fileCount: 3, totalBytes: 4900 });
  });

  it('streams one folder with the paths below it; an empty folder holds the manifest alone', async () => {
    const m = await matterWithTree(admin.client, 'Folder matter');
    const res = await admin.client.get(`/_api/nodes/download-zip?nodeId=${m.pleadings.id}`);
    expect(res.headers['content-disposition']).toContain('Pleadings.zip');
    const zip = await readZip(res.rawPayload);
    expect([...zip.keys()].sort()).toEqual(['Defence.pdf', 'Drafts/Draft 1.docx', ZIP_MANIFEST_NAME]);
    const empty = (
      await t.ctx.db
        .selectFrom('nodes')
        .select('id')
        .where('name', '=', 'Empty')
        .where('matterId', '=', m.matter.id)
        .executeTakeFirstOrThrow()
    ).id;
    const none = await admin.client.get(`/_api/nodes/download-zip?nodeId=${empty}`);
    expect(none.headers['content-disposition']).toContain('Empty.zip');
    expect([...(await readZip(none.rawPayload)).keys()]).toEqual([ZIP_MANIFEST_NAME]);
  });

  it('refuses a file, a missing or double target, bad ids, another organization and a member without canRetrieve', async () => {
    const m = await matterWithTree(admin.client, 'Refusals');
    const file = await admin.client.get(`/_api/nodes/download-zip?nodeId=${m.files.letter.id}`);
    expect(file.statusCode).toBe(400);
    expect(file.json().error).toBe(NODE_MSG.zipFoldersOnly);
    for (const q of ['', `?nodeId=${m.pleadings.id}&matterId=${m.matter.id}`]) {
      const r = await admin.client.get(`/_api/nodes/download-zip${q}`);
      expect(r.statusCode).toBe(400);
      expect(r.json().error).toBe(NODE_MSG.zipTargetRequired);
    }
    expect((await admin.client.get('/_api/nodes/download-zip?nodeId=1')).json().error).toBe(NODE_MSG.invalidNodeId);
    expect((await admin.client.get('/_api/nodes/download-zip?matterId=x')).json().error).toBe(NODE_MSG.invalidMatterId);
    expect((await other.client.get(`/_api/nodes/download-zip?nodeId=${m.pleadings.id}`)).statusCode).toBe(404);
    expect((await other.client.get(`/_api/nodes/download-zip?matterId=${m.matter.id}`)).statusCode).toBe(404);
    const noRetrieve = await addMember(t, admin.organizationId, 'user', { canRetrieve: false });
    expect((await noRetrieve.client.get(`/_api/nodes/download-zip?matterId=${m.matter.id}`)).statusCode).toBe(403);
  });

  it("follows a guest's grant: 404 unshared, 403 with 'view', the ZIP with 'download'", async () => {
    const m = await matterWithTree(admin.client, 'Shared matter');
    const guest = await addMember(t, admin.organizationId, 'guest', {}, 'Gia Guest');
    const publicId = (await t.ctx.db.selectFrom('users').select('publicId').where('id', '=', guest.userId).executeTakeFirstOrThrow())
      .publicId;
    const url = `/_api/nodes/download-zip?matterId=${m.matter.id}`;
    expect((await guest.client.get(url)).statusCode).toBe(404);
    ok(await admin.client.post('/_api/settings/guest-access/grant', { userId: publicId, matterId: m.matter.id, access: 'view' }));
    const view = await guest.client.get(url);
    expect(view.statusCode).toBe(403);
    expect(view.json().error).toBe(NODE_MSG.guestViewOnly);
    ok(await admin.client.post('/_api/settings/guest-access/grant', { userId: publicId, matterId: m.matter.id, access: 'download' }));
    const got = await guest.client.get(url);
    expect(got.statusCode).toBe(200);
    expect((await readZip(got.rawPayload)).get('Letter.pdf')).toEqual(m.bytes.letter);
  });

  it('refuses a vaulted matter to a member without canViewVaulted, as its page does', async () => {
    const m = await matterWithTree(admin.client, 'Vaulted matter');
    await setMatterFlags(t, m.matter.id, { vaulted: true });
    const viewer = await addMember(t, admin.organizationId, 'user', { canRetrieve: true, canViewVaulted: false });
    const page = await viewer.client.get(`/_api/matters/detail?matterId=${m.matter.id}`);
    const zip = await viewer.client.get(`/_api/nodes/download-zip?matterId=${m.matter.id}`);
    expect(page.statusCode).toBe(403);
    expect(zip.statusCode).toBe(403);
    expect(zip.json().error).toBe(page.json().error);
    await setMatterFlags(t, m.matter.id, { vaulted: false });
  });

  it('ends the download with an error when a stored file is not the recorded bytes', async () => {
    const m = await matterWithTree(admin.client, 'Tampered matter');
    const store = t.ctx.store as unknown as LocalBlobStore;
    const changed = Buffer.from(m.bytes.defence);
    changed[10] = changed[10]! ^ 0xff;
    await fs.writeFile(store.objectPath(m.files.defence.storagePath), changed);
    const got = await admin.client.get(`/_api/nodes/download-zip?matterId=${m.matter.id}`).then(
      (r) => r.rawPayload,
      (e: unknown) => e,
    );
    // The response is cut off: never a complete ZIP whose manifest vouches for bytes it does not hold.
    if (Buffer.isBuffer(got)) await expect(readZip(got)).rejects.toThrow();
    else expect(String(got)).toContain('response destroyed before completion');
    // The same ZIP without the tampered file is whole.
    await fs.writeFile((t.ctx.store as unknown as LocalBlobStore).objectPath(m.files.defence.storagePath), m.bytes.defence);
    expect((await readZip((await admin.client.get(`/_api/nodes/download-zip?matterId=${m.matter.id}`)).rawPayload)).size).toBe(4);
  });
});
