/**
 * Backup and a tested restore, as an operator runs them: a populated installation (an organization, matters,
 * folders, files with several versions, a vaulted matter with its signed certificate, a signed audit head) is
 * backed up; `npm run admin -- restore` (the CLI in a child process) writes it into an empty installation (a new
 * DATA_DIR; under PostgreSQL also a new, empty database); every matter, file version (sha256 of the restored
 * bytes), the certificate (the third-party verifier) and the audit chain are then found, and the restored
 * installation serves and verifies its vault. The same backup also restores into an S3 bucket (s3rver). A restore
 * into a non-empty installation and a changed backup are refused.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runBackup } from '../src/backup/backup.js';
import { BackupError, readManifest } from '../src/backup/manifest.js';
import { openBackup, runRestore } from '../src/backup/restore.js';
import { signChainHead } from '../src/features/audit/index.js';
import { currentTotp } from '../src/features/mfa/totp.js';
import { VAULT_TRANSFER_JOB } from '../src/features/vault/vault-transfer.jobs.js';
import { registerSigningKey } from '../src/platform/signing-keys.js';
import { openPglite, openPostgres, type DatabaseHandle } from '../src/platform/db/database.js';
import { createBlobStore, type BlobStore } from '../src/platform/storage/index.js';
import { createFolder, createMatter, newOrganizationWithTotp, ok, sha256, uploadFile, type TotpMember } from './factories.js';
import { Client, createTestApp, nextTotp, type TestApp } from './helpers.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { verifyCertificateCli } from './process-helpers.js';
import { startS3Server } from './s3-server.js';

const serverDir = path.resolve(import.meta.dirname, '..');
const postgres = process.env.TEST_DB_KIND === 'postgres';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-backup-'));
const cleanups: Array<() => Promise<void>> = [];

let t: TestApp;
let admin: TotpMember & { account: { password: string } };
let vaultedId: string;
let certificateBytes: Buffer;
const stored = new Map<string, Buffer>();
let backupDir: string;
let matterIds: string[] = [];

/** An empty installation to restore into: a new DATA_DIR and, under PostgreSQL, a new database with nothing in it. */
async function emptyInstallation(): Promise<{ dataDir: string; env: Record<string, string> }> {
  const dataDir = fs.mkdtempSync(path.join(tmp, 'target-'));
  if (!postgres) return { dataDir, env: { DATA_DIR: dataDir, DATABASE_URL: '' } };
  const url = new URL(process.env.TEST_DATABASE_URL!);
  const name = `strongroom_restore_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const adminDb = new pg.Client({ connectionString: url.toString() });
  await adminDb.connect();
  await adminDb.query(`create database ${name}`);
  cleanups.push(async () => {
    await adminDb.query(`drop database if exists ${name} with (force)`);
    await adminDb.end();
  });
  url.pathname = `/${name}`;
  return { dataDir, env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() } };
}

const { SIGNING_PRIVATE_KEY: _a, MFA_ENCRYPTION_KEY: _b, STORAGE_SIGNING_KEY: _c, ...parentEnv } = process.env;
const admin_cli = (args: string[], env: Record<string, string>) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: serverDir,
    env: { ...parentEnv, NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 170_000,
  });

async function openRestored(target: { dataDir: string; env: Record<string, string> }): Promise<{ db: DatabaseHandle; store: BlobStore }> {
  const db = target.env.DATABASE_URL ? await openPostgres(target.env.DATABASE_URL) : await openPglite(path.join(target.dataDir, 'pg'));
  const store = createBlobStore({ dataDir: target.dataDir, appUrl: 'http://localhost:3000' });
  return { db, store };
}

async function storedBytes(store: BlobStore, key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await store.getStream(key)) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  t = await createTestApp({ JOB_RUNNER: 'off' });
  // What the server does at start: the signing key recorded in the database and as a write-once record.
  await registerSigningKey(t.ctx);
  admin = await newOrganizationWithTotp(t, 'Backup & Partners');
  const open = await createMatter(admin.client, { matterName: 'Open matter' });
  const folder = await createFolder(admin.client, open.id, 'Pleadings');
  const sub = await createFolder(admin.client, open.id, 'Drafts', folder.id);
  for (const [i, text] of ['first draft', 'second draft, longer', 'third and final draft'].entries()) {
    const bytes = Buffer.from(text);
    await uploadFile(t, admin.client, open.id, 'brief.pdf', bytes, sub.id, 'application/pdf', i === 0 ? undefined : 'newVersion');
    stored.set(sha256(bytes), bytes);
  }
  const notes = Buffer.from('notes on the case\n'.repeat(1000));
  await uploadFile(t, admin.client, open.id, 'notes.txt', notes, folder.id, 'text/plain');
  stored.set(sha256(notes), notes);

  const vaulted = await createMatter(admin.client, { matterName: 'Vaulted matter' });
  const evidence = Buffer.from('signed contract');
  await uploadFile(t, admin.client, vaulted.id, 'contract.pdf', evidence);
  stored.set(sha256(evidence), evidence);
  // The sign-in spent the current step; the server forgets it so that this code counts.
  await t.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', admin.userId).execute();
  ok(await admin.client.post('/_api/vault/start', { matterId: vaulted.id, retentionYears: 7, mfaToken: currentTotp(admin.totpSecret) }));
  await t.ctx.jobs.runDueJobs([VAULT_TRANSFER_JOB]);
  const certificate = await admin.client.get(`/_api/vault/certificate?matterId=${vaulted.id}`);
  expect(certificate.statusCode).toBe(200);
  certificateBytes = certificate.rawPayload;
  vaultedId = vaulted.id;
  await signChainHead(t.ctx, admin.organizationId, 'manual');
  matterIds = [open.id, vaulted.id].sort();

  backupDir = path.join(tmp, 'backup');
  await runBackup(t.ctx, { out: backupDir, includeKeys: true });
}, 120_000);

afterAll(async () => {
  await t.shutdown();
  for (const c of cleanups) await c();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('npm run admin -- backup / restore', () => {
  it('writes a manifest with every table, object and key file and says what is left out', () => {
    const manifest = readManifest(backupDir);
    expect(manifest.tables.map((x) => x.name)).toEqual(
      expect.arrayContaining(['organizations', 'matters', 'nodes', 'node_versions', 'audit_logs']),
    );
    expect(manifest.tables.map((x) => x.name)).not.toContain('sessions');
    expect(manifest.tables.find((x) => x.name === 'matters')?.rows).toBe(2);
    expect(manifest.objects.some((o) => o.key.startsWith('vault/audit-heads/'))).toBe(true);
    const certificate = manifest.objects.find((o) => /^vault\/[^/]+\/[^/]+\/certificates\//.test(o.key));
    expect(new Date(certificate!.lock!.retainUntil).getTime()).toBeGreaterThan(Date.now());
    expect(manifest.keys.map((k) => k.name)).toContain('signing-ed25519.pem');
    expect(manifest.notIncluded.join(' ')).toMatch(/sessions/);
    expect(fs.statSync(path.join(backupDir, 'keys', 'signing-ed25519.pem')).mode & 0o777).toBe(0o600);
  });

  it('restores into an empty installation with every matter, file version, certificate and a valid audit chain', async () => {
    const target = await emptyInstallation();
    const run = admin_cli(['restore', '--from', backupDir], target.env);
    expect(run.stderr).toBe('');
    expect(run.status, run.stdout).toBe(0);
    const summary = JSON.parse(run.stdout) as Record<string, unknown> & { problems: string[] };
    expect(summary.problems).toEqual([]);
    expect(summary).toMatchObject({ organizations: 1, matters: 2, files: 3, versions: 5, certificates: { checked: 1, ok: 1 } });
    expect(summary.auditChains).toEqual({ checked: 1, ok: 1, signedHeads: 1 });

    // The restored installation backs up (the CLI's backup, a real process) to the same rows and objects.
    const second = path.join(tmp, 'second');
    const backedUp = admin_cli(['backup', '--out', second], target.env);
    expect(backedUp.status, backedUp.stderr).toBe(0);
    const told = JSON.parse(backedUp.stdout) as { out: string; keysIncluded: boolean; notIncluded: string[] };
    expect(told).toMatchObject({ out: second, keysIncluded: false });
    expect(told.notIncluded.join(' ')).toMatch(/MFA encryption key/);
    const [before, after] = [readManifest(backupDir), readManifest(second)];
    expect(after.tables.map((x) => [x.name, x.rows])).toEqual(before.tables.map((x) => [x.name, x.rows]));
    expect(after.objects.map((o) => [o.key, o.sha256, o.lock?.legalHold])).toEqual(
      before.objects.map((o) => [o.key, o.sha256, o.lock?.legalHold]),
    );
    expect(after.keys).toEqual([]);
    expect(after.notIncluded.join(' ')).toMatch(/--include-keys/);

    // The vault's own verification finds every restored vault object with its lock, retain-until, hold and bytes.
    const verified = admin_cli(['verify-vault'], target.env);
    expect(verified.status, verified.stdout + verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ checked: 1, failed: 0 });

    const source = await t.ctx.db.selectFrom('nodeVersions').select(['id', 'storagePath', 'sha256Hash']).orderBy('id').execute();
    const { db, store } = await openRestored(target);
    try {
      expect((await db.db.selectFrom('matters').select('id').orderBy('id').execute()).map((m) => m.id)).toEqual(matterIds);
      const versions = await db.db.selectFrom('nodeVersions').select(['id', 'storagePath', 'sha256Hash']).orderBy('id').execute();
      expect(versions).toEqual(source);
      for (const v of versions) {
        const sha = sha256(await storedBytes(store, v.storagePath));
        expect(sha).toBe(v.sha256Hash);
        expect(stored.has(sha)).toBe(true);
      }
      const auditSource = await t.ctx.db
        .selectFrom('auditLogs')
        .select(({ fn }) => fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      const auditRestored = await db.db
        .selectFrom('auditLogs')
        .select(({ fn }) => fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(auditRestored.n)).toBe(Number(auditSource.n));
      expect(await db.db.selectFrom('sessions').selectAll().execute()).toEqual([]);

      const cert = await db.db.selectFrom('vaultCertificates').select(['objectKey', 'body']).executeTakeFirstOrThrow();
      const certFile = path.join(tmp, 'certificate.json');
      fs.writeFileSync(certFile, await storedBytes(store, cert.objectKey));
      const certified = verifyCertificateCli(certFile, '--fingerprint', cert.body.keyId);
      expect(certified.stdout).toMatch(/OK/);
      expect(certified.status).toBe(0);
      const lock = (await store.vaultInfo(cert.objectKey))?.lock;
      expect(lock?.mode).toBe('COMPLIANCE');
      expect(lock!.retainUntil.getTime()).toBeGreaterThan(Date.now());

      // The restored installation serves: the old session is not carried over, the administrator signs in with
      // the same authenticator (the MFA key came with --include-keys) and downloads the same certificate.
      const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: target.dataDir, LOG_LEVEL: 'silent', JOB_RUNNER: 'off' });
      const restored = await buildApp({ config, database: db, store, migrate: false, logger: false });
      try {
        const stale = new Client(restored.app);
        for (const [k, v] of admin.client.cookies) stale.cookies.set(k, v);
        expect((await stale.get(`/_api/vault/certificate?matterId=${vaultedId}`)).statusCode).toBe(401);
        const fresh = new Client(restored.app);
        const login = ok(await fresh.post('/_api/auth/login_with_password', { email: admin.email, password: admin.account.password }));
        ok(await fresh.post('/_api/auth/mfa-verify-totp', { userId: login.userId, token: nextTotp(admin.totpSecret) }));
        const download = await fresh.get(`/_api/vault/certificate?matterId=${vaultedId}`);
        expect(download.statusCode).toBe(200);
        expect(download.rawPayload.equals(certificateBytes)).toBe(true);
      } finally {
        await restored.close();
      }
    } finally {
      await db.close();
    }

    const again = admin_cli(['restore', '--from', backupDir], target.env);
    expect(again.status).toBe(65);
    expect(again.stderr).toMatch(/not empty/);
  }, 240_000);

  it('restores the same backup into an empty S3 bucket (s3rver) through the storage port, and the checks hold', async () => {
    const s3 = await startS3Server();
    const target = await createTestApp({
      JOB_RUNNER: 'off',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_REGION: s3.region,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    });
    try {
      expect(target.ctx.store.kind).toBe('s3');
      const { manifest } = await openBackup(backupDir);
      const summary = await runRestore(target.ctx, backupDir, manifest);
      expect(summary.problems).toEqual([]);
      expect(summary).toMatchObject({ matters: 2, files: 3, versions: 5, certificates: { checked: 1, ok: 1 } });
      expect(summary.auditChains).toEqual({ checked: 1, ok: 1, signedHeads: 1 });
      const keys = await target.ctx.store.listKeys('');
      expect(keys.sort()).toEqual(manifest.objects.map((o) => o.key).sort());
      for (const o of manifest.objects) expect(await target.ctx.store.sha256(o.key)).toBe(o.sha256);
    } finally {
      await target.shutdown();
      await s3.close();
    }
  }, 120_000);

  it('refuses a backup whose files do not match the manifest, before writing anything', async () => {
    const changed = path.join(tmp, 'changed');
    fs.cpSync(backupDir, changed, { recursive: true });
    const manifest = readManifest(changed);
    const victim = manifest.objects.find((o) => !o.key.startsWith('vault/'))!;
    const file = path.join(changed, victim.file);
    fs.chmodSync(file, 0o600);
    const bytes = fs.readFileSync(file);
    bytes[0] = bytes[0]! ^ 1;
    fs.writeFileSync(file, bytes);
    await expect(openBackup(changed)).rejects.toThrow(BackupError);
    await expect(openBackup(changed)).rejects.toThrow(/does not match its manifest[\s\S]*objects\//);

    const rows = path.join(tmp, 'rows-changed');
    fs.cpSync(backupDir, rows, { recursive: true });
    fs.appendFileSync(path.join(rows, 'db', 'matters.jsonl'), '{"id":"00000000-0000-0000-0000-000000000000"}\n');
    await expect(openBackup(rows)).rejects.toThrow(/db\/matters\.jsonl/);

    const newer = path.join(tmp, 'newer');
    fs.cpSync(backupDir, newer, { recursive: true });
    const later = readManifest(newer);
    later.database.migrations.push('29991231_9999_from_the_future');
    fs.chmodSync(path.join(newer, 'manifest.json'), 0o600);
    fs.writeFileSync(path.join(newer, 'manifest.json'), JSON.stringify(later));
    await expect(openBackup(newer)).rejects.toThrow(/newer Strongroom/);
  });
});
