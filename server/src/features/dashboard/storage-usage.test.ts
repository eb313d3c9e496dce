/**
 * Storage Used is a running total the database keeps in the transaction of each change. Whatever happens to the
 * files (uploads at the same moment, a folder deleted, a matter vaulted, a vault object destroyed at retention
 * end) and however often the total is folded while that happens, the figure the dashboard answers equals the sum
 * over the files and vault objects as they are stored.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentTotp } from '../mfa/index.js';
import { runBinPurge } from '../nodes/index.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { createFolder, createMatter, newOrganizationWithTotp, ok, uploadFile, type TotpMember } from '../../../test/factories.js';
import { foldStorageUsage } from './dashboard.repository.js';

const VAULT_TRANSFER_JOB = 'vault-transfer';

let t: TestApp;
let admin: TotpMember;

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganizationWithTotp(t, 'Ledger & Sum LLP');
});
afterAll(() => t.shutdown());

/**
 * The figures summed over what is stored, as a stranger to the running total would compute them: every stored
 * object of a file's versions once (a restored version shares the object it restored).
 */
async function recomputed(organizationId: string) {
  const { rows } = await sql<{ hot: string; vaulted: string }>`select
      (select coalesce(sum(o.size), 0) from (
        select distinct v.storage_path, v.file_size as size from node_versions v join matters m on m.id = v.matter_id
        where v.organization_id = ${organizationId} and not m.is_vaulted) o)::text as hot,
      (select coalesce(sum(v.size), 0) from vault_objects v
        where v.organization_id = ${organizationId} and v.state = 'vaulted')::text as vaulted`.execute(t.ctx.db);
  const hotBytes = Number(rows[0]!.hot);
  const vaultedBytes = Number(rows[0]!.vaulted);
  return { hotBytes, vaultedBytes, totalBytes: hotBytes + vaultedBytes, quotaBytes: null };
}

/** A day past the longest a bin keeps an item. */
const AFTER_THE_BIN = new Date(Date.now() + 366 * 24 * 3600 * 1000);

const storage = async () => ok(await admin.client.get('/_api/dashboard/storage'));

describe('the running total of stored bytes', () => {
  it('equals the stored files and vault objects through concurrent uploads, folds, deletion, vaulting and destruction', async () => {
    const kept = await createMatter(admin.client, { matterName: 'Kept matter' });
    const vaulted = await createMatter(admin.client, { matterName: 'Matter to vault' });

    // Seventy uploads at once, with folds running beside them: more rows than a read leaves unfolded.
    const sizes = Array.from({ length: 70 }, (_, i) => 100 + i);
    await Promise.all([
      ...sizes.map((n, i) => uploadFile(t, admin.client, i % 2 ? kept.id : vaulted.id, `doc-${i}.pdf`, randomBytes(n))),
      ...Array.from({ length: 5 }, () => foldStorageUsage(t.ctx.db, admin.organizationId)),
    ]);
    const total = sizes.reduce((a, b) => a + b, 0);
    expect(await storage()).toEqual({ hotBytes: total, vaultedBytes: 0, totalBytes: total, quotaBytes: null });
    expect(await storage()).toEqual(await recomputed(admin.organizationId));
    // The read folded the rows: one is left, holding the same sum.
    const rows = await t.ctx.db.selectFrom('storageUsage').select('hotBytes').where('organizationId', '=', admin.organizationId).execute();
    expect(rows).toEqual([{ hotBytes: String(total) }]);

    // A folder with three files deleted: in the recycle bin their bytes are still stored and still count; once the
    // bin is emptied they leave the figure.
    const folder = await createFolder(admin.client, kept.id, 'Drafts');
    const inner = await createFolder(admin.client, kept.id, 'Old', folder.id);
    for (const [name, n] of [
      ['a.pdf', 11],
      ['b.pdf', 22],
      ['c.pdf', 33],
    ] as const)
      await uploadFile(t, admin.client, kept.id, name, randomBytes(n), name === 'c.pdf' ? inner.id : folder.id);
    expect((await storage()).hotBytes).toBe(total + 66);
    ok(await admin.client.post('/_api/nodes/delete', { nodeId: folder.id }));
    expect(await storage()).toEqual(await recomputed(admin.organizationId));
    expect((await storage()).hotBytes).toBe(total + 66);
    await runBinPurge(t.ctx, AFTER_THE_BIN);
    expect(await storage()).toEqual(await recomputed(admin.organizationId));
    expect((await storage()).hotBytes).toBe(total);

    // Vaulting moves the matter's files from hot to vaulted, by the exact sizes.
    const vaultedSizes = sizes.filter((_, i) => i % 2 === 0).reduce((a, b) => a + b, 0);
    // The sign-in spent this time step's code; the vault's step-up takes the same one afresh.
    await t.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', admin.userId).execute();
    ok(await admin.client.post('/_api/vault/start', { matterId: vaulted.id, retentionYears: 7, mfaToken: currentTotp(admin.totpSecret) }));
    expect(await t.ctx.jobs.runDueJobs([VAULT_TRANSFER_JOB])).toEqual({ completed: 1, failed: 0 });
    expect(await storage()).toEqual({ hotBytes: total - vaultedSizes, vaultedBytes: vaultedSizes, totalBytes: total, quotaBytes: null });
    expect(await storage()).toEqual(await recomputed(admin.organizationId));

    // A vault object destroyed (as retention end marks it) no longer counts.
    const object = await t.ctx.db
      .selectFrom('vaultObjects')
      .select(['id', 'size'])
      .where('organizationId', '=', admin.organizationId)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    await t.ctx.db.updateTable('vaultObjects').set({ state: 'destroyed', destroyedAt: new Date() }).where('id', '=', object.id).execute();
    expect((await storage()).vaultedBytes).toBe(vaultedSizes - Number(object.size));
    expect(await storage()).toEqual(await recomputed(admin.organizationId));
  });

  it('counts nothing for a change that moves or renames a file', async () => {
    const matter = await createMatter(admin.client, { matterName: 'Renames only' });
    const file = await uploadFile(t, admin.client, matter.id, 'draft.pdf', randomBytes(500));
    await foldStorageUsage(t.ctx.db, admin.organizationId);
    const before = await t.ctx.db.selectFrom('storageUsage').select('id').where('organizationId', '=', admin.organizationId).execute();
    await t.ctx.db.updateTable('nodes').set({ name: 'final.pdf' }).where('id', '=', file.id).execute();
    const after = await t.ctx.db.selectFrom('storageUsage').select('id').where('organizationId', '=', admin.organizationId).execute();
    expect(after).toEqual(before);
    expect(await storage()).toEqual(await recomputed(admin.organizationId));
  });

  it('counts every version of a file once, a restored version not again, and nothing once the file is deleted', async () => {
    const matter = await createMatter(admin.client, { matterName: 'Versions' });
    const before = (await storage()).hotBytes;
    const file = await uploadFile(t, admin.client, matter.id, 'brief.pdf', randomBytes(100));
    const second = await stored(matter.id, 'brief.pdf', randomBytes(250));
    expect(ok(await admin.client.post('/_api/upload/multipart-complete', second)).file).toMatchObject({ id: file.id, currentVersion: 2 });
    expect((await storage()).hotBytes).toBe(before + 350);
    ok(await admin.client.post('/_api/nodes/restore-version', { nodeId: file.id, versionNumber: 1 }));
    expect((await storage()).hotBytes).toBe(before + 350);
    expect(await storage()).toEqual(await recomputed(admin.organizationId));

    // Deleting the file moves it to the bin (still counted); emptying the bin removes every version's object (the
    // job runs after the commit).
    ok(await admin.client.post('/_api/nodes/delete', { nodeId: file.id }));
    expect((await storage()).hotBytes).toBe(before + 350);
    await runBinPurge(t.ctx, AFTER_THE_BIN);
    expect((await storage()).hotBytes).toBe(before);
    expect(await storage()).toEqual(await recomputed(admin.organizationId));
    await t.ctx.jobs.runDueJobs(['delete-objects']);
    expect(await t.ctx.store.head(file.storagePath)).toBeNull();
    expect(await t.ctx.store.head(second.s3Key)).toBeNull();
  });
});

/** A single PUT of a new version of `fileName`, stored and ready to complete. */
async function stored(matterId: string, fileName: string, bytes: Buffer) {
  const body = { fileName, fileType: 'application/pdf', matterId, parentId: null, fileSize: bytes.length, onConflict: 'newVersion' };
  const signed = ok(await admin.client.post('/_api/upload/presigned', body));
  const url = new URL(signed.url);
  const put = await t.app.inject({ method: 'PUT', url: url.pathname + url.search, payload: bytes, headers: signed.headers });
  expect(put.statusCode).toBe(200);
  return { ...body, s3Key: signed.s3Key as string };
}
