/**
 * The matter's tree as GET /_api/matters/detail answers it: the database writes each node's fields as JSON text,
 * so these tests hold the tree to what the other calls answer for the same nodes, field for field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MATTER_MSG, matterDetailResponse, nodeSchema, type NodeTreeDto } from '@strongroom/contracts';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { createFolder, createMatter, newOrganization, ok, uploadFile, type Member } from '../../../test/factories.js';

let t: TestApp;
let admin: Member;
beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Tree & Sons LLP');
});
afterAll(() => t.shutdown());

const NODE_FIELDS = [...Object.keys(nodeSchema.shape), 'children'].sort();

function flatten(nodes: NodeTreeDto[]): NodeTreeDto[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}

function withoutChildren(n: NodeTreeDto) {
  const { children, ...rest } = n;
  void children;
  return rest;
}

describe('GET /_api/matters/detail: the tree', () => {
  it('answers each node exactly as the calls that made it did, and nothing more', async () => {
    const m = await createMatter(admin.client);
    const outer = await createFolder(admin.client, m.id, "O'Brien & Søn — 日本");
    const inner = await createFolder(admin.client, m.id, 'Exhibits', outer.id);
    const file = await uploadFile(t, admin.client, m.id, 'Letter draft.pdf', Buffer.from('%PDF-1.4 a letter'), inner.id);
    const res = await admin.client.get(`/_api/matters/detail?matterId=${m.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    // The schema's reading of the answer is the answer itself: no field it does not name, none missing.
    expect(matterDetailResponse.parse(body)).toEqual(body);
    const nodes = flatten(body.nodes);
    expect(nodes).toHaveLength(3);
    for (const n of nodes) expect(Object.keys(n).sort()).toEqual(NODE_FIELDS);
    const byId = new Map(nodes.map((n) => [n.id, n]));
    // The tree adds where each file's text stands for document search (null for folders).
    const text = (n: NodeTreeDto) => [n.textState, n.textReason];
    const withoutText = (n: NodeTreeDto) => {
      const { textState, textReason, ...rest } = withoutChildren(n);
      void textState;
      void textReason;
      return rest;
    };
    expect(withoutText(byId.get(outer.id)!)).toEqual(outer);
    expect(withoutText(byId.get(inner.id)!)).toEqual(inner);
    expect(withoutText(byId.get(file.id)!)).toEqual(file);
    expect([text(byId.get(outer.id)!), text(byId.get(file.id)!)]).toEqual([
      [null, null],
      ['pending', null],
    ]);
    expect(byId.get(file.id)).toMatchObject({ path: `/O'Brien & Søn — 日本/Exhibits/Letter draft.pdf`, currentVersion: 1, children: [] });
    expect(byId.get(outer.id)!.currentVersion).toBeNull();
    expect(body.matter).toMatchObject({ id: m.id });
    expect(body).not.toHaveProperty('guestAccess');
  });

  it('puts folders first, then files, each in the order people read names', async () => {
    const m = await createMatter(admin.client);
    for (const name of ['File 10.pdf', 'file 2.pdf', 'Ábaco.pdf']) await uploadFile(t, admin.client, m.id, name, Buffer.from(name));
    for (const name of ['Zeta', 'alpha', 'Folder 10', 'Folder 9']) await createFolder(admin.client, m.id, name);
    const body = ok(await admin.client.get(`/_api/matters/detail?matterId=${m.id}`));
    expect((body.nodes as NodeTreeDto[]).map((n) => n.name)).toEqual([
      'alpha',
      'Folder 9',
      'Folder 10',
      'Zeta',
      'Ábaco.pdf',
      'file 2.pdf',
      'File 10.pdf',
    ]);
  });

  it('answers an empty matter with an empty tree', async () => {
    const m = await createMatter(admin.client);
    const body = ok(await admin.client.get(`/_api/matters/detail?matterId=${m.id}`));
    expect(body.nodes).toEqual([]);
    expect(body.matter.id).toBe(m.id);
  });
});

describe('GET /_api/matters/detail?filesIn=: every folder, the files of one', () => {
  async function matterWithFiles() {
    const m = await createMatter(admin.client);
    const a = await createFolder(admin.client, m.id, 'A');
    const b = await createFolder(admin.client, m.id, 'B', a.id);
    await uploadFile(t, admin.client, m.id, 'root.pdf', Buffer.from('root'));
    await uploadFile(t, admin.client, m.id, 'in-a.pdf', Buffer.from('a'), a.id);
    await uploadFile(t, admin.client, m.id, 'in-b.pdf', Buffer.from('b'), b.id);
    return { m, a, b };
  }
  const names = (nodes: NodeTreeDto[]) => flatten(nodes).map((n) => n.name);
  const detail = async (matterId: string, filesIn: string, c = admin.client) =>
    c.get(`/_api/matters/detail?matterId=${matterId}&filesIn=${encodeURIComponent(filesIn)}`);

  it('root: every folder, nested as ever, and the files at the root only', async () => {
    const { m, b } = await matterWithFiles();
    const body = ok(await detail(m.id, 'root'));
    expect(names(body.nodes)).toEqual(['A', 'B', 'root.pdf']);
    expect(flatten(body.nodes).find((n) => n.id === b.id)).toMatchObject({ path: '/A/B', children: [] });
  });

  it("a folder: every folder and that folder's own files, not those of the folders below it", async () => {
    const { m, a, b } = await matterWithFiles();
    expect(names(ok(await detail(m.id, a.id)).nodes)).toEqual(['A', 'B', 'in-a.pdf']);
    const inB = flatten(ok(await detail(m.id, b.id)).nodes);
    expect(inB.map((n) => n.name)).toEqual(['A', 'B', 'in-b.pdf']);
    expect(inB.find((n) => n.name === 'in-b.pdf')).toMatchObject({ path: '/A/B/in-b.pdf', parentId: b.id });
  });

  it('none: the folders alone; without filesIn, every file', async () => {
    const { m } = await matterWithFiles();
    expect(names(ok(await detail(m.id, 'none')).nodes)).toEqual(['A', 'B']);
    expect(names(ok(await admin.client.get(`/_api/matters/detail?matterId=${m.id}`)).nodes)).toEqual([
      'A',
      'B',
      'in-b.pdf',
      'in-a.pdf',
      'root.pdf',
    ]);
  });

  it('refuses what is neither root, none nor an id, and reads nothing of a folder of another organization', async () => {
    const { m } = await matterWithFiles();
    for (const bad of ['ROOT', 'all', '12345', '']) {
      const res = await detail(m.id, bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe(MATTER_MSG.invalidFilesIn);
    }
    const stranger = await newOrganization(t, 'Stranger LLP');
    const theirs = await createMatter(stranger.client);
    const folder = await createFolder(stranger.client, theirs.id, 'Secret');
    await uploadFile(t, stranger.client, theirs.id, 'secret.pdf', Buffer.from('secret'), folder.id);
    // Their folder's id in my matter: my folders, no file.
    expect(names(ok(await detail(m.id, folder.id)).nodes)).toEqual(['A', 'B']);
    // Their matter: not found, whatever filesIn says.
    expect((await detail(theirs.id, folder.id)).statusCode).toBe(404);
  });
});
