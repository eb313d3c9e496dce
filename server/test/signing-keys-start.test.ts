/**
 * Start-up registration in real processes (`node src/main.ts`, and the worker on PostgreSQL): the first start
 * publishes the key it made in DATA_DIR; the next start with a new SIGNING_PRIVATE_KEY retires it and publishes
 * the new one, once, however many processes start together; the retired key stays published.
 */
import { spawn } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { SIGNING_KEYS_PATH, signingKeysResponse } from '@strongroom/contracts';
import { signerOfPem } from '../src/platform/signing.js';
import { freePort } from './factories.js';
import { cleanUp, serverSetup, startServer, storedKeys } from './process-helpers.js';

const onPostgres = process.env.TEST_DB_KIND === 'postgres';
const serverDir = path.resolve(import.meta.dirname, '..');

afterAll(cleanUp);

async function published(base: string) {
  const res = await fetch(base + SIGNING_KEYS_PATH);
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('public, max-age=300');
  return signingKeysResponse.parse(await res.json()).keys;
}

/** The worker process; resolves once it says it is running. */
function startWorkerProcess(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: serverDir,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const running = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the worker did not start:\n${out}`)), 60_000);
    child.stdout.on('data', () => {
      if (out.includes('Strongroom worker is running')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', () => reject(new Error(`the worker exited:\n${out}`)));
  });
  return { child, running, exited, output: () => out };
}

it('publishes the key at start and retires it when a new SIGNING_PRIVATE_KEY is configured', async () => {
  const { dataDir, base, env } = await serverSetup();
  const first = startServer(env);
  await first.waitFor('Strongroom is ready');
  const fileKey = signerOfPem(fs.readFileSync(path.join(dataDir, 'keys', 'signing-ed25519.pem'), 'utf8'));
  const before = await published(base);
  expect(before).toEqual([expect.objectContaining({ keyId: fileKey.keyId, publicKeyPem: fileKey.publicKeyPem, notAfter: null })]);
  expect(storedKeys(dataDir)).toContain(`vault/signing-keys/${fileKey.keyId}.json`);
  first.child.kill('SIGTERM');
  await first.exited;

  const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const next = signerOfPem(pem);
  const withKey = { ...env, SIGNING_PRIVATE_KEY: pem };
  // Several processes of the installation start at once with the new key (one process owns an embedded database).
  const servers = [startServer(withKey)];
  const workers = [];
  if (onPostgres) {
    servers.push(startServer({ ...withKey, PORT: String(await freePort()) }));
    workers.push(startWorkerProcess(withKey));
  }
  await Promise.all([...servers.map((s) => s.waitFor('Strongroom is ready')), ...workers.map((w) => w.running)]);

  const after = await published(base);
  expect(after.map((k) => k.keyId)).toEqual([fileKey.keyId, next.keyId]);
  expect(after[0]!.notBefore).toBe(before[0]!.notBefore);
  expect(after[0]!.notAfter).toBe(after[1]!.notBefore);
  expect(after[1]!.notAfter).toBeNull();
  const records = storedKeys(dataDir).filter((k) => k.startsWith('vault/signing-keys/'));
  expect(records.sort()).toEqual(
    [
      `vault/signing-keys/${fileKey.keyId}.json`,
      `vault/signing-keys/${next.keyId}.json`,
      `vault/signing-keys/${fileKey.keyId}.retired-${after[0]!.notAfter!.replace(/[-:]/g, '')}.json`,
    ].sort(),
  );
  for (const s of [...servers, ...workers]) expect(s.output()).not.toMatch(/"level":50/);
  for (const w of workers) {
    w.child.kill('SIGTERM');
    await w.exited;
  }
}, 180_000);
