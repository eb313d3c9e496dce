/**
 * Every version of a file goes into the vault: a file uploaded twice and then restored to its first version is
 * vaulted as three objects, each copied under the lock and read back against its own sha256; the certificate lists
 * each version's sha256 and a third party's verifier checks each; every version stays downloadable from the vault,
 * nothing of the matter is left in the working store, the storage figures count each vault object; verification
 * checks each version, and retention end destroys each and lists each on the certificate of destruction.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SignedCertificate } from '@strongroom/contracts';
import { type LocalBlobStore } from '../../platform/storage/local-store.js';
import { currentTotp } from '../mfa/index.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import {
  auditActions,
  createFolder,
  createMatter,
  freePort,
  newOrganizationWithTotp,
  ok,
  sha256,
  uploadFile,
  type TotpMember,
} from '../../../test/factories.js';
import { verifyCertificateCli } from '../../../test/process-helpers.js';
import { enqueueRetentionEnd, VAULT_RETENTION_JOB } from './vault-retention.jobs.js';
import { VAULT_TRANSFER_JOB, vaultObjectKey } from './vault-transfer.jobs.js';
import { enqueueVaultVerification, VAULT_VERIFY_JOB } from './vault-verification.jobs.js';

const tempDirs: string[] = [];

let t: TestApp;
let admin: TotpMember;
beforeAll(async () => {
  const port = await freePort();
  t = await createTestApp({ JOB_RUNNER: 'off', APP_URL: `http://127.0.0.1:${port}` });
  await t.app.listen({ host: '127.0.0.1', port });
  admin = await newOrganizationWithTotp(t, 'Versions & Vault LLP');
});
afterAll(async () => {
  for (const d of tempDirs) await fs.rm(d, { recursive: true, force: true });
  await t.shutdown();
});

async function vault(matterId: string) {
  await t.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', admin.userId).execute();
  return ok(await admin.client.post('/_api/vault/start', { matterId, retentionYears: 7, mfaToken: currentTotp(admin.totpSecret) }));
}

async function download(nodeId: string, version?: number): Promise<Buffer> {
  const { url } = ok(await admin.client.get(`/_api/nodes/download-url?nodeId=${nodeId}${version ? `&version=${version}` : ''}`));
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

const objectsOf = (matterId: string) =>
  t.ctx.db.selectFrom('vaultObjects').selectAll().where('matterId', '=', matterId).orderBy('path').orderBy('versionNumber').execute();

/** A matter with Drafts/defence.pdf in three versions (the third restored from the first) and a single-version note. */
async function matterWithVersions(name: string) {
  const m = await createMatter(admin.client, { matterName: name });
  const drafts = await createFolder(admin.client, m.id, 'Drafts');
  const v1 = randomBytes(20_000);
  const v2 = randomBytes(31_000);
  const note = Buffer.from('attendance note');
  const defence = await uploadFile(t, admin.client, m.id, 'defence.pdf', v1, drafts.id);
  await uploadFile(t, admin.client, m.id, 'defence.pdf', v2, drafts.id, 'application/pdf', 'newVersion');
  ok(await admin.client.post('/_api/nodes/restore-version', { nodeId: defence.id, versionNumber: 1 }));
  const noteFile = await uploadFile(t, admin.client, m.id, 'note.txt', note, null, 'text/plain');
  const workingKeys = (await t.ctx.db.selectFrom('nodeVersions').select('storagePath').where('matterId', '=', m.id).execute()).map(
    (r) => r.storagePath,
  );
  return { m, defence, noteFile, v1, v2, note, workingKeys };
}

describe('vaulting a matter whose files have versions', () => {
  it('copies and checks every version, certifies each sha256, and leaves nothing in the working store', async () => {
    const before = ok(await admin.client.get('/_api/dashboard/storage'));
    const { m, defence, noteFile, v1, v2, note, workingKeys } = await matterWithVersions('Versions into the vault');
    // Hot storage counts the two stored objects of the defence once each (version 3 shares version 1's) and the note.
    const hot = ok(await admin.client.get('/_api/dashboard/storage'));
    expect(hot.hotBytes - before.hotBytes).toBe(v1.length + v2.length + note.length);

    await vault(m.id);
    expect(await t.ctx.jobs.runDueJobs([VAULT_TRANSFER_JOB])).toEqual({ completed: 1, failed: 0 });

    // One vault object per version, at its own key, with that version's bytes read back.
    const objects = await objectsOf(m.id);
    const expected = [
      { path: 'Drafts/defence.pdf', versionNumber: 1, sha256: sha256(v1), size: String(v1.length), nodeId: defence.id },
      { path: 'Drafts/defence.pdf', versionNumber: 2, sha256: sha256(v2), size: String(v2.length), nodeId: defence.id },
      { path: 'Drafts/defence.pdf', versionNumber: 3, sha256: sha256(v1), size: String(v1.length), nodeId: defence.id },
      { path: 'note.txt', versionNumber: 1, sha256: sha256(note), size: String(note.length), nodeId: noteFile.id },
    ];
    expect(objects).toMatchObject(expected);
    for (const o of objects) {
      expect(o.objectKey).toBe(vaultObjectKey(admin.organizationId, m.id, o.nodeId, 1, o.versionNumber));
      expect(await t.ctx.store.sha256(o.objectKey)).toBe(o.sha256);
      expect((await t.ctx.store.vaultInfo(o.objectKey))?.lock?.mode).toBe('COMPLIANCE');
    }
    // Each version's record and the node (the current version) point at the vault copies.
    const versions = await t.ctx.db
      .selectFrom('nodeVersions')
      .select(['versionNumber', 'storagePath'])
      .where('nodeId', '=', defence.id)
      .orderBy('versionNumber')
      .execute();
    expect(versions.map((v) => v.storagePath)).toEqual(objects.slice(0, 3).map((o) => o.objectKey));
    const node = await t.ctx.db.selectFrom('nodes').select('storagePath').where('id', '=', defence.id).executeTakeFirstOrThrow();
    expect(node.storagePath).toBe(objects[2]!.objectKey);

    // The working store keeps nothing of the matter once the delete jobs have run.
    await t.ctx.jobs.runDueJobs(['delete-objects']);
    for (const key of workingKeys) expect(await t.ctx.store.head(key)).toBeNull();

    // Every version is still read, from the vault.
    expect(await download(defence.id)).toEqual(v1);
    expect(await download(defence.id, 1)).toEqual(v1);
    expect(await download(defence.id, 2)).toEqual(v2);
    expect(await download(defence.id, 3)).toEqual(v1);

    // Progress counts files (two) and every version's bytes; the storage figures count each vault object.
    const transfer = await t.ctx.db.selectFrom('vaultTransfers').selectAll().where('matterId', '=', m.id).executeTakeFirstOrThrow();
    const vaultBytes = 2 * v1.length + v2.length + note.length;
    expect(transfer).toMatchObject({
      state: 'completed',
      filesTotal: 2,
      filesDone: 2,
      bytesTotal: String(vaultBytes),
      bytesDone: String(vaultBytes),
    });
    const after = ok(await admin.client.get('/_api/dashboard/storage'));
    expect(after.hotBytes).toBe(before.hotBytes);
    expect(after.vaultedBytes - before.vaultedBytes).toBe(vaultBytes);
    const completed = (await auditActions(t, admin.organizationId)).find(
      (a) => a.targetId === m.id && a.action === 'VAULT_TRANSFER_COMPLETED',
    );
    expect(completed?.details).toMatchObject({ files: 2, versions: 4, bytes: vaultBytes, expectedFiles: 2 });

    // The certificate lists each version with its own sha256.
    const res = await admin.client.get(`/_api/vault/certificate?matterId=${m.id}`);
    expect(res.statusCode).toBe(200);
    const cert = JSON.parse(res.body) as SignedCertificate;
    expect(cert.payload.files.map((f) => [f.path, f.fileVersion, f.sha256])).toEqual(
      expected.map((e) => [e.path, e.versionNumber, e.sha256]),
    );
    expect(cert.payload.totals).toEqual({ files: 2, versions: 4, bytes: vaultBytes });

    // The vault list and the report count files once and name each version.
    const detail = ok(await admin.client.get(`/_api/vault/list?searchQuery=${encodeURIComponent('Versions into the vault')}`));
    expect(detail.matters[0]).toMatchObject({ fileCount: 2 });
    const report = await admin.client.get(`/_api/vault/report?matterId=${m.id}`);
    expect(report.statusCode).toBe(200);
    expect(report.body).toContain('2 files (4 versions) in the vault');
    expect(report.body).toContain('Drafts/defence.pdf (version 2)');

    // A stranger's check: each version fetched from the vault, earlier ones saved as <path>.v<N>.
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'strongroom-versions-'));
    tempDirs.push(dir);
    const certFile = path.join(dir, 'certificate.json');
    const keyFile = path.join(dir, 'installation.pem');
    await fs.writeFile(certFile, res.body);
    await fs.writeFile(keyFile, cert.publicKey);
    const files = path.join(dir, 'files');
    const saveAs = async (name: string, bytes: Buffer) => {
      await fs.mkdir(path.dirname(path.join(files, name)), { recursive: true });
      await fs.writeFile(path.join(files, name), bytes);
    };
    await saveAs('Drafts/defence.pdf', await download(defence.id));
    await saveAs('Drafts/defence.pdf.v1', await download(defence.id, 1));
    await saveAs('Drafts/defence.pdf.v2', await download(defence.id, 2));
    await saveAs('note.txt', await download(noteFile.id));
    const passed = verifyCertificateCli(certFile, '--files', files, '--public-key', keyFile);
    expect(passed.stderr).toBe('');
    expect(passed.status).toBe(0);
    expect(passed.stdout).toContain('Files: 2 (4 versions)');
    expect(passed.stdout).toContain('4 of 4');
    // An earlier version that is not the one certified fails the check, by its name.
    await saveAs('Drafts/defence.pdf.v2', v1);
    const failed = verifyCertificateCli(certFile, '--files', files, '--public-key', keyFile);
    expect(failed.status).toBe(1);
    expect(failed.stderr).toContain('Drafts/defence.pdf.v2: ');
  });

  it('checks every version in the continuous verification, and finds a changed earlier version', async () => {
    const { m } = await matterWithVersions('Versions verified');
    await vault(m.id);
    await t.ctx.jobs.runDueJobs([VAULT_TRANSFER_JOB]);
    const objects = await objectsOf(m.id);
    await enqueueVaultVerification(t.ctx);
    expect(await t.ctx.jobs.runDueJobs([VAULT_VERIFY_JOB])).toEqual({ completed: 1, failed: 0 });
    for (const o of objects) {
      const row = await t.ctx.db.selectFrom('vaultObjects').selectAll().where('id', '=', o.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ lastVerificationOk: true });
    }
    // Version 2's vault copy changed behind the store's back: the next check names that version's object.
    const second = objects.find((o) => o.versionNumber === 2)!;
    const file = (t.ctx.store as LocalBlobStore).objectPath(second.objectKey);
    await fs.chmod(file, 0o644);
    await fs.writeFile(file, randomBytes(Number(second.size)));
    await fs.chmod(file, 0o400);
    await t.ctx.db
      .updateTable('vaultObjects')
      .set({ lastVerifiedAt: new Date(0) })
      .where('matterId', '=', m.id)
      .execute();
    await enqueueVaultVerification(t.ctx);
    await t.ctx.jobs.runDueJobs([VAULT_VERIFY_JOB]);
    const failures = (await auditActions(t, admin.organizationId)).filter((a) => a.action === 'VAULT_VERIFICATION_FAILED');
    expect(failures.map((f) => f.details?.objectKey)).toEqual([second.objectKey]);
  });

  it('destroys every version at retention end and lists each on the certificate of destruction', async () => {
    const { m, defence } = await matterWithVersions('Versions destroyed');
    await vault(m.id);
    // A retention that ends a moment from now, and no hold, so that the locks run out within the test.
    const ends = new Date(Date.now() + 1500);
    await t.ctx.db.updateTable('matters').set({ retentionExpiresAt: ends, legalHold: false }).where('id', '=', m.id).execute();
    await t.ctx.jobs.runDueJobs([VAULT_TRANSFER_JOB]);
    const objects = await objectsOf(m.id);
    expect(objects).toHaveLength(4);
    // The disposition review queues it, and an administrator approves its destruction.
    await t.ctx.jobs.enqueue(t.ctx.db, 'disposition-review', {});
    expect(await t.ctx.jobs.runDueJobs(['disposition-review'])).toEqual({ completed: 1, failed: 0 });
    await t.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', admin.userId).execute();
    ok(
      await admin.client.post('/_api/disposition/decide', {
        matterId: m.id,
        decision: 'destroy',
        reason: 'Retention over',
        mfaToken: currentTotp(admin.totpSecret),
      }),
    );
    await vi.waitFor(
      () => {
        if (Date.now() <= ends.getTime()) throw new Error('retention has not ended yet');
      },
      { timeout: 5000, interval: 50 },
    );
    await enqueueRetentionEnd(t.ctx);
    expect(await t.ctx.jobs.runDueJobs([VAULT_RETENTION_JOB])).toEqual({ completed: 1, failed: 0 });
    for (const o of objects) expect(await t.ctx.store.head(o.objectKey)).toBeNull();
    expect((await objectsOf(m.id)).every((o) => o.state === 'destroyed')).toBe(true);
    const destruction = await t.ctx.db
      .selectFrom('vaultCertificates')
      .selectAll()
      .where('matterId', '=', m.id)
      .where('kind', '=', 'destruction')
      .executeTakeFirstOrThrow();
    expect(destruction.body.payload.files.map((f) => [f.path, f.fileVersion, f.sha256])).toEqual(
      objects.map((o) => [o.path, o.versionNumber, o.sha256]),
    );
    expect(destruction.body.payload.totals).toMatchObject({ files: 2, versions: 4 });
    // An earlier version answers that it was deleted, as the current one does.
    expect((await admin.client.get(`/_api/nodes/download-url?nodeId=${defence.id}&version=2`)).statusCode).toBe(404);
  });
});
