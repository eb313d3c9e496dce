import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_LIMITS, SEARCH_MSG, type SearchResponse } from '@strongroom/contracts';
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
import { matterMatches, searchTerm } from './search.repository.js';

let t: TestApp;
let admin: Member;
let other: Member;
let deal: { id: string };
let vaulted: { id: string };
let shared: { id: string };
let deepFile: { id: string };
let folders: Array<{ id: string }>;

const pdf = Buffer.from('%PDF-1.4 search test');

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Acme LLP');
  other = await newOrganization(t, 'Other & Partners');
  deal = await createMatter(admin.client, {
    matterName: 'Harbour Acquisition',
    matterNumber: 'MAT-2026-501',
    clientName: 'Quayside Holdings',
    responsibleAttorney: 'Imogen Marlowe',
    description: 'Purchase of the pier estate',
  });
  // A file three folders deep: Contracts / Signed / Final / Zephyr agreement.pdf
  const a = await createFolder(admin.client, deal.id, 'Contracts');
  const b = await createFolder(admin.client, deal.id, 'Signed', a.id);
  const c = await createFolder(admin.client, deal.id, 'Final', b.id);
  folders = [a, b, c];
  deepFile = await uploadFile(t, admin.client, deal.id, 'Zephyr agreement.pdf', pdf, c.id);
  await uploadFile(t, admin.client, deal.id, 'rate 100% _draft.pdf', pdf);
  // Would match t\v2 if the backslash escaped the v.
  await uploadFile(t, admin.client, deal.id, 'budgetv2.pdf', pdf);
  await uploadFile(t, admin.client, deal.id, 'rate 1000 xdraft.pdf', pdf);

  vaulted = await createMatter(admin.client, { matterName: 'Old Estate' });
  await uploadFile(t, admin.client, vaulted.id, 'Zephyr vaulted deed.pdf', pdf);
  await setMatterFlags(t, vaulted.id, { vaulted: true });

  shared = await createMatter(admin.client, { matterName: 'Guest Shared' });
  await createFolder(admin.client, shared.id, 'Zephyr correspondence');

  // Another organization's rows that match the same texts.
  const theirs = await createMatter(other.client, { matterName: 'Harbour Acquisition', clientName: 'Quayside Holdings' });
  await uploadFile(t, other.client, theirs.id, 'Zephyr agreement.pdf', pdf);
});
afterAll(() => t.shutdown());

async function search(member: Member, query: string): Promise<SearchResponse> {
  return ok(await member.client.get(`/_api/search?${query}`)) as SearchResponse;
}

const matterIds = (r: SearchResponse) => r.groups.map((g) => g.matter.id);
const nodeNames = (r: SearchResponse) => r.groups.flatMap((g) => g.nodes.map((n) => n.name));

describe('GET /_api/search', () => {
  it('finds a matter by its name, number, client, lawyer and description', async () => {
    for (const q of ['harbour acq', 'MAT-2026-501', 'quayside', 'Marlowe', 'pier estate']) {
      const r = await search(admin, `q=${encodeURIComponent(q)}`);
      expect(matterIds(r), q).toEqual([deal.id]);
      expect(r.groups[0]!.matter).toEqual({
        id: deal.id,
        matterName: 'Harbour Acquisition',
        matterNumber: 'MAT-2026-501',
        clientName: 'Quayside Holdings',
        responsibleLawyer: 'Imogen Marlowe',
        status: 'Open',
        legalHold: false,
        matched: true,
      });
    }
  });

  it('finds files and folders by name with their folder path from the root, grouped by matter', async () => {
    const r = await search(admin, 'q=zephyr%20agree');
    expect(r.groups).toHaveLength(1);
    expect(r.groups[0]!.matter).toMatchObject({ id: deal.id, matched: false });
    expect(r.groups[0]!.nodes).toEqual([
      {
        id: deepFile.id,
        name: 'Zephyr agreement.pdf',
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
    const f = await search(admin, 'q=signed');
    expect(f.groups[0]!.nodes).toEqual([
      {
        id: folders[1]!.id,
        name: 'Signed',
        kind: 'folder',
        size: null,
        parentId: folders[0]!.id,
        path: [{ id: folders[0]!.id, name: 'Contracts' }],
      },
    ]);
  });

  it('ranks an exact name before a prefix before a match inside the name', async () => {
    await createFolder(admin.client, deal.id, 'Final drafts');
    await createFolder(admin.client, deal.id, 'Not final');
    const r = await search(admin, 'q=final');
    expect(nodeNames(r)).toEqual(['Final', 'Final drafts', 'Not final']);
  });

  it('shows files of vaulted matters only to holders of canViewVaulted, labelled Vaulted', async () => {
    const r = await search(admin, 'q=zephyr');
    expect(matterIds(r)).toContain(vaulted.id);
    expect(r.groups.find((g) => g.matter.id === vaulted.id)!.matter.status).toBe('Vaulted');
    const user = await addMember(t, admin.organizationId, 'user', { canViewVaulted: false });
    const hidden = await search(user, 'q=zephyr');
    expect(matterIds(hidden)).not.toContain(vaulted.id);
    expect(nodeNames(hidden)).not.toContain('Zephyr vaulted deed.pdf');
    expect(matterIds(await search(user, 'q=old%20estate'))).toEqual([]);
  });

  it('gives a guest only the matters shared with them', async () => {
    const guest = await addMember(t, admin.organizationId, 'guest');
    expect((await search(guest, 'q=zephyr')).groups).toEqual([]);
    await t.ctx.db
      .insertInto('guestMatterGrants')
      .values({ organizationId: admin.organizationId, matterId: shared.id, userId: guest.userId, grantedBy: admin.userId })
      .execute();
    const r = await search(guest, 'q=zephyr');
    expect(matterIds(r)).toEqual([shared.id]);
    expect(nodeNames(r)).toEqual(['Zephyr correspondence']);
  });

  it("never shows another organization's matching rows", async () => {
    const mine = await search(admin, 'q=zephyr%20agreement');
    expect(matterIds(mine)).toEqual([deal.id]);
    const theirs = await search(other, 'q=zephyr');
    expect(theirs.groups.map((g) => g.matter.matterName)).toEqual(['Harbour Acquisition']);
    expect(matterIds(theirs)).not.toContain(deal.id);
  });

  it('matches two characters at the start of a name only, three or more anywhere', async () => {
    expect(nodeNames(await search(admin, 'q=bu'))).toEqual(['budgetv2.pdf']);
    expect(nodeNames(await search(admin, 'q=ud'))).toEqual([]);
    expect(nodeNames(await search(admin, 'q=udg'))).toEqual(['budgetv2.pdf']);
    expect(matterIds(await search(admin, 'q=ha'))).toEqual([deal.id]);
    // A matter's short match is at the start of any of its fields: the client's, the lawyer's, the description's.
    for (const q of ['qu', 'im', 'pu']) expect(matterIds(await search(admin, `q=${q}`)), q).toEqual([deal.id]);
    expect(matterIds(await search(admin, 'q=ar'))).toEqual([]);
  });

  it("never matches across two of a matter's fields, and takes a regular expression's characters literally", async () => {
    // 'Acquisition' ends the name and 'MAT' starts the number: together they are no text the matter holds.
    expect(matterIds(await search(admin, `q=${encodeURIComponent('acquisition mat')}`))).toEqual([]);
    expect(matterIds(await search(admin, `q=${encodeURIComponent('acquisitionmat')}`))).toEqual([]);
    const odd = await createMatter(admin.client, { matterName: '(A) Holdings', clientName: '.* Ltd' });
    expect(matterIds(await search(admin, `q=${encodeURIComponent('(a')}`))).toEqual([odd.id]);
    expect(matterIds(await search(admin, `q=${encodeURIComponent('.*')}`))).toEqual([odd.id]);
    expect(matterIds(await search(admin, `q=${encodeURIComponent('|h')}`))).toEqual([]);
  });

  it("reads the matters' one trigram index, for a short text and a long one", async () => {
    // The search's expression must be the index's, character for character, or the index is never used.
    await t.ctx.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      for (const query of ['zephyr', 'ha']) {
        const matching = trx
          .selectFrom('matters')
          .select('id')
          .where(matterMatches(searchTerm(query)));
        const { rows } = await sql<{ 'QUERY PLAN': string }>`explain ${matching}`.execute(trx);
        expect(rows.map((r) => r['QUERY PLAN']).join('\n'), query).toContain('Bitmap Index Scan on matters_search_trgm');
      }
    });
  });

  it('finds a name holding several words only where they stand together, in that order', async () => {
    expect(nodeNames(await search(admin, `q=${encodeURIComponent('zephyr agreement')}`))).toEqual(['Zephyr agreement.pdf']);
    expect(nodeNames(await search(admin, `q=${encodeURIComponent('ZEPHYR AGREEMENT.PDF')}`))).toEqual(['Zephyr agreement.pdf']);
    expect(nodeNames(await search(admin, `q=${encodeURIComponent('agreement zephyr')}`))).toEqual([]);
    expect(nodeNames(await search(admin, `q=${encodeURIComponent('zephyr  agreement')}`))).toEqual([]);
  });

  it('takes %, _ and \\ in the text literally', async () => {
    expect(nodeNames(await search(admin, `q=${encodeURIComponent('100%')}`))).toEqual(['rate 100% _draft.pdf']);
    expect(nodeNames(await search(admin, `q=${encodeURIComponent('_draft')}`))).toEqual(['rate 100% _draft.pdf']);
    expect(nodeNames(await search(admin, `q=${encodeURIComponent('budget')}`))).toEqual(['budgetv2.pdf']);
    expect(nodeNames(await search(admin, `q=${encodeURIComponent('t\\v2')}`))).toEqual([]);
    expect(nodeNames(await search(admin, `q=${encodeURIComponent('%%')}`))).toEqual([]);
  });

  it('pages through the ranked hits without overlap', async () => {
    const all = await search(admin, 'q=zephyr&limit=50');
    const ids = all.groups.flatMap((g) => [g.matter.matched ? g.matter.id : [], ...g.nodes.map((n) => n.id)].flat());
    expect(all.hasMore).toBe(false);
    expect(ids.length).toBe(3);
    const seen: string[] = [];
    for (let page = 1; page <= 3; page += 1) {
      const r = await search(admin, `q=zephyr&limit=1&page=${page}`);
      expect(r).toMatchObject({ page, limit: 1, hasMore: page < 3 });
      seen.push(...r.groups.flatMap((g) => g.nodes.map((n) => n.id)));
    }
    expect(seen).toEqual(ids);
    expect((await search(admin, 'q=zephyr&limit=1&page=4')).groups).toEqual([]);
  });

  it('ranks a broad search (over a thousand matches) from the nearest names, exact first, paged without overlap', async () => {
    const bulk = await createMatter(admin.client, { matterName: 'Bulk Matter' });
    await t.ctx.db
      .insertInto('nodes')
      .values(
        Array.from({ length: 1100 }, (_, i) => ({
          organizationId: admin.organizationId,
          matterId: bulk.id,
          parentId: null,
          name: `Quillon exhibit ${i}`,
          nodeType: 'folder' as const,
        })),
      )
      .execute();
    await createFolder(admin.client, bulk.id, 'Quillon');
    const first = await search(admin, 'q=quillon&limit=50');
    expect(first.hasMore).toBe(true);
    expect(nodeNames(first)[0]).toBe('Quillon');
    expect(nodeNames(first)).toHaveLength(50);
    const second = await search(admin, 'q=quillon&limit=50&page=2');
    expect(nodeNames(second)).toHaveLength(50);
    expect(nodeNames(second).filter((n) => nodeNames(first).includes(n))).toEqual([]);
    // Visibility still holds on the broad path: a guest without a grant sees none of it.
    const guest = await addMember(t, admin.organizationId, 'guest');
    expect((await search(guest, 'q=quillon')).groups).toEqual([]);
  });

  it('refuses a missing, short or long query and a limit or page out of range with a clear 400', async () => {
    const cases: Array<[string, string]> = [
      ['', SEARCH_MSG.queryRequired],
      ['q=%20%20', SEARCH_MSG.queryRequired],
      ['q=a', SEARCH_MSG.queryTooShort],
      ['q=%20a%20', SEARCH_MSG.queryTooShort],
      [`q=${'x'.repeat(SEARCH_LIMITS.queryMax + 1)}`, SEARCH_MSG.queryTooLong],
      ['q=ab&limit=0', SEARCH_MSG.limitRange],
      [`q=ab&limit=${SEARCH_LIMITS.limitMax + 1}`, SEARCH_MSG.limitRange],
      ['q=ab&limit=2.5', SEARCH_MSG.limitRange],
      ['q=ab&limit=ten', SEARCH_MSG.limitRange],
      ['q=ab&page=0', SEARCH_MSG.pageRange],
      [`q=ab&page=${SEARCH_LIMITS.pageMax + 1}`, SEARCH_MSG.pageRange],
    ];
    for (const [query, message] of cases) {
      const r = await admin.client.get(`/_api/search?${query}`);
      expect(r.statusCode, query).toBe(400);
      expect(r.json().error, query).toBe(message);
    }
    const r = await search(admin, 'q=ab');
    expect(r).toMatchObject({ limit: SEARCH_LIMITS.limitDefault, page: 1 });
  });

  it('needs a session', async () => {
    expect((await t.app.inject('/_api/search?q=zephyr')).statusCode).toBe(401);
  });
});
