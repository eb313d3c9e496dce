import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MATTER_MSG, SEARCH_MSG, type SearchResponse } from '@strongroom/contracts';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import {
  addMember,
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
let deal: { id: string };
let sibling: { id: string };
let vaulted: { id: string };
let theirs: { id: string };
let deepFile: { id: string };
let folders: Array<{ id: string }>;

const pdf = Buffer.from('%PDF-1.4 search in matter test');

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Acme LLP');
  other = await newOrganization(t, 'Other & Partners');
  // The matter's own name matches too: within the matter it is never a hit.
  deal = await createMatter(admin.client, { matterName: 'Orchid Merger' });
  const a = await createFolder(admin.client, deal.id, 'Contracts');
  const b = await createFolder(admin.client, deal.id, 'Signed', a.id);
  const c = await createFolder(admin.client, deal.id, 'Final', b.id);
  folders = [a, b, c];
  deepFile = await uploadFile(t, admin.client, deal.id, 'Orchid deed.pdf', pdf, c.id);
  await createFolder(admin.client, deal.id, 'Orchid notes');

  // Another matter of the same organization, and another organization's, with a file of the same name.
  sibling = await createMatter(admin.client, { matterName: 'Sibling Matter' });
  await uploadFile(t, admin.client, sibling.id, 'Orchid deed.pdf', pdf);
  theirs = await createMatter(other.client, { matterName: 'Orchid Merger' });
  await uploadFile(t, other.client, theirs.id, 'Orchid deed.pdf', pdf);

  vaulted = await createMatter(admin.client, { matterName: 'Old Orchid Estate' });
  await uploadFile(t, admin.client, vaulted.id, 'Orchid deed.pdf', pdf);
  await setMatterFlags(t, vaulted.id, { vaulted: true });
});
afterAll(() => t.shutdown());

const get = (member: Member, query: string) => member.client.get(`/_api/search?${query}`);
const search = async (member: Member, query: string) => ok(await get(member, query)) as SearchResponse;
const nodeIds = (r: SearchResponse) => r.groups.flatMap((g) => g.nodes.map((n) => n.id));

describe('GET /_api/search with matterId', () => {
  it("finds a file three folders deep with its path, and only that matter's files and folders", async () => {
    const r = await search(admin, `q=orchid%20deed&matterId=${deal.id}`);
    expect(r.groups).toHaveLength(1);
    expect(r.groups[0]!.matter.id).toBe(deal.id);
    expect(r.groups[0]!.nodes).toEqual([
      {
        id: deepFile.id,
        name: 'Orchid deed.pdf',
        kind: 'file',
        size: pdf.length,
        parentId: folders[2]!.id,
        path: [
          { id: folders[0]!.id, name: 'Contracts' },
          { id: folders[1]!.id, name: 'Signed' },
          { id: folders[2]!.id, name: 'Final' },
        ],
      },
    ]);
    // Without matterId the same text finds the other matters' files of that name too.
    expect(nodeIds(await search(admin, 'q=orchid%20deed'))).toHaveLength(3);
  });

  it('never answers the matter itself as a hit, and ranks and pages its nodes as the search does', async () => {
    const all = await search(admin, `q=orchid&matterId=${deal.id}`);
    expect(all.groups.map((g) => g.matter.id)).toEqual([deal.id]);
    expect(all.groups[0]!.nodes.map((n) => n.name).sort()).toEqual(['Orchid deed.pdf', 'Orchid notes']);
    const first = await search(admin, `q=orchid&matterId=${deal.id}&limit=1`);
    expect(first).toMatchObject({ hasMore: true, page: 1 });
    const second = await search(admin, `q=orchid&matterId=${deal.id}&limit=1&page=2`);
    expect(second.hasMore).toBe(false);
    expect([...nodeIds(first), ...nodeIds(second)]).toEqual(nodeIds(all));
    // Two characters match at the start of a name, as without matterId.
    expect(nodeIds(await search(admin, `q=si&matterId=${deal.id}`))).toEqual([folders[1]!.id]);
    expect((await search(admin, `q=zz&matterId=${deal.id}`)).groups).toEqual([]);
  });

  it("answers 404 'Matter not found.' for a matter the caller may not see", async () => {
    const notFound = async (member: Member, matterId: string) => {
      const r = await get(member, `q=orchid&matterId=${matterId}`);
      expect(r.statusCode, matterId).toBe(404);
      expect(r.json().error, matterId).toBe(MATTER_MSG.matterNotFound);
    };
    // Another organization's matter answers as one that exists nowhere.
    await notFound(admin, theirs.id);
    await notFound(admin, '00000000-0000-4000-8000-000000000000');
    // A vaulted matter without canViewVaulted.
    const user = await addMember(t, admin.organizationId, 'user', { canViewVaulted: false });
    await notFound(user, vaulted.id);
    expect(nodeIds(await search(admin, `q=orchid&matterId=${vaulted.id}`))).toHaveLength(1);
    // A guest: only the matters shared with them.
    const guest = await addMember(t, admin.organizationId, 'guest');
    await notFound(guest, deal.id);
    await t.ctx.db
      .insertInto('guestMatterGrants')
      .values({ organizationId: admin.organizationId, matterId: deal.id, userId: guest.userId, grantedBy: admin.userId })
      .execute();
    expect(nodeIds(await search(guest, `q=orchid%20deed&matterId=${deal.id}`))).toEqual([deepFile.id]);
    await notFound(guest, sibling.id);
  });

  it('refuses a matterId that is not a UUID with a clear 400, and takes a blank one as none', async () => {
    for (const bad of ['abc', '123', `${deal.id}x`, "' or 1=1 --"]) {
      const r = await get(admin, `q=orchid&matterId=${encodeURIComponent(bad)}`);
      expect(r.statusCode, bad).toBe(400);
      expect(r.json().error, bad).toBe(SEARCH_MSG.invalidMatterId);
    }
    expect(nodeIds(await search(admin, 'q=orchid%20deed&matterId='))).toHaveLength(3);
  });
});
