import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Migrator, sql } from 'kysely';
import { NODE_MSG } from '@strongroom/contracts';
import { createTestApp, testDatabase, type TestApp } from './helpers.js';
import { migrations } from '../src/platform/db/migrations/index.js';
import { createFolder, createMatter, newOrganization, ok, uploadFile, type Member } from './factories.js';

let t: TestApp;
let admin: Member;
let matterId: string;
beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Names LLP');
  matterId = (await createMatter(admin.client)).id;
});
afterAll(() => t.shutdown());

const COMPOSED = 'Caf\u00e9';
const DECOMPOSED = 'Cafe\u0301';

const nodeCount = async () =>
  Number(
    (
      await t.ctx.db
        .selectFrom('nodes')
        .select(sql<number>`count(*)::int`.as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('folder and file names', () => {
  it.each([
    ['a C1 control', 'Report\u0085Final'],
    ['a right-to-left override', 'invoice\u202efdp.exe'],
    ['a left-to-right embedding', 'a\u202ab'],
    ['a first-strong isolate', 'a\u2068b'],
    ['a right-to-left mark', 'a\u200fb'],
    ['an Arabic letter mark', 'a\u061cb'],
    ['a zero-width space', 'Plea\u200bdings'],
    ['a zero-width joiner', 'Ple\u200dadings'],
    ['a word joiner', 'Ple\u2060adings'],
    ['a byte order mark inside', 'Ple\ufeffadings'],
  ])('refuses %s in a folder name, a rename and a file name, changing nothing', async (_label, name) => {
    const before = await nodeCount();
    const create = await admin.client.post('/_api/nodes/create', { matterId, folderName: name });
    expect(create.statusCode).toBe(400);
    expect(create.json().error).toBe('Folder name contains invalid characters.');
    const folder = await createFolder(admin.client, matterId, `Plain ${Math.random().toString(36).slice(2, 8)}`);
    const rename = await admin.client.post('/_api/nodes/rename', { nodeId: folder.id, newName: name });
    expect(rename.statusCode).toBe(400);
    expect(rename.json().error).toBe('Name contains invalid characters.');
    const upload = await admin.client.post('/_api/upload/presigned', {
      fileName: `${name}.pdf`,
      fileType: 'application/pdf',
      matterId,
      parentId: null,
      fileSize: 4,
    });
    expect(upload.statusCode).toBe(400);
    expect(upload.json().error).toBe('File name contains invalid characters.');
    expect(await nodeCount()).toBe(before + 1);
  });

  it('stores names in NFC: a composed and a decomposed Café are one name in a folder', async () => {
    const m = await createMatter(admin.client);
    const first = await createFolder(admin.client, m.id, DECOMPOSED);
    expect(first.name).toBe(COMPOSED);
    const row = await t.ctx.db.selectFrom('nodes').select('name').where('id', '=', first.id).executeTakeFirstOrThrow();
    expect(row.name).toBe(COMPOSED);
    const twin = await admin.client.post('/_api/nodes/create', { matterId: m.id, folderName: COMPOSED });
    expect(twin.statusCode).toBe(409);
    expect(twin.json().error).toBe(NODE_MSG.nameExists(COMPOSED));
    const other = await createFolder(admin.client, m.id, 'Other');
    const rename = await admin.client.post('/_api/nodes/rename', { nodeId: other.id, newName: `  ${DECOMPOSED.toUpperCase()}  ` });
    expect(rename.statusCode).toBe(409);
    const file = await uploadFile(t, admin.client, m.id, `${DECOMPOSED} menu.pdf`, Buffer.from('menu'));
    expect(file.name).toBe(`${COMPOSED} menu.pdf`);
  });

  it('matter names, clients and lawyers are stored in NFC too, so they group as one client', async () => {
    const a = await createMatter(admin.client, {
      matterName: `${DECOMPOSED} matter`,
      clientName: DECOMPOSED,
      responsibleAttorney: `Jos${'e\u0301'}`,
    });
    expect(a).toMatchObject({ matterName: `${COMPOSED} matter`, clientName: COMPOSED, responsibleLawyer: 'Jos\u00e9' });
    await createMatter(admin.client, { clientName: COMPOSED });
    const suggestions = ok(await admin.client.get(`/_api/matters/clients/suggestions?query=${encodeURIComponent(DECOMPOSED)}`));
    expect(suggestions).toEqual([expect.objectContaining({ clientName: COMPOSED, matterCount: 2 })]);
  });
});

describe('migration 20261127_0005_input_hardening', () => {
  it('brings stored names to NFC, leaving a pair that would clash for the users to rename', async () => {
    const db = await testDatabase();
    try {
      // The test database is migrated to the latest version: go back to just before this migration, then forward.
      const migrator = new Migrator({
        db: db.db,
        provider: { getMigrations: async () => migrations },
        migrationTableName: 'schema_migrations',
        migrationLockTableName: 'schema_migrations_lock',
      });
      const down = await migrator.migrateTo('20261127_0004_upload_integrity');
      expect(down.error).toBeUndefined();
      const org = await sql<{ id: string }>`insert into organizations (name) values ('Old Data LLP') returning id`.execute(db.db);
      const orgId = org.rows[0]!.id;
      const matter = await sql<{ id: string }>`
        insert into matters (organization_id, matter_name, client_name, responsible_lawyer)
        values (${orgId}, ${`${DECOMPOSED} v Smith`}, ${DECOMPOSED}, ${'Jose\u0301'}) returning id`.execute(db.db);
      const mid = matter.rows[0]!.id;
      const folder = async (name: string) =>
        (
          await sql<{
            id: string;
          }>`insert into nodes (organization_id, matter_id, name, node_type) values (${orgId}, ${mid}, ${name}, 'folder') returning id`.execute(
            db.db,
          )
        ).rows[0]!.id;
      const alone = await folder(`Menu ${DECOMPOSED}`);
      const clashA = await folder(COMPOSED);
      const clashB = await folder(DECOMPOSED);
      const up = await migrator.migrateToLatest();
      expect(up.error).toBeUndefined();
      const names = Object.fromEntries(
        (await sql<{ id: string; name: string }>`select id, name from nodes where matter_id = ${mid}`.execute(db.db)).rows.map((r) => [
          r.id,
          r.name,
        ]),
      );
      expect(names[alone]).toBe(`Menu ${COMPOSED}`);
      expect(names[clashA]).toBe(COMPOSED);
      expect(names[clashB]).toBe(DECOMPOSED);
      const m = await db.db
        .selectFrom('matters')
        .select(['matterName', 'clientName', 'responsibleLawyer'])
        .where('id', '=', mid)
        .executeTakeFirstOrThrow();
      expect(m).toEqual({ matterName: `${COMPOSED} v Smith`, clientName: COMPOSED, responsibleLawyer: 'Jos\u00e9' });
    } finally {
      await db.close();
    }
  });
});
