/**
 * The continuous verification of the vault, as an operator and an attacker see it: objects put in the vault
 * through the store's own vault calls (as the transfer does) are re-read on schedule; a byte changed on disk
 * behind Strongroom's back, or a lock that is not the one recorded, is found by the next run, recorded, audited
 * as VAULT_VERIFICATION_FAILED and mailed to the organization's administrators.
 */
import fs from 'node:fs/promises';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { auditActions, createMatter, newOrganization, ok, sha256, uploadFile, type Member } from '../../../test/factories.js';
import { type LocalBlobStore } from '../../platform/storage/local-store.js';
import { enqueueVaultVerification, runVaultVerification, VAULT_VERIFY_JOB } from './vault-verification.jobs.js';

let t: TestApp;
let admin: Member;
let matter: { id: string };
const DAY = 86_400_000;
const retainUntil = new Date(Date.now() + 365 * DAY);
type Vaulted = { id: string; key: string; bytes: Buffer; path: string };
const files: Vaulted[] = [];

/** Puts an uploaded file in the vault as the transfer does: copy under the lock, then the vault_objects row. */
async function vaultFile(organizationId: string, matterId: string, name: string, bytes: Buffer): Promise<Vaulted> {
  const node = await uploadFile(t, admin.client, matterId, name, bytes);
  const key = `vault/${organizationId}/${matterId}/${node.id}`;
  const info = await t.ctx.store.copyToVault({
    sourceKey: node.storagePath,
    vaultKey: key,
    lock: { mode: 'COMPLIANCE', retainUntil, legalHold: true },
  });
  const row = await t.ctx.db
    .insertInto('vaultObjects')
    .values({
      organizationId,
      matterId,
      nodeId: node.id,
      path: `/${name}`,
      objectKey: key,
      versionId: info.versionId,
      sha256: sha256(bytes),
      size: bytes.length,
      storageClass: info.storageClass,
      retainUntil,
      legalHold: true,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, key, bytes, path: `/${name}` };
}

/** A run forced the way an operator forces one: the job enqueued, then run by the queue. */
async function forcedRun() {
  await enqueueVaultVerification(t.ctx);
  return t.ctx.jobs.runDueJobs([VAULT_VERIFY_JOB]);
}

const objectRow = (id: string) => t.ctx.db.selectFrom('vaultObjects').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const checks = (id: string) =>
  t.ctx.db.selectFrom('vaultVerifications').selectAll().where('vaultObjectId', '=', id).orderBy('checkedAt').orderBy('id').execute();
const failures = async () => (await auditActions(t, admin.organizationId)).filter((e) => e.action === 'VAULT_VERIFICATION_FAILED');
const alertMails = () => t.sink.messages.filter((m) => m.subject.includes('failed its integrity check'));

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Acme LLP');
  matter = await createMatter(admin.client, { matterName: 'Verified Matter' });
  files.push(await vaultFile(admin.organizationId, matter.id, 'one.pdf', Buffer.from('first vaulted file')));
  files.push(await vaultFile(admin.organizationId, matter.id, 'two.pdf', Buffer.from('second vaulted file, a little longer')));
  files.push(await vaultFile(admin.organizationId, matter.id, 'three.pdf', Buffer.from('third')));
  await t.ctx.db
    .updateTable('matters')
    .set({ isVaulted: true, status: 'Vaulted', vaultedAt: new Date(), retentionExpiresAt: retainUntil, legalHold: true })
    .where('id', '=', matter.id)
    .execute();
  await t.ctx.db
    .insertInto('vaultTransfers')
    .values({ matterId: matter.id, organizationId: admin.organizationId, state: 'completed', retentionExpiresAt: retainUntil })
    .execute();
});
afterAll(() => t.shutdown());
beforeEach(() => {
  vi.restoreAllMocks();
});

describe('continuous verification', () => {
  it('checks every object never verified, records each result, and the vault list shows the last verification', async () => {
    expect(await forcedRun()).toEqual({ completed: 1, failed: 0 });
    for (const f of files) {
      expect(await checks(f.id)).toMatchObject([{ ok: true, problem: null }]);
      expect(await objectRow(f.id)).toMatchObject({ lastVerificationOk: true });
    }
    const list = ok(await admin.client.get('/_api/vault/list'));
    expect(list.matters[0].lastVerification).toMatchObject({ result: 'passed', objectsChecked: 3, failures: 0 });
    expect(await failures()).toEqual([]);
  });

  it('on schedule, re-reads only objects whose last check is older than the interval, longest ago first', async () => {
    // Nothing is due right after a run.
    expect(await runVaultVerification(t.ctx)).toMatchObject({ checked: 0 });
    await t.ctx.db
      .updateTable('vaultObjects')
      .set({ lastVerifiedAt: new Date(Date.now() - 31 * DAY) })
      .where('id', '=', files[1]!.id)
      .execute();
    await t.ctx.db
      .updateTable('vaultObjects')
      .set({ lastVerifiedAt: new Date(Date.now() - 40 * DAY) })
      .where('id', '=', files[2]!.id)
      .execute();
    const read = vi.spyOn(t.ctx.store, 'sha256');
    expect(await runVaultVerification(t.ctx)).toMatchObject({ checked: 2, failed: 0, dueLeft: false });
    expect(read.mock.calls.map((c) => c[0])).toEqual([files[2]!.key, files[1]!.key]);
    expect((await checks(files[0]!.id)).length).toBe(1);
    expect((await checks(files[1]!.id)).length).toBe(2);
  });

  it('reads at most the hour budget per run (one object at least), leaving the rest for the next run', async () => {
    const budget = t.ctx.config.vaultVerifyBytesPerHour;
    t.ctx.config.vaultVerifyBytesPerHour = 1;
    try {
      expect(await runVaultVerification(t.ctx, { force: true })).toMatchObject({ checked: 1, dueLeft: true });
      t.ctx.config.vaultVerifyBytesPerHour = files[0]!.bytes.length + files[1]!.bytes.length;
      expect(await runVaultVerification(t.ctx, { force: true })).toMatchObject({ checked: 2, dueLeft: true });
    } finally {
      t.ctx.config.vaultVerifyBytesPerHour = budget;
    }
  });

  it('finds a byte changed behind the app, audits VAULT_VERIFICATION_FAILED, mails the administrators, and shows it', async () => {
    const target = files[1]!;
    const store = t.ctx.store as LocalBlobStore;
    const file = store.objectPath(target.key);
    // The store keeps vault files read-only; an intruder with disk access changes that first.
    expect((await fs.stat(file)).mode & 0o777).toBe(0o400);
    await fs.chmod(file, 0o644);
    const tampered = Buffer.from(target.bytes);
    tampered[3] = tampered[3]! ^ 0x01;
    await fs.writeFile(file, tampered);
    await fs.chmod(file, 0o400);

    const mailsBefore = alertMails().length;
    expect(await forcedRun()).toEqual({ completed: 1, failed: 0 });
    const last = (await checks(target.id)).at(-1)!;
    expect(last).toMatchObject({ ok: false });
    expect(last.problem).toContain(`sha256 ${sha256(tampered)} instead of ${sha256(target.bytes)}`);
    expect(await objectRow(target.id)).toMatchObject({ lastVerificationOk: false });
    // The others still pass.
    expect((await checks(files[0]!.id)).at(-1)).toMatchObject({ ok: true });

    const audit = await failures();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      targetId: target.id,
      details: {
        matterId: matter.id,
        matterName: 'Verified Matter',
        path: target.path,
        objectKey: target.key,
        expected: { sha256: sha256(target.bytes), size: target.bytes.length, lockMode: 'COMPLIANCE', legalHold: true },
        found: { sha256: sha256(tampered), size: tampered.length, lockMode: 'COMPLIANCE', legalHold: true },
      },
    });
    await vi.waitFor(() => expect(alertMails().length).toBe(mailsBefore + 1), { timeout: 5000, interval: 25 });
    const mail = alertMails().at(-1)!;
    expect(mail.to).toEqual([admin.email.toLowerCase()]);
    expect(mail.subject).toBe('Strongroom: a vaulted file of Acme LLP failed its integrity check');
    expect(mail.text).toContain('Matter: Verified Matter');
    expect(mail.text).toContain(`File: ${target.path}`);
    expect(mail.text).toContain(`sha256 ${sha256(tampered)} instead of ${sha256(target.bytes)}`);

    // The vault list, the matter's audit tab and its report show it.
    const list = ok(await admin.client.get('/_api/vault/list'));
    expect(list.matters[0].lastVerification).toMatchObject({ result: 'failed', failures: 1, objectsChecked: 3 });
    const tab = ok(await admin.client.get(`/_api/vault/audit?matterId=${matter.id}`));
    expect(tab.logs[0]).toMatchObject({ action: 'VAULT_VERIFICATION_FAILED', actorName: null });
    const report = await admin.client.get(`/_api/vault/report?matterId=${matter.id}`);
    expect(report.body).toContain('<p class="failed">3 files re-read from the vault; 1 file differed from the record.</p>');
    expect(report.body).toContain(`re-read “${target.path}” from the vault and found it different from the record`);

    // Found wrong again: audited again, not mailed again.
    expect(await forcedRun()).toEqual({ completed: 1, failed: 0 });
    expect(await failures()).toHaveLength(2);
    expect(alertMails().length).toBe(mailsBefore + 1);
  });

  it('finds a lock that is not the one recorded (retain-until, legal hold) and an object that is gone', async () => {
    const target = files[2]!;
    // The record says another retain-until and no hold: the stored lock no longer matches it.
    const recorded = new Date(retainUntil.getTime() + 3 * DAY);
    await t.ctx.db.updateTable('vaultObjects').set({ retainUntil: recorded, legalHold: false }).where('id', '=', target.id).execute();
    await runVaultVerification(t.ctx, { force: true });
    const problem = (await checks(target.id)).at(-1)!.problem!;
    expect(problem).toContain(`retain-until ${retainUntil.toISOString()} instead of ${recorded.toISOString()}`);
    expect(problem).toContain('legal hold on instead of off');
    await t.ctx.db.updateTable('vaultObjects').set({ retainUntil, legalHold: true }).where('id', '=', target.id).execute();

    // A row whose object is not in the store at all.
    const ghost = await t.ctx.db
      .insertInto('vaultObjects')
      .values({
        organizationId: admin.organizationId,
        matterId: matter.id,
        nodeId: crypto.randomUUID(),
        path: '/ghost.pdf',
        objectKey: `vault/${admin.organizationId}/${matter.id}/${crypto.randomUUID()}`,
        sha256: 'b'.repeat(64),
        size: 10,
        retainUntil,
        legalHold: true,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await runVaultVerification(t.ctx, { force: true });
    expect((await checks(ghost.id)).at(-1)).toMatchObject({ ok: false, problem: 'the object is missing from the vault' });
    expect((await checks(target.id)).at(-1)).toMatchObject({ ok: true });
    expect((await failures()).some((e) => e.targetId === ghost.id)).toBe(true);
  });
});

describe('a run limited to one organization (an operator running the job for one firm)', () => {
  it("checks that organization's vaulted objects and nobody else's", async () => {
    const other = await newOrganization(t, 'Elsewhere LLP');
    const before = await Promise.all(files.map(async (f) => (await checks(f.id)).length));
    expect(await runVaultVerification(t.ctx, { force: true, organizationId: other.organizationId })).toMatchObject({ checked: 0 });
    expect(await Promise.all(files.map(async (f) => (await checks(f.id)).length))).toEqual(before);

    const own = await t.ctx.db
      .selectFrom('vaultObjects')
      .select('id')
      .where('organizationId', '=', admin.organizationId)
      .where('state', '=', 'vaulted')
      .execute();
    expect(await runVaultVerification(t.ctx, { force: true, organizationId: admin.organizationId })).toMatchObject({
      checked: own.length,
    });
    expect(await Promise.all(files.map(async (f) => (await checks(f.id)).length))).toEqual(before.map((n) => n + 1));
  });
});
