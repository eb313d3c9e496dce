import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { VaultCertificatePayload } from '@strongroom/contracts';
import { certificateBytes, certificateSigner, verifyCertificate } from './signing.js';
import { canonicalJson, checkCertificateText, checkSignedCertificate } from './signing-verify.js';

const payload: VaultCertificatePayload = {
  kind: 'vault-certificate',
  version: 1,
  issuedAt: '2026-11-28T10:00:00.000Z',
  organization: { id: '00000000-0000-4000-8000-000000000001', name: 'Smith & Jones — Ünïcode' },
  matter: {
    id: '00000000-0000-4000-8000-000000000002',
    matterName: 'Estate of A',
    matterNumber: null,
    clientName: 'A',
    vaultedAt: '2026-11-28T09:00:00.000Z',
    retentionExpiresAt: '2033-11-28T09:00:00.000Z',
  },
  files: [
    {
      path: 'Pleadings/a.pdf',
      size: 3,
      sha256: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      objectKey: 'vault/o/m/n',
      versionId: null,
      retainUntil: '2033-11-28T09:00:00.000Z',
      lockMode: 'COMPLIANCE',
      legalHold: true,
    },
  ],
  totals: { files: 1, bytes: 3 },
  auditChainHead: { sequence: 12, hash: 'ab'.repeat(32) },
};

const dirs: string[] = [];
async function tempDir() {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'strongroom-signing-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

describe('canonical JSON', () => {
  it('sorts keys at every depth, keeps array order, has no spaces and leaves out undefined members', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 'x', c: null }, 2], e: undefined })).toBe('{"a":[{"c":null,"d":"x"},2],"b":1}');
  });
  it('refuses a number JSON cannot carry', () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(TypeError);
  });
});

describe('certificate signing', () => {
  it('makes the installation key once in DATA_DIR/keys (owner-only) and signs with it', async () => {
    const dataDir = await tempDir();
    const signer = await certificateSigner({ dataDir });
    const file = path.join(dataDir, 'keys', 'signing-ed25519.pem');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect(await fs.readFile(file, 'utf8')).toContain('BEGIN PRIVATE KEY');
    const signed = signer.sign(payload);
    expect(signed.algorithm).toBe('Ed25519');
    expect(signed.keyId).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyCertificate(signed)).toBe(true);
    // A second process on the same data directory uses the same key.
    const { certificateSigner: again } = await import('./signing.js');
    expect((await again({ dataDir })).keyId).toBe(signer.keyId);
  });

  it('uses SIGNING_PRIVATE_KEY when given', async () => {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const dataDir = await tempDir();
    const signer = await certificateSigner({ dataDir, signingPrivateKey: pem });
    await expect(fs.stat(path.join(dataDir, 'keys'))).rejects.toThrow();
    expect(checkSignedCertificate(signer.sign(payload), { trustedPublicKeyPem: signer.publicKeyPem }).ok).toBe(true);
  });

  it('fails when the payload, the signature, the key id or the trusted key differ', async () => {
    const signer = await certificateSigner({ dataDir: await tempDir() });
    const signed = signer.sign(payload);
    const changed = structuredClone(signed);
    changed.payload.files[0]!.size = 4;
    expect(checkSignedCertificate(changed).problems).toEqual(['the signature does not match the payload']);
    const otherKey = await certificateSigner({ dataDir: await tempDir() });
    const swapped = { ...signed, publicKey: otherKey.publicKeyPem };
    expect(checkSignedCertificate(swapped).ok).toBe(false);
    expect(checkSignedCertificate({ ...swapped, keyId: otherKey.keyId }).problems).toEqual(['the signature does not match the payload']);
    expect(checkSignedCertificate(signed, { trustedPublicKeyPem: otherKey.publicKeyPem }).problems[0]).toMatch(/not the trusted key/);
    expect(checkSignedCertificate({ ...signed, algorithm: 'RSA' }).ok).toBe(false);
  });

  it('finds any byte of the stored file changed', async () => {
    const signer = await certificateSigner({ dataDir: await tempDir() });
    const text = certificateBytes(signer.sign(payload)).toString('utf8');
    expect(checkCertificateText(text)).toMatchObject({ ok: true, problems: [] });
    for (let i = 0; i < text.length - 1; i++) {
      const code = text.charCodeAt(i);
      const flipped = text.slice(0, i) + String.fromCharCode(code === 0x41 ? 0x42 : code ^ 1) + text.slice(i + 1);
      expect(checkCertificateText(flipped).ok, `byte ${i} changed`).toBe(false);
    }
    expect(checkCertificateText(` ${text}`).ok).toBe(false);
  });
});

describe('npm run verify-certificate (a child process, no server)', () => {
  const root = path.resolve(import.meta.dirname, '../../..');
  const run = (...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'scripts/verify-certificate.mjs', ...args], { cwd: root, encoding: 'utf8' });

  it('passes a certificate and its files, and names what fails', async () => {
    const dir = await tempDir();
    const signer = await certificateSigner({ dataDir: dir });
    const file = path.join(dir, 'certificate.json');
    await fs.writeFile(file, certificateBytes(signer.sign(payload)));
    await fs.mkdir(path.join(dir, 'files', 'Pleadings'), { recursive: true });
    await fs.writeFile(path.join(dir, 'files', 'Pleadings', 'a.pdf'), 'abc');
    await fs.writeFile(path.join(dir, 'key.pem'), signer.publicKeyPem);

    const ok = run(file, '--files', path.join(dir, 'files'), '--public-key', path.join(dir, 'key.pem'));
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(ok.stdout).toContain('OK: the signature holds and every file matches.');
    expect(ok.stdout).toContain('Files checked in');

    await fs.writeFile(path.join(dir, 'files', 'Pleadings', 'a.pdf'), 'abd');
    const badFile = run(file, '--files', path.join(dir, 'files'));
    expect(badFile.status).toBe(1);
    expect(badFile.stderr).toContain('Pleadings/a.pdf: sha256');

    const other = await certificateSigner({ dataDir: await tempDir() });
    await fs.writeFile(path.join(dir, 'other.pem'), other.publicKeyPem);
    const wrongKey = run(file, '--public-key', path.join(dir, 'other.pem'));
    expect(wrongKey.status).toBe(1);
    expect(wrongKey.stderr).toContain('not the trusted key');

    const text = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, text.replace('"size":3', '"size":4'));
    const tampered = run(file);
    expect(tampered.status).toBe(1);
    expect(tampered.stderr).toContain('the signature does not match the payload');

    expect(run().status).toBe(2);
  });
});
