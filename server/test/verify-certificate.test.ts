/**
 * `npm run verify-certificate` as a stranger runs it: the real script in a child process, against a Strongroom
 * that publishes its keys on a loopback port. A genuine certificate passes under each way of naming the trusted
 * key, before and after a key rotation; a forgery re-signed with another key fails under each; with no trusted
 * key the script exits 2 and never prints OK.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNING_KEYS_PATH, type SignedCertificate, type SigningKeysResponse, type VaultCertificatePayload } from '@strongroom/contracts';
import { certificateBytes, signCertificate, signerOfPem, signingKeyFile } from '../src/platform/signing.js';
import { registerSigningKey, rotateFileSigningKey } from '../src/platform/signing-keys.js';
import { createTestApp, type TestApp } from './helpers.js';
import { forgeCertificate } from './fixtures/forged-certificate.js';

const repoRoot = path.resolve(import.meta.dirname, '../..');

type Run = { status: number | null; stdout: string; stderr: string };

/** The script in its own process; asynchronous, so this process's server can answer its --keys-url request. */
function verify(...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/verify-certificate.mjs', ...args], { cwd: repoRoot });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function expectOk(r: Run): void {
  expect(r.status, r.stdout + r.stderr).toBe(0);
  expect(r.stdout).toContain('OK: the signature holds');
}

function expectRefused(r: Run, why: string | RegExp): void {
  expect(r.status, r.stdout + r.stderr).toBe(1);
  expect(r.stdout).not.toContain('OK');
  expect(r.stderr).toContain('FAILED');
  expect(r.stderr).toMatch(why);
}

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let t: TestApp;
let dir: string;
let keysUrl: string;
let filesDir: string;
let payload: VaultCertificatePayload;
let genuine: SignedCertificate;
let genuineFile: string;
let forgedFile: string;
/** The installation key as its owner hands it out: the PEM and the fingerprint, grouped as the settings page shows it. */
let keyPemFile: string;
let groupedFingerprint: string;

async function writeFile(name: string, contents: string | Buffer): Promise<string> {
  const file = path.join(dir, name);
  await fs.writeFile(file, contents);
  return file;
}

async function publishedList(): Promise<SigningKeysResponse> {
  const res = await fetch(keysUrl);
  expect(res.status).toBe(200);
  return (await res.json()) as SigningKeysResponse;
}

beforeAll(async () => {
  t = await createTestApp();
  await registerSigningKey(t.ctx);
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  keysUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}${SIGNING_KEYS_PATH}`;
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'strongroom-verify-cert-'));
  filesDir = path.join(dir, 'files');
  const contents: Record<string, Buffer> = {
    'Pleadings/claim.pdf': Buffer.from('%PDF-1.7 the claim'),
    'Pleadings/defence.pdf': Buffer.from('%PDF-1.7 the defence'),
    'engagement.txt': Buffer.from('letter of engagement'),
  };
  for (const [p, bytes] of Object.entries(contents)) {
    await fs.mkdir(path.dirname(path.join(filesDir, p)), { recursive: true });
    await fs.writeFile(path.join(filesDir, p), bytes);
  }
  payload = {
    kind: 'vault-certificate',
    version: 1,
    issuedAt: new Date().toISOString(),
    organization: { id: '00000000-0000-4000-8000-000000000001', name: 'Smith & Jones' },
    matter: {
      id: '00000000-0000-4000-8000-000000000002',
      matterName: 'Estate of A',
      matterNumber: 'MAT-2026-001',
      clientName: 'A',
      vaultedAt: new Date().toISOString(),
      retentionExpiresAt: '2033-11-28T09:00:00.000Z',
    },
    files: Object.entries(contents).map(([p, bytes], i) => ({
      path: p,
      size: bytes.length,
      sha256: sha256(bytes),
      objectKey: `vault/org/matter/${i}`,
      versionId: null,
      retainUntil: '2033-11-28T09:00:00.000Z',
      lockMode: 'COMPLIANCE' as const,
      legalHold: false,
    })),
    totals: { files: 3, bytes: Object.values(contents).reduce((n, b) => n + b.length, 0) },
    auditChainHead: { sequence: 7, hash: 'cd'.repeat(32) },
  };
  genuine = await signCertificate(t.config, payload);
  genuineFile = await writeFile('certificate.json', certificateBytes(genuine));
  forgedFile = await writeFile('forged.json', forgeCertificate(genuine).text);
  const [key] = (await publishedList()).keys;
  keyPemFile = await writeFile('installation.pem', key!.publicKeyPem);
  groupedFingerprint = key!.fingerprint.toUpperCase().replace(/(.{4})(?!$)/g, '$1 ');
});

afterAll(async () => {
  await t?.shutdown();
  if (dir) await fs.rm(dir, { recursive: true, force: true });
});

describe('a genuine certificate', () => {
  it('passes with the installation key pinned by public key, fingerprint, published list or a saved copy of the list', async () => {
    expect(genuine.keyId).toBe((await publishedList()).keys[0]!.fingerprint);
    const savedList = await writeFile('keys.json', JSON.stringify(await publishedList()));
    const runs = await Promise.all([
      verify(genuineFile, '--public-key', keyPemFile, '--files', filesDir),
      verify(genuineFile, '--fingerprint', groupedFingerprint),
      verify(genuineFile, '--keys-url', keysUrl, '--files', filesDir),
      verify(genuineFile, '--keys-url', savedList),
      verify(genuineFile, '--fingerprint', genuine.keyId, '--keys-url', keysUrl, '--public-key', keyPemFile),
    ]);
    for (const r of runs) {
      expectOk(r);
      expect(r.stderr).toBe('');
    }
    expect(runs[2]!.stdout).toContain('OK: the signature holds and every file matches.');
    expect(runs[2]!.stdout).toContain(`Trusted key checked against: published keys ${keysUrl}`);
  });

  it('without a trusted key: exit 2, no OK, and the fingerprint to compare', async () => {
    const r = await verify(genuineFile, '--files', filesDir);
    expect(r.status).toBe(2);
    expect(r.stdout).not.toContain('OK');
    expect(r.stderr).toContain('NOT VERIFIED: no trusted key was given');
    expect(r.stderr).toContain(genuine.keyId);
  });
});

describe('the forgery (a sha256 changed, a file dropped, retention 2099, re-signed with a fresh key)', () => {
  it('is refused under every trust option', async () => {
    const savedList = await writeFile('keys-for-forgery.json', JSON.stringify(await publishedList()));
    const [pem, fingerprint, url, saved, withFiles] = await Promise.all([
      verify(forgedFile, '--public-key', keyPemFile),
      verify(forgedFile, '--fingerprint', groupedFingerprint),
      verify(forgedFile, '--keys-url', keysUrl),
      verify(forgedFile, '--keys-url', savedList),
      verify(forgedFile, '--keys-url', keysUrl, '--files', filesDir),
    ]);
    expectRefused(pem!, 'not the trusted key');
    expectRefused(fingerprint!, 'not the trusted fingerprint');
    expectRefused(url!, 'not in the published key list');
    expectRefused(saved!, 'not in the published key list');
    expectRefused(withFiles!, /Pleadings\/claim\.pdf: sha256/);
    // What the forger changed is shown as the certificate now says it, but never with an OK.
    expect(url!.stdout).toContain('retention until 2099-12-31');
  });

  it('with no trust option exits 2 and never prints OK', async () => {
    const r = await verify(forgedFile);
    expect(r.status).toBe(2);
    expect(r.stdout).not.toContain('OK');
    expect(r.stderr).toContain('NOT VERIFIED');
  });

  it('is refused by a saved list doctored to carry the forger’s key under the installation’s key id', async () => {
    const list = await publishedList();
    const forged = JSON.parse(await fs.readFile(forgedFile, 'utf8')) as SignedCertificate;
    const doctored = { keys: list.keys.map((k) => ({ ...k, keyId: forged.keyId, publicKeyPem: forged.publicKey })) };
    const r = await verify(forgedFile, '--keys-url', await writeFile('doctored.json', JSON.stringify(doctored)));
    expectRefused(r, 'does not match its own public key');
  });
});

describe('key lists and warnings', () => {
  it('fetches a key list over https only, plain http only from this machine', async () => {
    const r = await verify(genuineFile, '--keys-url', 'http://keys.example.test/.well-known/strongroom-signing-keys');
    expect(r.status).toBe(2);
    expect(r.stdout).not.toContain('OK');
    expect(r.stderr).toContain('fetched over https');
    const missing = await verify(genuineFile, '--keys-url', path.join(dir, 'no-such-list.json'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('ENOENT');
    const badFingerprint = await verify(genuineFile, '--fingerprint', 'abc');
    expect(badFingerprint.status).toBe(2);
    expect(badFingerprint.stderr).toContain('64 hex digits');
  });

  it('passes on what the certificate says about unprotected storage as a WARNING', async () => {
    const statement = 'These objects are not write-once protected: the object store did not enforce a lock when they were vaulted.';
    const unprotected = {
      ...payload,
      files: payload.files.map((f, i) => (i === 0 ? { ...f, lockMode: null, retainUntil: null } : f)),
      storeProtection: { writeOnce: false, statement },
    } as unknown as VaultCertificatePayload;
    const file = await writeFile('unprotected.json', certificateBytes(await signCertificate(t.config, unprotected)));
    const r = await verify(file, '--keys-url', keysUrl);
    expectOk(r);
    expect(r.stdout).toContain(`WARNING: ${statement}`);

    const lockless = { ...payload, files: payload.files.map((f) => ({ ...f, lockMode: null })) } as unknown as VaultCertificatePayload;
    const second = await verify(
      await writeFile('lockless.json', certificateBytes(await signCertificate(t.config, lockless))),
      '--fingerprint',
      genuine.keyId,
    );
    expectOk(second);
    expect(second.stdout).toContain('WARNING: 3 file(s) were stored without a write-once lock');
    expect((await verify(genuineFile, '--fingerprint', genuine.keyId)).stdout).not.toContain('WARNING');
  });
});

describe('after a key rotation', () => {
  it('old certificates still verify against the published list, which keeps the old key; the old key signs nothing new', async () => {
    const oldPem = await fs.readFile(signingKeyFile(t.config), 'utf8');
    const rotated = await rotateFileSigningKey(t.ctx);
    expect(rotated.retiredKeyId).toBe(genuine.keyId);
    expect(rotated.keyId).not.toBe(genuine.keyId);

    const list = await publishedList();
    expect(list.keys.map((k) => k.keyId)).toEqual([genuine.keyId, rotated.keyId]);
    expect(list.keys[0]!.notAfter).toBe(list.keys[1]!.notBefore);
    expect(list.keys[1]!.notAfter).toBeNull();

    // This process signs with the new key from now on.
    const after = await signCertificate(t.config, { ...payload, issuedAt: new Date().toISOString() });
    expect(after.keyId).toBe(rotated.keyId);
    const afterFile = await writeFile('after-rotation.json', certificateBytes(after));
    // Whoever kept the retired private key cannot make a certificate dated after the retirement.
    const late = signerOfPem(oldPem).sign({ ...payload, issuedAt: new Date(Date.now() + 1000).toISOString() });
    const lateFile = await writeFile('late.json', certificateBytes(late));

    const [oldCert, newCert, oldCertNewPin, lateCert, forged] = await Promise.all([
      verify(genuineFile, '--keys-url', keysUrl, '--files', filesDir),
      verify(afterFile, '--keys-url', keysUrl, '--fingerprint', rotated.fingerprint),
      verify(genuineFile, '--fingerprint', rotated.fingerprint),
      verify(lateFile, '--keys-url', keysUrl),
      verify(forgedFile, '--keys-url', keysUrl),
    ]);
    expectOk(oldCert!);
    expectOk(newCert!);
    expectRefused(oldCertNewPin!, 'not the trusted fingerprint');
    expectRefused(lateCert!, 'after the key was retired');
    expectRefused(forged!, 'not in the published key list');
  });
});
