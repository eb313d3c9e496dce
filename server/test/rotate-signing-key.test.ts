/**
 * `npm run admin -- rotate-signing-key` as an operator runs it (the CLI in a child process, embedded database
 * in DATA_DIR, the server stopped): a new key file (0600), the old key retired but still published, one line of
 * JSON; with SIGNING_PRIVATE_KEY set it refuses and says what to do instead.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openPglite } from '../src/platform/db/database.js';
import { signerOfPem } from '../src/platform/signing.js';
import { keyIdOf } from '../src/platform/signing-verify.js';
import { publishedSigningKeys, signingKeyRecordKey } from '../src/platform/signing-keys.js';
import { createBlobStore } from '../src/platform/storage/index.js';

const serverDir = path.resolve(import.meta.dirname, '..');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-rotate-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
const keyFile = path.join(dataDir, 'keys', 'signing-ed25519.pem');

const { SIGNING_PRIVATE_KEY: _unset, ...parentEnv } = process.env;
const run = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: serverDir,
    env: { ...parentEnv, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });

const fileKeyId = () => signerOfPem(fs.readFileSync(keyFile, 'utf8')).keyId;

/** The published list as the server would answer it, read with the CLI stopped. */
async function published() {
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const handle = await openPglite(path.join(dataDir, 'pg'));
  try {
    const store = createBlobStore({ dataDir, appUrl: config.appUrl, signingKey: config.storageSigningKey, s3: config.s3 });
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const keys = await publishedSigningKeys({ config, db: handle.db, store, log: log as never });
    return { keys, store };
  } finally {
    await handle.close();
  }
}

/** Each test starts the admin CLI (a fresh Node process) several times: slow on a loaded 2-core machine. */
const CLI_RUNS_TIMEOUT = 180_000;

describe('npm run admin -- rotate-signing-key', () => {
  it(
    'replaces the key in DATA_DIR, retires the old key and keeps it published',
    async () => {
      const first = run(['rotate-signing-key']);
      expect(first.stderr).toBe('');
      expect(first.status).toBe(0);
      const lines = first.stdout.trim().split('\n');
      expect(lines).toHaveLength(1);
      const one = JSON.parse(lines[0]!) as { retiredKeyId: string; keyId: string; fingerprint: string };
      expect(Object.keys(one).sort()).toEqual(['fingerprint', 'keyId', 'retiredKeyId']);
      expect(one.keyId).toBe(fileKeyId());
      expect(one.fingerprint).toBe(one.keyId);
      expect(one.retiredKeyId).not.toBe(one.keyId);
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      expect(fs.readdirSync(path.dirname(keyFile)).filter((f) => f.endsWith('.tmp'))).toEqual([]);

      const second = run(['rotate-signing-key']);
      expect(second.status).toBe(0);
      const two = JSON.parse(second.stdout) as { retiredKeyId: string; keyId: string };
      expect(two.retiredKeyId).toBe(one.keyId);

      const { keys, store } = await published();
      expect(keys.map((k) => k.keyId)).toEqual([one.retiredKeyId, one.keyId, two.keyId]);
      expect(keys.map((k) => k.notAfter === null)).toEqual([false, false, true]);
      expect(keys[0]!.notAfter).toBe(keys[1]!.notBefore);
      expect(keys[1]!.notAfter).toBe(keys[2]!.notBefore);
      for (const k of keys) {
        expect(k.fingerprint).toBe(keyIdOf(k.publicKeyPem));
        expect((await store.vaultInfo(signingKeyRecordKey(k.keyId)))?.lock?.mode).toBe('COMPLIANCE');
      }
    },
    CLI_RUNS_TIMEOUT,
  );

  it(
    'with SIGNING_PRIVATE_KEY set: refuses, says how to rotate, and changes nothing',
    async () => {
      const before = fileKeyId();
      const pem = run(['rotate-signing-key', '--print-new-key']);
      expect(pem.status).toBe(0);
      expect(pem.stdout).toMatch(/^-----BEGIN PRIVATE KEY-----\n[\s\S]+\n-----END PRIVATE KEY-----\n$/);
      const fresh = signerOfPem(pem.stdout);
      expect(pem.stderr).toContain(`fingerprint: ${fresh.keyId}`);

      const r = run(['rotate-signing-key'], { SIGNING_PRIVATE_KEY: pem.stdout });
      expect(r.status).toBe(78);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('Set SIGNING_PRIVATE_KEY to a new Ed25519 key');
      expect(r.stderr).toContain('--print-new-key');
      expect(r.stderr).toContain('the next start retires the old key');
      expect(fileKeyId()).toBe(before);
      expect((await published()).keys.map((k) => k.keyId)).not.toContain(fresh.keyId);

      expect(run(['rotate-signing-key', '--now']).status).toBe(64);
    },
    CLI_RUNS_TIMEOUT,
  );
});
