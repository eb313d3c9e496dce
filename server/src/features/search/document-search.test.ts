import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_SEARCH_LIMITS, DOCUMENT_SEARCH_MSG, type DocumentSearchResponse, type NodeTreeDto } from '@strongroom/contracts';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import {
  addMember,
  auditActions,
  createMatter,
  newOrganization,
  ok,
  setMatterFlags,
  uploadFile,
  type Member,
} from '../../../test/factories.js';
import { FILE_TEXT_JOB } from './document-text.jobs.js';

let t: TestApp;
let admin: Member;
let other: Member;
let lease: { id: string; matterNumber: string };
let vaulted: { id: string };
let letter: { id: string };
let memo: { id: string };

const text = (s: string) => Buffer.from(s, 'utf8');

async function readTexts(): Promise<void> {
  await t.ctx.jobs.runDueJobs([FILE_TEXT_JOB]);
}

async function searchAs(member: Member, query: Record<string, string>): Promise<DocumentSearchResponse> {
  return ok(await member.client.get(`/_api/search/documents?${new URLSearchParams(query)}`)) as DocumentSearchResponse;
}

const names = (r: DocumentSearchResponse) => r.hits.map((h) => h.name);
const marked = (r: DocumentSearchResponse, i = 0) =>
  r.hits[i]!.snippet.filter((p) => p.match)
    .map((p) => p.text.toLowerCase())
    .join(' ');

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Acme LLP');
  other = await newOrganization(t, 'Other & Partners');
  lease = await createMatter(admin.client, { matterName: 'Harbour Lease', clientName: 'Quayside Holdings' });
  letter = await uploadFile(
    t,
    admin.client,
    lease.id,
    'Letter to landlord.txt',
    text('Dear Sir,\nThe indemnity in clause fourteen covers the tenant. Regards, the firm.'),
    null,
    'text/plain',
  );
  memo = await uploadFile(
    t,
    admin.client,
    lease.id,
    'Zephyr memo.txt',
    text('Notes on rent reviews and the break option.'),
    null,
    'text/plain',
  );
  await uploadFile(t, admin.client, lease.id, 'Schedule.csv', text('item,amount\nindemnities,400\n'), null, 'text/csv');
  vaulted = await createMatter(admin.client, { matterName: 'Old Estate', clientName: 'Estate Trust' });
  await uploadFile(t, admin.client, vaulted.id, 'Deed.txt', text('An indemnity given in the old deed.'), null, 'text/plain');
  await setMatterFlags(t, vaulted.id, { vaulted: true });
  const theirs = await createMatter(other.client, { matterName: 'Harbour Lease' });
  await uploadFile(t, other.client, theirs.id, 'Their letter.txt', text('The indemnity of another firm.'), null, 'text/plain');
});
afterAll(() => t.shutdown());

async function treeFiles(member: Member, matterId: string): Promise<NodeTreeDto[]> {
  const body = ok(await member.client.get(`/_api/matters/detail?matterId=${matterId}`)) as { nodes: NodeTreeDto[] };
  return body.nodes.filter((n) => n.nodeType === 'file');
}

describe('reading the text of stored files', () => {
  it('shows each new file as pending until the background job has read it, then as indexed', async () => {
    const before = await treeFiles(admin, lease.id);
    expect(before.map((n) => n.textState)).toEqual(['pending', 'pending', 'pending']);
    // Nothing is found by its text before the job ran; a name is found at once.
    expect((await searchAs(admin, { q: 'indemnity' })).hits).toEqual([]);
    expect(names(await searchAs(admin, { q: 'zephyr' }))).toEqual(['Zephyr memo.txt']);
    await readTexts();
    const after = await treeFiles(admin, lease.id);
    expect(after.map((n) => n.textState)).toEqual(['indexed', 'indexed', 'indexed']);
    expect(after.map((n) => n.textReason)).toEqual([null, null, null]);
  });

  it('records a file with no text it can read as "no_text" with the reason, still found by name', async () => {
    const matter = await createMatter(admin.client, { matterName: 'Binary Matter' });
    await uploadFile(t, admin.client, matter.id, 'Archive quokka.zip', Buffer.from([0x50, 0x4b, 3, 4, 0, 0]), null, 'application/zip');
    await readTexts();
    const [file] = await treeFiles(admin, matter.id);
    expect(file!.textState).toBe('no_text');
    expect(file!.textReason).toMatch(/\S/);
    expect(names(await searchAs(admin, { q: 'quokka' }))).toEqual(['Archive quokka.zip']);
  });
});

describe('GET /_api/search/documents', () => {
  it('finds a file by a word of its text, in any form the language stems to, with the words marked', async () => {
    const r = await searchAs(admin, { q: 'indemnities' });
    expect(names(r).sort()).toEqual(['Deed.txt', 'Letter to landlord.txt', 'Schedule.csv']);
    const hit = r.hits.find((h) => h.name === 'Letter to landlord.txt')!;
    expect(hit.snippet.filter((p) => p.match).map((p) => p.text.toLowerCase())).toEqual(['indemnity']);
    expect(hit.snippet.map((p) => p.text).join('')).toContain('clause fourteen');
    expect(hit).toMatchObject({
      nodeId: letter.id,
      versionNumber: 1,
      current: true,
      mimeType: 'text/plain',
      matter: { id: lease.id, matterName: 'Harbour Lease', clientName: 'Quayside Holdings', status: 'Open' },
      path: [],
      page: null,
      nameMatched: false,
    });
    expect(hit.uploadedBy?.name).toMatch(/\S/);
    expect(r).toMatchObject({ query: 'indemnities', page: 1, limit: DOCUMENT_SEARCH_LIMITS.limitDefault, total: 3, totalCapped: false });
  });

  it('reads "a phrase", -exclusions and prefix* as a search engine does', async () => {
    expect(names(await searchAs(admin, { q: '"clause fourteen"' }))).toEqual(['Letter to landlord.txt']);
    expect(names(await searchAs(admin, { q: '"fourteen clause"' }))).toEqual([]);
    expect(names(await searchAs(admin, { q: 'indemnity -tenant' })).sort()).toEqual(['Deed.txt', 'Schedule.csv']);
    expect(names(await searchAs(admin, { q: 'indemnity -"the tenant"' })).sort()).toEqual(['Deed.txt', 'Schedule.csv']);
    const prefixed = await searchAs(admin, { q: 'indem*' });
    expect(names(prefixed).sort()).toEqual(['Deed.txt', 'Letter to landlord.txt', 'Schedule.csv']);
    expect(names(await searchAs(admin, { q: 'brea*' }))).toEqual(['Zephyr memo.txt']);
    expect(marked(await searchAs(admin, { q: 'brea*' }))).toContain('break');
  });

  it('ranks a file whose name holds the words above one whose text does', async () => {
    await uploadFile(t, admin.client, lease.id, 'Indemnity schedule.txt', text('See the attached list.'), null, 'text/plain');
    await readTexts();
    const r = await searchAs(admin, { q: 'indemnity' });
    expect(r.hits[0]).toMatchObject({ name: 'Indemnity schedule.txt', nameMatched: true, snippet: [] });
  });

  it('narrows by matter, client, file type, uploader and upload day', async () => {
    expect(names(await searchAs(admin, { q: 'indemnity', fileType: 'spreadsheet' }))).toEqual(['Schedule.csv']);
    expect(names(await searchAs(admin, { q: 'indemnity', fileType: 'pdf' }))).toEqual([]);
    expect((await searchAs(admin, { q: 'indemnity', matterId: lease.id })).hits.every((h) => h.matter.id === lease.id)).toBe(true);
    expect((await searchAs(admin, { q: 'indemnity', clientName: 'quayside holdings' })).total).toBeGreaterThan(0);
    expect((await searchAs(admin, { q: 'indemnity', clientName: 'Nobody Ltd' })).total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await searchAs(admin, { q: 'indemnity', dateFrom: today, dateTo: today })).total).toBeGreaterThan(0);
    expect((await searchAs(admin, { q: 'indemnity', dateFrom: '2000-01-01', dateTo: '2000-01-02' })).total).toBe(0);
    const uploader = (await searchAs(admin, { q: 'indemnity' })).hits[0]!.uploadedBy!.id;
    expect(uploader).toMatch(/^[0-9a-f-]{36}$/);
    expect((await searchAs(admin, { q: 'indemnity', uploadedBy: uploader })).total).toBeGreaterThan(0);
    const colleague = await addMember(t, admin.organizationId, 'user');
    const someoneElse = await t.ctx.db.selectFrom('users').select('publicId').where('id', '=', colleague.userId).executeTakeFirstOrThrow();
    expect((await searchAs(admin, { q: 'indemnity', uploadedBy: someoneElse.publicId })).total).toBe(0);
  });

  it('searches the current version by default and every version on request', async () => {
    await uploadFile(
      t,
      admin.client,
      lease.id,
      'Zephyr memo.txt',
      text('Rewritten: the guarantee schedule.'),
      null,
      'text/plain',
      'newVersion',
    );
    await readTexts();
    expect(names(await searchAs(admin, { q: 'break option' }))).toEqual([]);
    const all = await searchAs(admin, { q: 'break option', versions: 'all' });
    expect(all.hits.map((h) => [h.name, h.versionNumber, h.current])).toEqual([['Zephyr memo.txt', 1, false]]);
    expect(names(await searchAs(admin, { q: 'guarantee' }))).toEqual(['Zephyr memo.txt']);
  });

  it('finds a renamed file by its new name, and no longer by the old one', async () => {
    ok(await admin.client.post('/_api/nodes/rename', { nodeId: memo.id, newName: 'Quillon notes.txt' }));
    expect(names(await searchAs(admin, { q: 'quillon' }))).toEqual(['Quillon notes.txt']);
    expect(names(await searchAs(admin, { q: 'zephyr' }))).toEqual([]);
    // The text is still found after the rename.
    expect(names(await searchAs(admin, { q: 'guarantee' }))).toEqual(['Quillon notes.txt']);
  });

  it('never shows another organization’s files, and answers 404 for its matter', async () => {
    expect(names(await searchAs(other, { q: 'indemnity' }))).toEqual(['Their letter.txt']);
    expect(names(await searchAs(admin, { q: 'indemnity' }))).not.toContain('Their letter.txt');
    const res = await other.client.get(`/_api/search/documents?q=indemnity&matterId=${lease.id}`);
    expect(res.statusCode).toBe(404);
  });

  it('shows vaulted matters’ files only to holders of canViewVaulted, and a guest only the matters shared with them', async () => {
    expect(names(await searchAs(admin, { q: 'deed' }))).toEqual(['Deed.txt']);
    const user = await addMember(t, admin.organizationId, 'user', { canViewVaulted: false });
    expect(names(await searchAs(user, { q: 'deed' }))).toEqual([]);
    expect((await user.client.get(`/_api/search/documents?q=deed&matterId=${vaulted.id}`)).statusCode).toBe(404);
    const guest = await addMember(t, admin.organizationId, 'guest');
    expect((await searchAs(guest, { q: 'indemnity' })).hits).toEqual([]);
  });

  it('leaves files in the recycle bin out', async () => {
    const matter = await createMatter(admin.client, { matterName: 'Bin Matter' });
    const file = await uploadFile(t, admin.client, matter.id, 'Binned.txt', text('A xylophone recital.'), null, 'text/plain');
    await readTexts();
    expect(names(await searchAs(admin, { q: 'xylophone' }))).toEqual(['Binned.txt']);
    ok(await admin.client.post('/_api/nodes/delete', { nodeId: file.id }));
    expect(names(await searchAs(admin, { q: 'xylophone' }))).toEqual([]);
  });

  it('is audited as SEARCH with the query, the filters and the count', async () => {
    const r = await searchAs(admin, { q: 'indemnity', fileType: 'text' });
    expect(r.total).toBeGreaterThan(0);
    const entries = (await auditActions(t, admin.organizationId)).filter((e) => e.action === 'SEARCH');
    expect(entries.at(-1)!.details).toMatchObject({
      query: 'indemnity',
      count: r.total,
      countCapped: false,
      filters: { fileType: 'text' },
    });
  });

  it('refuses bad input with the messages', async () => {
    const bad = async (query: string) => {
      const res = await admin.client.get(`/_api/search/documents?${query}`);
      expect(res.statusCode).toBe(400);
      return (res.json() as { error: string }).error;
    };
    expect(await bad('')).toBe(DOCUMENT_SEARCH_MSG.queryRequired);
    expect(await bad('q=a')).toBe(DOCUMENT_SEARCH_MSG.queryTooShort);
    expect(await bad(`q=${'a'.repeat(201)}`)).toBe(DOCUMENT_SEARCH_MSG.queryTooLong);
    expect(await bad('q=the+and+of')).toBe(DOCUMENT_SEARCH_MSG.noTerms);
    expect(await bad('q=-indemnity')).toBe(DOCUMENT_SEARCH_MSG.noTerms);
    expect(await bad(`q=${Array.from({ length: 17 }, (_, i) => `w${i}`).join('+')}`)).toBe(DOCUMENT_SEARCH_MSG.tooManyTerms);
    expect(await bad('q=lease&fileType=exe')).toBe(DOCUMENT_SEARCH_MSG.invalidFileType);
    expect(await bad('q=lease&dateFrom=2024-02-30')).toBe(DOCUMENT_SEARCH_MSG.invalidDate);
    expect(await bad('q=lease&dateFrom=2024-03-02&dateTo=2024-03-01')).toBe(DOCUMENT_SEARCH_MSG.dateOrder);
    expect(await bad('q=lease&versions=some')).toBe(DOCUMENT_SEARCH_MSG.invalidVersions);
    expect(await bad('q=lease&matterId=nope')).toBe(DOCUMENT_SEARCH_MSG.invalidMatterId);
    expect(await bad('q=lease&uploadedBy=7')).toBe(DOCUMENT_SEARCH_MSG.invalidUploadedBy);
    expect(await bad('q=lease&limit=51')).toBe(DOCUMENT_SEARCH_MSG.limitRange);
    expect(await bad('q=lease&page=0')).toBe(DOCUMENT_SEARCH_MSG.pageRange);
  });

  it('takes query syntax characters as plain words, never as an error', async () => {
    for (const q of ["o'brien & (x | y) <-> z:*", '!!indemnity', 'indemnity:*A', '\\\\ ) ( ::', '"unclosed phrase']) {
      const res = await admin.client.get(`/_api/search/documents?${new URLSearchParams({ q })}`);
      expect([200, 400]).toContain(res.statusCode);
    }
    expect(names(await searchAs(admin, { q: '"clause fourteen' }))).toEqual(['Letter to landlord.txt']);
  });
});

describe('more matches than are counted', () => {
  it('counts up to countMax and says there are more; pages go on best first, the name match on top', async () => {
    const m = await createMatter(admin.client, { matterName: 'Crowded Matter' });
    const { organizationId, userId } = admin;
    const files = Array.from({ length: DOCUMENT_SEARCH_LIMITS.countMax + 5 }, (_, i) => ({
      id: randomUUID(),
      name: i === 700 ? 'Multitudinous list.txt' : `Crowd ${i}.txt`,
      storagePath: `crowd/${i}`,
    }));
    const common = { organizationId, matterId: m.id, fileSize: 20, mimeType: 'text/plain', sha256Hash: 'a'.repeat(64), createdBy: userId };
    await t.ctx.db
      .insertInto('nodes')
      .values(
        files.map((f) => ({
          ...common,
          id: f.id,
          parentId: null,
          name: f.name,
          nodeType: 'file',
          storagePath: f.storagePath,
          currentVersion: 1,
        })),
      )
      .execute();
    await t.ctx.db
      .insertInto('nodeVersions')
      .values(files.map((f) => ({ ...common, nodeId: f.id, versionNumber: 1, storagePath: f.storagePath })))
      .execute();
    // Their texts as the job would have written them: the word in every one.
    await t.ctx.db
      .updateTable('fileTexts')
      .set({
        state: 'indexed',
        body: 'A multitudinous crowd.',
        tsv: sql`tsv || setweight(to_tsvector('english', 'A multitudinous crowd.'), 'B')`,
      })
      .where('organizationId', '=', organizationId)
      .where('matterId', '=', m.id)
      .execute();

    const first = await searchAs(admin, { q: 'multitudinous' });
    expect(first).toMatchObject({ total: DOCUMENT_SEARCH_LIMITS.countMax, totalCapped: true });
    expect(first.hits).toHaveLength(DOCUMENT_SEARCH_LIMITS.limitDefault);
    expect(first.hits[0]).toMatchObject({ name: 'Multitudinous list.txt', nameMatched: true });
    const second = await searchAs(admin, { q: 'multitudinous', page: '2' });
    expect(second).toMatchObject({ total: DOCUMENT_SEARCH_LIMITS.countMax, totalCapped: true });
    expect(second.hits).toHaveLength(DOCUMENT_SEARCH_LIMITS.limitDefault);
    const seen = new Set([...first.hits, ...second.hits].map((h) => h.nodeId));
    expect(seen.size).toBe(2 * DOCUMENT_SEARCH_LIMITS.limitDefault);
    // A narrower search counts exactly.
    expect(await searchAs(admin, { q: 'multitudinous list' })).toMatchObject({ total: 1, totalCapped: false });
  });
});
