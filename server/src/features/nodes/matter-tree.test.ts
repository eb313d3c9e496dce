/**
 * The matter's tree as GET /_api/matters/detail answers it: the database writes each node's fields as JSON text,
 * so these tests hold the tree to what the other calls answer for the same nodes, field for field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { matterDetailResponse, nodeSchema, type NodeTreeDto } from '@strongroom/contracts';
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
    expect(withoutChildren(byId.get(outer.id)!)).toEqual(outer);
    expect(withoutChildren(byId.get(inner.id)!)).toEqual(inner);
    expect(withoutChildren(byId.get(file.id)!)).toEqual(file);
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
