/**
 * Retention end: vaulted matters whose retention has ended and that are not under legal hold lose their vaulted
 * files, with a signed certificate of destruction and one RETENTION_CLEANUP entry; held matters are left
 * alone; a run cut short anywhere is finished by the next one, and no file is recorded twice. The vault objects
 * are made through the store's own vault calls with a retain-until a moment ahead (the store takes no lock that
 * has already ended), and each case waits until it has passed.
 */
import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { signedCertificateSchema, VAULT_MSG, type VaultCertificatePayload } from '@strongroom/contracts';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { auditActions, createMatter, newOrganization, sha256, uploadFile, type Member } from '../../../test/factories.js';
import { signCertificate, verifyCertificate } from '../../platform/signing.js';
import { auditFor } from '../../shared/audit.js';
import { DESTRUCTION_CERTIFICATE_YEARS, enqueueRetentionEnd, runRetentionEnd, VAULT_RETENTION_JOB } from './vault-retention.jobs.js';

let t: TestApp;
let admin: Member;
const DAY = 86_400_000;

type VaultedMatter = { id: string; files: Array<{ key: string; path: string; bytes: Buffer; nodeId: string }> };

/** Waits until every lock made so far has run out (a second at most). */
let lastLockEnd = 0;
async function locksRunOut(): Promise<void> {
  await vi.waitFor(
    () => {
      if (Date.now() <= lastLockEnd) throw new Error('the locks have not run out yet');
    },
    { timeout: 5000, interval: 50 },
  );
}

/**
 * A vaulted matter whose retention ended a day ago: its files copied into the vault under a lock that runs out
 * a moment from now (hold on or off as given), the matter's own hold as given, the transfer completed, and its
 * destruction approved in the disposition review (unless `approved` is false).
 */
async function expiredMatter(
  name: string,
  opts: { held: boolean; objectHold?: boolean; files?: number; approved?: boolean },
): Promise<VaultedMatter> {
  const matter = await createMatter(admin.client, { matterName: name });
  const ended = new Date(Date.now() - DAY);
  const files: VaultedMatter['files'] = [];
  for (let i = 0; i < (opts.files ?? 2); i++) {
    const bytes = Buffer.from(`${name} file ${i} ${randomUUID()}`);
    const node = await uploadFile(t, admin.client, matter.id, `doc-${i}.pdf`, bytes);
    const key = `vault/${admin.organizationId}/${matter.id}/${node.id}`;
    const lockEnd = new Date(Date.now() + 1000);
    lastLockEnd = Math.max(lastLockEnd, lockEnd.getTime());
    const lock = { mode: 'COMPLIANCE' as const, retainUntil: lockEnd, legalHold: opts.objectHold ?? opts.held };
    const info = await t.ctx.store.copyToVault({ sourceKey: node.storagePath, vaultKey: key, lock });
    // The file is read from the vault from now on, as after the transfer.
    await t.ctx.db.updateTable('nodes').set({ storagePath: key }).where('id', '=', node.id).execute();
    await t.ctx.db
      .insertInto('vaultObjects')
      .values({
        organizationId: admin.organizationId,
        matterId: matter.id,
        nodeId: node.id,
        path: `/doc-${i}.pdf`,
        objectKey: key,
        versionId: info.versionId,
        sha256: sha256(bytes),
        size: bytes.length,
        storageClass: info.storageClass,
        retainUntil: lockEnd,
        legalHold: lock.legalHold,
      })
      .execute();
    files.push({ key, path: `/doc-${i}.pdf`, bytes, nodeId: node.id });
  }
  await t.ctx.db
    .updateTable('matters')
    .set({
      isVaulted: true,
      status: 'Vaulted',
      vaultedAt: new Date(ended.getTime() - 365 * DAY),
      retentionExpiresAt: ended,
      legalHold: opts.held,
      holdReason: opts.held ? 'Litigation pending' : null,
    })
    .where('id', '=', matter.id)
    .execute();
  await t.ctx.db
    .insertInto('vaultTransfers')
    .values({ matterId: matter.id, organizationId: admin.organizationId, state: 'completed', retentionExpiresAt: ended })
    .execute();
  if (opts.approved !== false) await approveDestruction(matter.id, ended);
  return { id: matter.id, files };
}

/** An administrator's approval of the matter's destruction at this retention end, as the disposition review records it. */
async function approveDestruction(matterId: string, retentionExpiresAt: Date) {
  await t.ctx.db
    .insertInto('dispositionReviews')
    .values({
      organizationId: admin.organizationId,
      matterId,
      retentionExpiresAt,
      status: 'approved',
      decidedBy: admin.userId,
      decidedAt: new Date(),
      decisionReason: 'Retention over',
      approvedBy: JSON.stringify([{ userId: admin.userId, name: 'Ada Admin', email: admin.email }]),
      approvedAt: new Date(),
    })
    .execute();
}

const objects = (matterId: string) =>
  t.ctx.db.selectFrom('vaultObjects').selectAll().where('matterId', '=', matterId).orderBy('path').execute();
const certificates = (matterId: string) =>
  t.ctx.db.selectFrom('vaultCertificates').selectAll().where('matterId', '=', matterId).where('kind', '=', 'destruction').execute();
const cleanups = async (matterId: string) =>
  (await auditActions(t, admin.organizationId)).filter((e) => e.action === 'RETENTION_CLEANUP' && e.targetId === matterId);

async function storedBytes(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of await t.ctx.store.getStream(key)) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks);
}

/** The matter's files are gone from the vault, recorded once, certified and audited once. */
async function expectDestroyed(m: VaultedMatter) {
  for (const f of m.files) expect(await t.ctx.store.vaultInfo(f.key)).toBeNull();
  const rows = await objects(m.id);
  expect(rows.every((r) => r.state === 'destroyed' && r.destroyedAt !== null)).toBe(true);
  const [cert, ...more] = await certificates(m.id);
  expect(more).toEqual([]);
  const signed = signedCertificateSchema.parse(cert!.body);
  expect(verifyCertificate(signed)).toBe(true);
  expect(signed.payload).toMatchObject({
    kind: 'destruction-certificate',
    organization: { id: admin.organizationId, name: 'Acme LLP' },
    matter: { id: m.id },
    totals: { files: m.files.length, bytes: m.files.reduce((s, f) => s + f.bytes.length, 0) },
  });
  expect(signed.payload.files.map((f) => [f.path, f.sha256, f.size])).toEqual(
    m.files.map((f) => [f.path, sha256(f.bytes), f.bytes.length]),
  );
  // Stored in the vault under its own lock, as the bytes recorded.
  const info = await t.ctx.store.vaultInfo(cert!.objectKey);
  expect(info?.lock).toMatchObject({ mode: 'COMPLIANCE', legalHold: false });
  expect(info!.lock!.retainUntil.getUTCFullYear()).toBe(new Date(signed.payload.issuedAt).getUTCFullYear() + DESTRUCTION_CERTIFICATE_YEARS);
  const bytes = await storedBytes(cert!.objectKey);
  expect(createHash('sha256').update(bytes).digest('hex')).toBe(cert!.sha256);
  expect(signedCertificateSchema.parse(JSON.parse(bytes.toString('utf8')))).toEqual(signed);
  const audit = await cleanups(m.id);
  expect(audit).toHaveLength(1);
  expect(audit[0]!.details).toMatchObject({
    matterId: m.id,
    filesDeleted: m.files.length,
    files: m.files.map((f) => ({ path: f.path, sha256: sha256(f.bytes), size: f.bytes.length })),
    certificateKey: cert!.objectKey,
    certificateSha256: cert!.sha256,
  });
}

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  admin = await newOrganization(t, 'Acme LLP');
});
afterAll(() => t.shutdown());
beforeEach(() => {
  vi.restoreAllMocks();
});

describe('retention end', () => {
  it('destroys nothing whose destruction nobody approved, and names the approver on the certificate of one approved', async () => {
    const unreviewed = await expiredMatter('Never Reviewed', { held: false, approved: false });
    const approved = await expiredMatter('Approved Ended', { held: false });
    await locksRunOut();
    expect(await runRetentionEnd(t.ctx)).toMatchObject({ mattersFinished: 1 });
    await expectDestroyed(approved);
    for (const f of unreviewed.files) expect(await t.ctx.store.vaultInfo(f.key)).not.toBeNull();
    expect(await certificates(unreviewed.id)).toEqual([]);
    const [cert] = await certificates(approved.id);
    expect(signedCertificateSchema.parse(cert!.body).payload.disposition).toMatchObject({
      requestId: null,
      approvedBy: [{ userId: admin.userId, name: 'Ada Admin', email: admin.email }],
    });
  });

  it('deletes the files of an ended, unheld matter with a certificate of destruction, and leaves held and running ones alone', async () => {
    const ended = await expiredMatter('Ended Unheld', { held: false });
    const held = await expiredMatter('Ended Held', { held: true });
    const running = await expiredMatter('Still Running', { held: false });
    const future = new Date(Date.now() + 365 * DAY);
    await t.ctx.db.updateTable('matters').set({ retentionExpiresAt: future }).where('id', '=', running.id).execute();
    await locksRunOut();

    await enqueueRetentionEnd(t.ctx);
    expect(await t.ctx.jobs.runDueJobs([VAULT_RETENTION_JOB])).toEqual({ completed: 1, failed: 0 });
    await expectDestroyed(ended);
    for (const m of [held, running]) {
      for (const f of m.files) expect(await t.ctx.store.vaultInfo(f.key)).not.toBeNull();
      expect((await objects(m.id)).every((r) => r.state === 'vaulted')).toBe(true);
      expect(await certificates(m.id)).toEqual([]);
      expect(await cleanups(m.id)).toEqual([]);
    }
    // The matter keeps its tree; a download says the file was deleted.
    const dl = await admin.client.get(`/_api/nodes/download-url?nodeId=${ended.files[0]!.nodeId}`);
    expect(dl.statusCode).toBe(404);

    // Run again: nothing more happens.
    expect(await runRetentionEnd(t.ctx)).toEqual({ mattersFinished: 0, filesDeleted: 0, mattersWaiting: 0 });
    await expectDestroyed(ended);
  });

  it("states each file's lock as the vault certificate did, and the store's protection; nothing the store never confirmed", async () => {
    const certified = await expiredMatter('Certified Then Ended', { held: false });
    const uncertified = await expiredMatter('Never Certified', { held: false });
    // The vault certificate of the first: each lock as the store answered it, the store protecting them.
    const files: VaultCertificatePayload['files'] = [];
    for (const f of certified.files) {
      const info = (await t.ctx.store.vaultInfo(f.key))!;
      files.push({
        path: f.path,
        size: f.bytes.length,
        sha256: sha256(f.bytes),
        objectKey: f.key,
        versionId: info.versionId,
        retainUntil: info.lock!.retainUntil.toISOString(),
        lockMode: info.lock!.mode,
        legalHold: info.lock!.legalHold,
      });
    }
    const issuedAt = new Date();
    const vaultCertificate = await signCertificate(t.ctx.config, {
      kind: 'vault-certificate',
      version: 1,
      issuedAt: issuedAt.toISOString(),
      organization: { id: admin.organizationId, name: 'Acme LLP' },
      matter: {
        id: certified.id,
        matterName: 'Certified Then Ended',
        matterNumber: null,
        clientName: null,
        vaultedAt: null,
        retentionExpiresAt: null,
      },
      files,
      totals: { files: files.length, bytes: files.reduce((n, f) => n + f.size, 0) },
      auditChainHead: null,
      storeProtection: { writeOnce: true, statement: VAULT_MSG.storeProtected },
    });
    await t.ctx.db
      .insertInto('vaultCertificates')
      .values({
        organizationId: admin.organizationId,
        matterId: certified.id,
        kind: 'vault',
        objectKey: `vault/${admin.organizationId}/${certified.id}/certificates/vault-test.json`,
        sha256: 'a'.repeat(64),
        issuedAt,
        body: JSON.stringify(vaultCertificate),
      })
      .execute();
    await locksRunOut();
    await runRetentionEnd(t.ctx);
    await expectDestroyed(certified);
    await expectDestroyed(uncertified);

    const [destruction] = await certificates(certified.id);
    const payload = signedCertificateSchema.parse(destruction!.body).payload;
    expect(payload.files.map((f) => [f.objectKey, f.lockMode, f.retainUntil, f.versionId, f.legalHold])).toEqual(
      files.map((f) => [f.objectKey, 'COMPLIANCE', f.retainUntil, f.versionId, false]),
    );
    expect(payload.storeProtection).toEqual({ writeOnce: true, statement: VAULT_MSG.storeProtected });
    // Without a vault certificate nothing confirmed a lock: the certificate of destruction claims none.
    const [bare] = await certificates(uncertified.id);
    const barePayload = signedCertificateSchema.parse(bare!.body).payload;
    expect(barePayload.files.every((f) => f.lockMode === null && f.retainUntil === null && f.legalHold === false)).toBe(true);
    expect(barePayload.storeProtection).toEqual({ writeOnce: false, statement: VAULT_MSG.storeUnprotected });
  });

  it('leaves a matter whose hold was just removed until the store has released its objects, then finishes it', async () => {
    const m = await expiredMatter('Hold Just Removed', { held: false, objectHold: true });
    await locksRunOut();
    expect(await runRetentionEnd(t.ctx)).toMatchObject({ mattersFinished: 0, mattersWaiting: 1 });
    expect((await objects(m.id)).every((r) => r.state === 'vaulted')).toBe(true);
    for (const f of m.files) await t.ctx.store.setLegalHold(f.key, false);
    expect(await runRetentionEnd(t.ctx)).toMatchObject({ mattersFinished: 1, filesDeleted: 2 });
    await expectDestroyed(m);
  });

  it('stops at once when a hold is applied during the run', async () => {
    const m = await expiredMatter('Held Mid Run', { held: false, files: 3 });
    await locksRunOut();
    const del = t.ctx.store.delete.bind(t.ctx.store);
    let hold: Promise<unknown> | undefined;
    vi.spyOn(t.ctx.store, 'delete').mockImplementation(async (key) => {
      await del(key);
      // An administrator applies a hold as the first file goes: the change waits for the matter's row lock,
      // which the deletion holds.
      hold ??= t.ctx.db.updateTable('matters').set({ legalHold: true, holdReason: 'New claim' }).where('id', '=', m.id).execute();
    });
    // Once the first deletion lets go of the lock, the hold is in before the next file's turn begins. (The
    // database does not queue waiters for a row in order, so the test orders them itself.)
    const transaction = t.ctx.db.transaction.bind(t.ctx.db);
    vi.spyOn(t.ctx.db, 'transaction').mockImplementation(() => {
      const builder = transaction();
      const pending = hold;
      if (!pending) return builder;
      return {
        execute: async (work: never) => {
          await pending;
          return builder.execute(work);
        },
      } as never;
    });
    expect(await runRetentionEnd(t.ctx)).toMatchObject({ mattersFinished: 0, filesDeleted: 1, mattersWaiting: 1 });
    await hold;
    vi.restoreAllMocks();
    expect((await objects(m.id)).map((r) => r.state).sort()).toEqual(['destroyed', 'vaulted', 'vaulted']);
    // Held: left alone.
    expect(await runRetentionEnd(t.ctx)).toMatchObject({ filesDeleted: 0 });
    expect(await t.ctx.store.vaultInfo(m.files[1]!.key)).not.toBeNull();
    expect(await certificates(m.id)).toEqual([]);
    // The hold removed: the rest go, and the certificate lists all three once.
    await t.ctx.db.updateTable('matters').set({ legalHold: false, holdReason: null }).where('id', '=', m.id).execute();
    expect(await runRetentionEnd(t.ctx)).toMatchObject({ mattersFinished: 1, filesDeleted: 2 });
    await expectDestroyed(m);
  });

  it('finishes after a crash between a deletion and its record, and after the certificate was stored but not recorded', async () => {
    const m = await expiredMatter('Crash Safe', { held: false, files: 3 });
    await locksRunOut();
    // A crash right after the second object left the store, before its row was marked.
    const del = t.ctx.store.delete.bind(t.ctx.store);
    let calls = 0;
    vi.spyOn(t.ctx.store, 'delete').mockImplementation(async (key) => {
      await del(key);
      if (++calls === 2) throw new Error('process killed');
    });
    expect(await runRetentionEnd(t.ctx)).toMatchObject({ mattersFinished: 0, mattersWaiting: 1 });
    vi.restoreAllMocks();
    expect((await objects(m.id)).filter((r) => r.state === 'destroyed')).toHaveLength(1);
    expect(await t.ctx.store.vaultInfo(m.files[1]!.key)).toBeNull();

    // A crash after the certificate was stored in the vault, before it was recorded.
    const put = t.ctx.store.putLocked.bind(t.ctx.store);
    vi.spyOn(t.ctx.store, 'putLocked').mockImplementation(async (input) => {
      await put(input);
      throw new Error('process killed');
    });
    expect(await runRetentionEnd(t.ctx)).toMatchObject({ mattersFinished: 0, mattersWaiting: 1 });
    vi.restoreAllMocks();
    expect(await certificates(m.id)).toEqual([]);
    // The audit chain moves on meanwhile, so a certificate made now would differ from the one stored.
    await t.ctx.db.transaction().execute((trx) => auditFor({ organizationId: admin.organizationId, actor: null })(trx, 'PROBE', null, {}));

    expect(await runRetentionEnd(t.ctx)).toMatchObject({ mattersFinished: 1, mattersWaiting: 0 });
    await expectDestroyed(m);
  });
});
