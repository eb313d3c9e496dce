/**
 * The vault transfer job on both stores: every file copied under the lock, its sha256 read back from the vault
 * and checked against the upload's before its row is written, the working copy removed only after; a byte
 * changed in a working copy fails the transfer loudly and vaults nothing wrong; a repeat changes nothing; the
 * objects' legal holds follow the matter's; the certificate verifies with `npm run verify-certificate` (a child
 * process, no server) and fails once any byte of it or of a file changes.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VAULT_MSG, type SignedCertificate } from '@strongroom/contracts';
import { BlobLockedError } from '../../platform/storage/blob-store.js';
import { currentTotp } from '../mfa/index.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import {
  auditActions,
  createFolder,
  createMatter,
  newOrganizationWithTotp,
  ok,
  sha256,
  uploadFile,
  type TotpMember,
} from '../../../test/factories.js';
import { verifyCertificateCli } from '../../../test/process-helpers.js';
import { startS3Server, type TestS3Server } from '../../../test/s3-server.js';
import { runVaultTransfer, VAULT_HOLD_SYNC_JOB, VAULT_TRANSFER_JOB, vaultObjectKey } from './vault-transfer.jobs.js';

const tempDirs: string[] = [];
afterAll(async () => {
  for (const d of tempDirs) await fs.rm(d, { recursive: true, force: true });
});

async function readAll(t: TestApp, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await t.ctx.store.getStream(key)) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function totp(t: TestApp, m: TotpMember): Promise<string> {
  await t.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', m.userId).execute();
  return currentTotp(m.totpSecret);
}

async function vault(t: TestApp, admin: TotpMember, matterId: string, retentionYears = 7) {
  return ok(await admin.client.post('/_api/vault/start', { matterId, retentionYears, mfaToken: await totp(t, admin) }));
}

const transferOf = (t: TestApp, matterId: string) =>
  t.ctx.db.selectFrom('vaultTransfers').selectAll().where('matterId', '=', matterId).executeTakeFirstOrThrow();
const objectsOf = (t: TestApp, matterId: string) =>
  t.ctx.db.selectFrom('vaultObjects').selectAll().where('matterId', '=', matterId).orderBy('path').execute();
const nodeOf = (t: TestApp, id: string) => t.ctx.db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('the vault transfer on the local store', () => {
  let t: TestApp;
  let admin: TotpMember;
  beforeAll(async () => {
    t = await createTestApp({ JOB_RUNNER: 'off' });
    admin = await newOrganizationWithTotp(t, 'Transfer & Sons');
  });
  afterAll(() => t.shutdown());

  it('vaults every file under the lock with its sha256 re-read, then removes the working copies; a repeat changes nothing', async () => {
    const m = await createMatter(admin.client, { matterName: 'Estate of Grace' });
    const pleadings = await createFolder(admin.client, m.id, 'Pleadings');
    const drafts = await createFolder(admin.client, m.id, 'Drafts', pleadings.id);
    const contents = [randomBytes(70_000), randomBytes(1), randomBytes(3 * 1024 * 1024 + 7), Buffer.from('plain note')];
    const files = [
      await uploadFile(t, admin.client, m.id, 'claim.pdf', contents[0]!, pleadings.id),
      await uploadFile(t, admin.client, m.id, 'tiny.pdf', contents[1]!, drafts.id),
      await uploadFile(t, admin.client, m.id, 'exhibit.pdf', contents[2]!),
      await uploadFile(t, admin.client, m.id, 'note.txt', contents[3]!, null, 'text/plain'),
    ];
    const workingKeys = files.map((f) => f.storagePath);
    const started = await vault(t, admin, m.id, 3);

    const run = await t.ctx.jobs.runDueJobs([VAULT_TRANSFER_JOB]);
    expect(run).toEqual({ completed: 1, failed: 0 });
    const transfer = await transferOf(t, m.id);
    const bytes = contents.reduce((s, c) => s + c.length, 0);
    expect(transfer).toMatchObject({
      state: 'completed',
      filesTotal: 4,
      filesDone: 4,
      bytesTotal: String(bytes),
      bytesDone: String(bytes),
      attempts: 1,
    });

    const objects = await objectsOf(t, m.id);
    expect(objects.map((o) => o.path)).toEqual(['Pleadings/Drafts/tiny.pdf', 'Pleadings/claim.pdf', 'exhibit.pdf', 'note.txt']);
    const retainUntil = new Date(started.retentionExpiresAt);
    for (const [i, file] of files.entries()) {
      const key = vaultObjectKey(admin.organizationId, m.id, file.id);
      const row = objects.find((o) => o.nodeId === file.id)!;
      expect(row).toMatchObject({
        objectKey: key,
        sha256: sha256(contents[i]!),
        size: String(contents[i]!.length),
        legalHold: true,
        state: 'vaulted',
      });
      expect(row.retainUntil.toISOString()).toBe(retainUntil.toISOString());
      expect((await nodeOf(t, file.id)).storagePath).toBe(key);
      expect(await t.ctx.store.sha256(key)).toBe(sha256(contents[i]!));
      expect((await t.ctx.store.vaultInfo(key))?.lock).toEqual({ mode: 'COMPLIANCE', retainUntil, legalHold: true });
      await expect(t.ctx.store.delete(key)).rejects.toBeInstanceOf(BlobLockedError);
    }
    // The working copies go by the delete job enqueued with each row.
    await t.ctx.jobs.runDueJobs(['delete-objects']);
    for (const key of workingKeys) expect(await t.ctx.store.head(key)).toBeNull();

    const audit = (await auditActions(t, admin.organizationId)).filter((a) => a.targetId === m.id);
    expect(audit.map((a) => a.action)).toEqual([
      'CREATE_MATTER',
      'VAULT_MATTER',
      'VAULT_TRANSFER_INITIATED',
      'VAULT_TRANSFER_COMPLETED',
      'VAULT_CERTIFICATE_ISSUED',
    ]);
    expect(audit[3]!.details).toMatchObject({ files: 4, bytes });
    const certs = await t.ctx.db.selectFrom('vaultCertificates').selectAll().where('matterId', '=', m.id).execute();
    expect(certs).toHaveLength(1);
    expect((await t.ctx.store.vaultInfo(certs[0]!.objectKey))?.lock).toMatchObject({ mode: 'COMPLIANCE', legalHold: true });
    // The certificate states each lock as the store answers it when asked, and that the store protects the files.
    const cert = certs[0]!.body;
    for (const f of cert.payload.files) {
      const info = (await t.ctx.store.vaultInfo(f.objectKey))!;
      expect(f).toMatchObject({
        lockMode: info.lock!.mode,
        retainUntil: info.lock!.retainUntil.toISOString(),
        legalHold: info.lock!.legalHold,
        versionId: info.versionId,
      });
    }
    expect(cert.payload.storeProtection).toEqual({ writeOnce: true, statement: VAULT_MSG.storeProtected });

    // Run again (a duplicate delivery): nothing changes, no second certificate, no new audit entry.
    await t.ctx.jobs.enqueue(t.ctx.db, VAULT_TRANSFER_JOB, { organizationId: admin.organizationId, matterId: m.id });
    expect(await t.ctx.jobs.runDueJobs([VAULT_TRANSFER_JOB])).toEqual({ completed: 1, failed: 0 });
    expect(await runVaultTransfer(t.ctx, { organizationId: admin.organizationId, matterId: m.id })).toBe('nothing-to-do');
    expect(await t.ctx.db.selectFrom('vaultCertificates').select('id').where('matterId', '=', m.id).execute()).toHaveLength(1);
    expect((await auditActions(t, admin.organizationId)).filter((a) => a.targetId === m.id)).toHaveLength(5);
    expect(await objectsOf(t, m.id)).toEqual(objects);
  });

  it('a byte changed in a working copy fails the transfer loudly; nothing wrong is vaulted; once the bytes are right it completes', async () => {
    const m = await createMatter(admin.client, { matterName: 'Tampered matter' });
    const good = await uploadFile(t, admin.client, m.id, 'good.pdf', randomBytes(5000));
    const original = randomBytes(8000);
    const bad = await uploadFile(t, admin.client, m.id, 'bad.pdf', original);
    // Behind the app's back: one byte of the stored working copy changes (same size).
    const file = path.join(t.dataDir, 'objects', ...bad.storagePath.split('/'));
    const changed = Buffer.from(original);
    changed[4321] = changed[4321]! ^ 0xff;
    await fs.chmod(file, 0o600);
    await fs.writeFile(file, changed);
    await vault(t, admin, m.id);

    expect(await t.ctx.jobs.runDueJobs([VAULT_TRANSFER_JOB])).toEqual({ completed: 0, failed: 1 });
    const failedKey = vaultObjectKey(admin.organizationId, m.id, bad.id);
    const audit = (await auditActions(t, admin.organizationId)).filter((a) => a.targetId === m.id);
    const failure = audit.find((a) => a.action === 'VAULT_TRANSFER_FAILED');
    // The store may refuse the copy itself (the bytes read differ from the ones it recorded at upload), or write
    // it and the read-back finds the sha256 wrong: either way the failure names the file and why.
    expect(failure?.details).toMatchObject({ nodeId: bad.id, path: 'bad.pdf', objectKey: failedKey });
    expect(String(failure?.details.reason)).toMatch(/^(sha256 mismatch|copy failed: .+)$/);
    if (failure?.details.reason === 'sha256 mismatch') {
      expect(failure.details).toMatchObject({ expected: `${sha256(original)} (8000 bytes)`, found: `${sha256(changed)} (8000 bytes)` });
    }
    expect(audit.map((a) => a.action)).not.toContain('VAULT_TRANSFER_COMPLETED');
    expect(await transferOf(t, m.id)).toMatchObject({
      state: 'failed',
      filesDone: 1,
      lastError: `bad.pdf: ${String(failure?.details.reason)}`,
    });
    // The good file is in; the bad one is not recorded and its node still points at its working copy.
    expect((await objectsOf(t, m.id)).map((o) => o.nodeId)).toEqual([good.id]);
    expect((await nodeOf(t, bad.id)).storagePath).toBe(bad.storagePath);
    const early = await admin.client.get(`/_api/vault/certificate?matterId=${m.id}`);
    expect(early.statusCode).toBe(409);

    // The operator puts the right bytes back; the next run vaults them. A wrong copy the store did write stays
    // locked where it is, and the file goes to a fresh key beside it.
    const wrongCopy = (await t.ctx.store.head(failedKey)) !== null;
    const goodKey = wrongCopy ? `${failedKey}.2` : failedKey;
    if (wrongCopy) {
      expect(await t.ctx.store.sha256(failedKey)).toBe(sha256(changed));
      await expect(t.ctx.store.delete(failedKey)).rejects.toBeInstanceOf(BlobLockedError);
    }
    await fs.writeFile(file, original);
    expect(await runVaultTransfer(t.ctx, { organizationId: admin.organizationId, matterId: m.id })).toBe('completed');
    const objects = await objectsOf(t, m.id);
    expect(objects.find((o) => o.nodeId === bad.id)).toMatchObject({ objectKey: goodKey, sha256: sha256(original) });
    expect(await t.ctx.store.sha256(goodKey)).toBe(sha256(original));
    const res = await admin.client.get(`/_api/vault/certificate?matterId=${m.id}`);
    expect(res.statusCode).toBe(200);
    const cert = JSON.parse(res.body) as SignedCertificate;
    expect(cert.payload.files.map((f) => [f.path, f.objectKey, f.sha256])).toEqual([
      ['bad.pdf', goodKey, sha256(original)],
      ['good.pdf', vaultObjectKey(admin.organizationId, m.id, good.id), good.sha256Hash],
    ]);
  });

  it('a lock the store answers weaker than asked fails the transfer; no certificate until the store holds the lock', async () => {
    const m = await createMatter(admin.client, { matterName: 'Weakened lock' });
    const good = await uploadFile(t, admin.client, m.id, 'good.pdf', randomBytes(3000));
    // A changed working copy stops the first run before its certificate.
    const original = randomBytes(4000);
    const bad = await uploadFile(t, admin.client, m.id, 'bad.pdf', original);
    const badFile = path.join(t.dataDir, 'objects', ...bad.storagePath.split('/'));
    await fs.chmod(badFile, 0o600);
    await fs.writeFile(badFile, Buffer.alloc(original.length, 7));
    await vault(t, admin, m.id);
    expect(await t.ctx.jobs.runDueJobs([VAULT_TRANSFER_JOB])).toEqual({ completed: 0, failed: 1 });
    const goodKey = vaultObjectKey(admin.organizationId, m.id, good.id);
    expect((await objectsOf(t, m.id)).map((o) => o.objectKey)).toEqual([goodKey]);

    // Behind the app's back, the good file's lock is weakened in the store: retained one day only, hold off.
    const record = path.join(t.dataDir, 'objects', '.locks', ...goodKey.split('/')) + '.json';
    const kept = await fs.readFile(record, 'utf8');
    const oneDay = new Date(Date.now() + 24 * 3600 * 1000);
    await fs.chmod(record, 0o600);
    await fs.writeFile(record, JSON.stringify({ ...JSON.parse(kept), retainUntil: oneDay.toISOString(), legalHold: false }));
    await fs.writeFile(badFile, original);
    await expect(runVaultTransfer(t.ctx, { organizationId: admin.organizationId, matterId: m.id })).rejects.toThrow(/could not be vaulted/);
    const failures = (await auditActions(t, admin.organizationId)).filter(
      (a) => a.targetId === m.id && a.action === 'VAULT_TRANSFER_FAILED',
    );
    expect(failures.at(-1)?.details).toMatchObject({ path: 'good.pdf', objectKey: goodKey });
    expect(String(failures.at(-1)?.details.reason)).toMatch(/^the store answered a weaker lock: retained until .+; the legal hold is off$/);
    expect(await transferOf(t, m.id)).toMatchObject({ state: 'failed' });
    expect((await admin.client.get(`/_api/vault/certificate?matterId=${m.id}`)).statusCode).toBe(409);

    // The lock is as asked again: the next run certifies what the store answers.
    await fs.writeFile(record, kept);
    expect(await runVaultTransfer(t.ctx, { organizationId: admin.organizationId, matterId: m.id })).toBe('completed');
    const cert = JSON.parse((await admin.client.get(`/_api/vault/certificate?matterId=${m.id}`)).body) as SignedCertificate;
    expect(cert.payload.files.find((f) => f.objectKey === goodKey)).toMatchObject({
      lockMode: 'COMPLIANCE',
      retainUntil: JSON.parse(kept).retainUntil,
      legalHold: true,
    });
  });

  it('completes an empty matter with an empty certificate', async () => {
    const m = await createMatter(admin.client, { matterName: 'Nothing filed' });
    await vault(t, admin, m.id);
    expect(await t.ctx.jobs.runDueJobs([VAULT_TRANSFER_JOB])).toEqual({ completed: 1, failed: 0 });
    const res = await admin.client.get(`/_api/vault/certificate?matterId=${m.id}`);
    expect(res.statusCode).toBe(200);
    const cert = JSON.parse(res.body) as SignedCertificate;
    expect(cert.payload).toMatchObject({ files: [], totals: { files: 0, bytes: 0 }, matter: { matterName: 'Nothing filed' } });
    expect(await transferOf(t, m.id)).toMatchObject({ state: 'completed', filesTotal: 0 });
  });

  it("the vault objects' legal holds follow the matter's: removed, then applied again", async () => {
    const m = await createMatter(admin.client, { matterName: 'Held then released' });
    const a = await uploadFile(t, admin.client, m.id, 'a.pdf', randomBytes(100));
    const b = await uploadFile(t, admin.client, m.id, 'b.pdf', randomBytes(200));
    await vault(t, admin, m.id);
    await t.ctx.jobs.runDueJobs([VAULT_TRANSFER_JOB]);
    const keys = [a, b].map((f) => vaultObjectKey(admin.organizationId, m.id, f.id));
    const holds = async () => ({
      store: await Promise.all(keys.map(async (k) => (await t.ctx.store.vaultInfo(k))?.lock?.legalHold)),
      rows: (await objectsOf(t, m.id)).map((o) => o.legalHold),
    });

    const body = { matterId: m.id, action: 'remove', reason: 'Retention may now run its course' };
    ok(await admin.client.post('/_api/matters/legal-hold', { ...body, mfaToken: await totp(t, admin) }));
    expect(await t.ctx.jobs.runDueJobs([VAULT_HOLD_SYNC_JOB])).toEqual({ completed: 1, failed: 0 });
    expect(await holds()).toEqual({ store: [false, false], rows: [false, false] });

    ok(
      await admin.client.post('/_api/matters/legal-hold', {
        matterId: m.id,
        action: 'apply',
        reason: 'New litigation was announced',
        mfaToken: await totp(t, admin),
      }),
    );
    await t.ctx.jobs.runDueJobs([VAULT_HOLD_SYNC_JOB]);
    expect(await holds()).toEqual({ store: [true, true], rows: [true, true] });
    expect((await t.ctx.db.selectFrom('matters').select('isVaulted').where('id', '=', m.id).executeTakeFirstOrThrow()).isVaulted).toBe(
      true,
    );
  });

  it('the certificate verifies with npm run verify-certificate, and fails after any byte of it or of a file changes', async () => {
    const m = await createMatter(admin.client, { matterName: 'Verified by a third party' });
    const folder = await createFolder(admin.client, m.id, 'Correspondence');
    const contents = [randomBytes(40_000), Buffer.from('letter of engagement')];
    await uploadFile(t, admin.client, m.id, 'scan.pdf', contents[0]!, folder.id);
    await uploadFile(t, admin.client, m.id, 'engagement.txt', contents[1]!, null, 'text/plain');
    await vault(t, admin, m.id);
    await t.ctx.jobs.runDueJobs([VAULT_TRANSFER_JOB]);
    const res = await admin.client.get(`/_api/vault/certificate?matterId=${m.id}`);
    expect(res.statusCode).toBe(200);

    // What a reviewer holds years later: the certificate and the files fetched from the vault.
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'strongroom-verify-'));
    tempDirs.push(dir);
    const certFile = path.join(dir, 'certificate.json');
    await fs.writeFile(certFile, res.body);
    const cert = JSON.parse(res.body) as SignedCertificate;
    for (const f of cert.payload.files) {
      const target = path.join(dir, 'files', ...f.path.split('/'));
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, await readAll(t, f.objectKey));
    }
    const keyFile = path.join(dir, 'installation.pem');
    await fs.writeFile(keyFile, cert.publicKey);

    const passed = verifyCertificateCli(certFile, '--files', path.join(dir, 'files'), '--public-key', keyFile);
    expect(passed.stderr).toBe('');
    expect(passed.status).toBe(0);
    expect(passed.stdout).toContain('Matter: Verified by a third party');
    expect(passed.stdout).toContain('Files checked in');
    expect(passed.stdout).toContain('2 of 2');
    expect(passed.stdout).toContain('OK: the signature holds and every file matches.');

    // A file changed by one byte.
    const scan = path.join(dir, 'files', 'Correspondence', 'scan.pdf');
    const tampered = Buffer.from(contents[0]!);
    tampered[17] = tampered[17]! ^ 1;
    await fs.writeFile(scan, tampered);
    const fileFails = verifyCertificateCli(certFile, '--files', path.join(dir, 'files'));
    expect(fileFails.status).toBe(1);
    expect(fileFails.stderr).toContain('Correspondence/scan.pdf: sha256');
    await fs.writeFile(scan, contents[0]!);

    // A byte of the certificate changed, wherever it is (a sample across the whole file, ends included).
    const text = res.body;
    const positions = [
      0,
      1,
      text.indexOf('"sha256"') + 12,
      text.indexOf('"size"') + 7,
      text.indexOf('"signature"') + 20,
      text.length - 3,
      text.length - 1,
    ];
    for (const i of positions) {
      const code = text.charCodeAt(i);
      const flipped = text.slice(0, i) + String.fromCharCode(code === 0x30 ? 0x31 : code ^ 1) + text.slice(i + 1);
      await fs.writeFile(certFile, flipped);
      const r = verifyCertificateCli(certFile);
      expect(r.status, `byte ${i} changed`).toBe(1);
      expect(r.stderr).toContain('FAILED');
    }
  }, 60_000);
});

describe('the vault transfer on an S3 store without Object Lock (s3rver)', () => {
  let s3: TestS3Server;
  /** Vaulting refused: the store does not enforce write-once and nobody allowed that. */
  let refused: TestApp;
  /** VAULT_ALLOW_UNLOCKED_STORE=true: vaulting for evaluation, the certificates saying the files are unprotected. */
  let allowed: TestApp;
  beforeAll(async () => {
    s3 = await startS3Server();
    const env = {
      JOB_RUNNER: 'off',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_REGION: s3.region,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    };
    refused = await createTestApp(env);
    allowed = await createTestApp({ ...env, VAULT_ALLOW_UNLOCKED_STORE: 'true' });
  });
  afterAll(async () => {
    await refused?.shutdown();
    await allowed?.shutdown();
    await s3?.close();
  });

  /** An upload through the real flow: presigned URL, PUT straight to the S3 server, completion. */
  async function upload(admin: TotpMember, matterId: string, fileName: string, bytes: Buffer) {
    const meta = { fileName, fileType: 'application/pdf', matterId, parentId: null };
    const signed = ok(await admin.client.post('/_api/upload/presigned', { ...meta, fileSize: bytes.length }));
    const put = await fetch(signed.url, { method: 'PUT', body: new Uint8Array(bytes), headers: signed.headers });
    expect(put.status).toBe(200);
    return ok(await admin.client.post('/_api/upload/multipart-complete', { ...meta, s3Key: signed.s3Key, fileSize: bytes.length }))
      .file as {
      id: string;
      storagePath: string;
      sha256Hash: string;
    };
  }

  it('refuses to vault with a 409 that says why; the matter stays as it was, nothing is copied and no certificate exists', async () => {
    const t = refused;
    const admin = await newOrganizationWithTotp(t, 'Unlocked & Co');
    const status = await t.ctx.store.writeOnceStatus();
    expect(status.enforced).toBe(false);
    const m = await createMatter(admin.client, { matterName: 'Not into this bucket' });
    const file = await upload(admin, m.id, 'deed.pdf', randomBytes(3000));

    const res = await admin.client.post('/_api/vault/start', { matterId: m.id, retentionYears: 7, mfaToken: await totp(t, admin) });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: VAULT_MSG.unlockedStoreRefused(status.detail), code: 'CONFLICT_ERROR' });
    expect(res.json().error).toMatch(
      /^The object store does not enforce write-once storage \(.+\): vaulting is refused\. An administrator can allow it for evaluation only with VAULT_ALLOW_UNLOCKED_STORE=true\.$/,
    );

    const matter = await t.ctx.db.selectFrom('matters').selectAll().where('id', '=', m.id).executeTakeFirstOrThrow();
    expect(matter).toMatchObject({ isVaulted: false, legalHold: false, vaultedAt: null, retentionExpiresAt: null });
    expect(matter.status).not.toBe('Vaulted');
    expect(await t.ctx.db.selectFrom('vaultTransfers').select('matterId').where('matterId', '=', m.id).execute()).toEqual([]);
    expect(await objectsOf(t, m.id)).toEqual([]);
    expect(await t.ctx.db.selectFrom('vaultCertificates').select('id').where('matterId', '=', m.id).execute()).toEqual([]);
    expect(await t.ctx.store.head(vaultObjectKey(admin.organizationId, m.id, file.id))).toBeNull();
    expect(await t.ctx.store.head(file.storagePath)).not.toBeNull();
    expect((await nodeOf(t, file.id)).storagePath).toBe(file.storagePath);
    const actions = (await auditActions(t, admin.organizationId)).filter((a) => a.targetId === m.id).map((a) => a.action);
    expect(actions).not.toContain('VAULT_MATTER');
    expect((await admin.client.get(`/_api/vault/certificate?matterId=${m.id}`)).statusCode).toBe(409);
  });

  it('with VAULT_ALLOW_UNLOCKED_STORE=true vaults, and the certificate states no lock and that the files are not write-once protected', async () => {
    const t = allowed;
    const admin = await newOrganizationWithTotp(t, 'Evaluation LLP');
    expect(t.ctx.store.kind).toBe('s3');
    const m = await createMatter(admin.client, { matterName: 'Matter in a bucket' });
    const contents = [randomBytes(2 * 1024 * 1024 + 3), randomBytes(10)];
    const files = [await upload(admin, m.id, 'one.pdf', contents[0]!), await upload(admin, m.id, 'two.pdf', contents[1]!)];
    await vault(t, admin, m.id);
    expect(await t.ctx.jobs.runDueJobs([VAULT_TRANSFER_JOB])).toEqual({ completed: 1, failed: 0 });
    await t.ctx.jobs.runDueJobs(['delete-objects']);
    for (const [i, f] of files.entries()) {
      const key = vaultObjectKey(admin.organizationId, m.id, f.id);
      expect((await nodeOf(t, f.id)).storagePath).toBe(key);
      expect(await t.ctx.store.sha256(key)).toBe(sha256(contents[i]!));
      expect(await t.ctx.store.head(f.storagePath)).toBeNull();
    }
    expect((await objectsOf(t, m.id)).map((o) => o.sha256)).toEqual(contents.map((c) => sha256(c)));
    const res = await admin.client.get(`/_api/vault/certificate?matterId=${m.id}`);
    expect(res.statusCode).toBe(200);
    const cert = JSON.parse(res.body) as SignedCertificate;
    expect(cert.payload.files.map((f) => f.sha256)).toEqual(contents.map((c) => sha256(c)));
    // Nothing locks these objects, and the certificate says so instead of repeating what was asked for.
    for (const f of cert.payload.files) {
      const info = await t.ctx.store.vaultInfo(f.objectKey);
      expect(info?.lock).toBeNull();
      expect(f).toMatchObject({ lockMode: null, retainUntil: null, legalHold: false, versionId: info!.versionId });
    }
    expect(cert.payload.storeProtection).toEqual({
      writeOnce: false,
      statement: 'These objects are not write-once protected: the object store did not enforce a lock when they were vaulted.',
    });
    const stored = await t.ctx.db.selectFrom('vaultCertificates').selectAll().where('matterId', '=', m.id).executeTakeFirstOrThrow();
    expect((await readAll(t, stored.objectKey)).toString('utf8')).toBe(res.body);
    // The chain-of-custody report says so too, above everything else.
    const report = (await admin.client.get(`/_api/vault/report?matterId=${m.id}`)).body;
    expect(report).toContain(`<p class="notice warning" role="note"><strong>Warning.</strong> ${VAULT_MSG.storeUnprotected}</p>`);
    expect(report).toContain('Not locked: the store confirmed no lock');
    expect(report).not.toContain('Compliance lock until');

    // Such a store keeps no legal holds: removing the matter's hold still goes through, with nothing to set.
    const body = { matterId: m.id, action: 'remove', reason: 'Evaluation finished, hold not needed' };
    ok(await admin.client.post('/_api/matters/legal-hold', { ...body, mfaToken: await totp(t, admin) }));
    expect(await t.ctx.jobs.runDueJobs([VAULT_HOLD_SYNC_JOB])).toEqual({ completed: 1, failed: 0 });
    expect((await objectsOf(t, m.id)).map((o) => o.legalHold)).toEqual([false, false]);
  });

  it('checks the store again when the transfer runs: refused there, the run fails before copying anything and is retried', async () => {
    const t = allowed;
    const admin = await newOrganizationWithTotp(t, 'Changed Mind LLP');
    const m = await createMatter(admin.client, { matterName: 'Allowed, then no longer' });
    const file = await upload(admin, m.id, 'will.pdf', randomBytes(500));
    await vault(t, admin, m.id);
    // Between the request and the job, the administrator withdraws the permission (as if the store had changed).
    t.ctx.config.vaultAllowUnlockedStore = false;
    try {
      expect(await t.ctx.jobs.runDueJobs([VAULT_TRANSFER_JOB])).toEqual({ completed: 0, failed: 1 });
    } finally {
      t.ctx.config.vaultAllowUnlockedStore = true;
    }
    const transfer = await transferOf(t, m.id);
    expect(transfer).toMatchObject({ state: 'failed', filesDone: 0 });
    expect(transfer.lastError).toContain('The object store does not enforce write-once storage');
    const failure = (await auditActions(t, admin.organizationId)).find((a) => a.targetId === m.id && a.action === 'VAULT_TRANSFER_FAILED');
    expect(String(failure?.details.reason)).toContain('vaulting is refused');
    expect(await objectsOf(t, m.id)).toEqual([]);
    expect(await t.ctx.store.head(vaultObjectKey(admin.organizationId, m.id, file.id))).toBeNull();
    expect((await nodeOf(t, file.id)).storagePath).toBe(file.storagePath);
    // Allowed again: the next run vaults the file.
    expect(await runVaultTransfer(t.ctx, { organizationId: admin.organizationId, matterId: m.id })).toBe('completed');
    expect((await objectsOf(t, m.id)).map((o) => o.nodeId)).toEqual([file.id]);
  });
});
