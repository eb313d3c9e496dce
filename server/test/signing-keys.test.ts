/**
 * The installation's keyring: the published list at /.well-known/strongroom-signing-keys (no sign-in), start-up
 * registration (once, however many processes start at once; a newly configured key retires the old one), and
 * the rule that only keys with a write-once record are published or trusted: a key written into the table by
 * whoever can reach the database is neither.
 */
import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { SIGNING_KEYS_PATH, signingKeysResponse, type SigningKeysResponse } from '@strongroom/contracts';
import { certificateSigner, signerOfPem, signingKeyFile } from '../src/platform/signing.js';
import { keyIdOf } from '../src/platform/signing-verify.js';
import {
  publishedSigningKeys,
  registerSigningKey,
  registerSigningKeyAtStart,
  rotateFileSigningKey,
  signingKeyRecordKey,
  signingKeyRetirementKey,
  trustedSigningKey,
} from '../src/platform/signing-keys.js';
import { createTestApp, type TestApp } from './helpers.js';

const newPem = () => generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

async function readRecord(t: TestApp, key: string): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const c of await t.ctx.store.getStream(key)) chunks.push(c as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

async function wellKnown(t: TestApp): Promise<SigningKeysResponse> {
  const res = await t.app.inject({ method: 'GET', url: SIGNING_KEYS_PATH });
  expect(res.statusCode).toBe(200);
  return signingKeysResponse.parse(res.json());
}

/** A second process of the same installation: same database and store, its own configuration. */
function processWith(t: TestApp, signingPrivateKey?: string) {
  return { ...t.ctx, config: { ...t.ctx.config, signingPrivateKey } };
}

describe('GET /.well-known/strongroom-signing-keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.shutdown());

  it('lists nothing before the key is recorded, then the key at start-up, to anyone, cacheable', async () => {
    expect((await wellKnown(t)).keys).toEqual([]);
    const started = await registerSigningKeyAtStart(t.ctx);
    started.stop();
    const signer = await certificateSigner(t.config);

    const res = await t.app.inject({ method: 'GET', url: SIGNING_KEYS_PATH });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers['set-cookie']).toBeUndefined();
    const body = signingKeysResponse.parse(res.json());
    expect(body.keys).toEqual([
      {
        keyId: signer.keyId,
        algorithm: 'Ed25519',
        publicKeyPem: signer.publicKeyPem,
        fingerprint: keyIdOf(signer.publicKeyPem),
        notBefore: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        notAfter: null,
      },
    ]);
    expect(Object.keys(res.json().keys[0]).sort()).toEqual(['algorithm', 'fingerprint', 'keyId', 'notAfter', 'notBefore', 'publicKeyPem']);
    // The write-once record holds the same key and date, under a ten-year COMPLIANCE lock.
    const record = await readRecord(t, signingKeyRecordKey(signer.keyId));
    expect(record).toMatchObject({ keyId: signer.keyId, publicKeyPem: signer.publicKeyPem, notBefore: body.keys[0]!.notBefore });
    const info = await t.ctx.store.vaultInfo(signingKeyRecordKey(signer.keyId));
    expect(info?.lock?.mode).toBe('COMPLIANCE');
    expect(info!.lock!.retainUntil.getTime()).toBeGreaterThan(Date.now() + 9.9 * 365 * 24 * 3600 * 1000);
    expect((await trustedSigningKey(t.ctx, signer.keyId))?.publicKeyPem).toBe(signer.publicKeyPem);
  });

  it('answers 503 with a clear error, never a list it could not confirm, while the store cannot be read', async () => {
    const down = await createTestApp();
    try {
      (await registerSigningKeyAtStart(down.ctx)).stop();
      const spy = vi.spyOn(down.ctx.store, 'getStream').mockRejectedValue(new Error('connect ECONNREFUSED'));
      const res = await down.app.inject({ method: 'GET', url: SIGNING_KEYS_PATH });
      spy.mockRestore();
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('30');
      expect(res.json()).toEqual({
        error: 'The signing keys cannot be read right now. Please try again shortly.',
        code: 'SERVICE_UNAVAILABLE',
      });
      expect((await wellKnown(down)).keys).toHaveLength(1);
    } finally {
      await down.shutdown();
    }
  });

  it('publishes no key that was only written into the table, and trusts none', async () => {
    const intruder = signerOfPem(newPem());
    await sql`insert into signing_keys (key_id, algorithm, public_key_pem, not_before)
              values (${intruder.keyId}, 'Ed25519', ${intruder.publicKeyPem}, now() - interval '1 day')`.execute(t.ctx.db);
    // A key id that is not a hex sha256 never becomes a store path either.
    await sql`insert into signing_keys (key_id, algorithm, public_key_pem, not_before)
              values ('../../etc', 'Ed25519', ${intruder.publicKeyPem}, now())`.execute(t.ctx.db);
    // The genuine key's row rewritten to carry the intruder's public key.
    const genuine = await certificateSigner(t.config);
    await sql`update signing_keys set public_key_pem = ${intruder.publicKeyPem} where key_id = ${genuine.keyId}`.execute(t.ctx.db);

    // A fresh process (nothing cached) reads the table and the store again.
    const fresh = { ...t.ctx, db: t.ctx.db.withTables<Record<string, never>>() as unknown as typeof t.ctx.db };
    expect(await publishedSigningKeys(fresh)).toEqual([]);
    expect(await trustedSigningKey(fresh, intruder.keyId)).toBeNull();
    expect(await trustedSigningKey(fresh, genuine.keyId)).toBeNull();

    // The genuine process repairs its own row at its next start; the intruder's key stays out.
    await registerSigningKey(t.ctx);
    const keys = (await wellKnown(t)).keys;
    expect(keys.map((k) => k.keyId)).toEqual([genuine.keyId]);
    expect(keys[0]!.publicKeyPem).toBe(genuine.publicKeyPem);
  });
  it('trusts at once a key another process recorded a moment ago, though the list is cached for a minute', async () => {
    const cached = await publishedSigningKeys(t.ctx);
    const pem = newPem();
    const next = signerOfPem(pem);
    const otherProcess = {
      ...t.ctx,
      db: t.ctx.db.withTables<Record<string, never>>() as unknown as typeof t.ctx.db,
      config: { ...t.ctx.config, signingPrivateKey: pem },
    };
    expect((await registerSigningKey(otherProcess)).state).toBe('published');
    expect(await publishedSigningKeys(t.ctx)).toEqual(cached);
    expect((await trustedSigningKey(t.ctx, next.keyId))?.publicKeyPem).toBe(next.publicKeyPem);
    expect((await publishedSigningKeys(t.ctx)).map((k) => k.keyId)).toContain(next.keyId);
    expect(await trustedSigningKey(t.ctx, 'f'.repeat(64))).toBeNull();
  });
});

describe('start-up registration and rotation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.shutdown());

  it('several processes starting at once record the key once', async () => {
    const results = await Promise.all([registerSigningKey(t.ctx), registerSigningKey(t.ctx), registerSigningKey(t.ctx)]);
    expect(results.filter((r) => r.state === 'published')).toHaveLength(1);
    expect(results.filter((r) => r.state === 'current')).toHaveLength(2);
    const rows = await t.ctx.db.selectFrom('signingKeys').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.notAfter).toBeNull();
    // Starting again changes nothing.
    expect((await registerSigningKey(t.ctx)).state).toBe('current');
    expect((await wellKnown(t)).keys).toHaveLength(1);
  });

  it('a newly configured SIGNING_PRIVATE_KEY retires the active key at the next starts, once, and the old key stays published', async () => {
    const before = await certificateSigner(t.config);
    const pem = newPem();
    const next = signerOfPem(pem);
    const starts = await Promise.all([1, 2, 3].map(() => registerSigningKey(processWith(t, pem))));
    expect(starts.map((s) => s.keyId)).toEqual([next.keyId, next.keyId, next.keyId]);
    expect(starts.filter((s) => s.state === 'published')).toHaveLength(1);

    const keys = (await wellKnown(t)).keys;
    expect(keys.map((k) => k.keyId)).toEqual([before.keyId, next.keyId]);
    expect(keys[0]!.notAfter).toBe(keys[1]!.notBefore);
    expect(keys[1]!.notAfter).toBeNull();
    const retirement = await readRecord(t, signingKeyRetirementKey(before.keyId, new Date(keys[0]!.notAfter!)));
    expect(retirement).toMatchObject({ keyId: before.keyId, notAfter: keys[0]!.notAfter, successorKeyId: next.keyId });

    // A process still configured with the retired key does not bring it back.
    const stale = await registerSigningKey(t.ctx, before);
    expect(stale.state).toBe('retired');
    expect((await wellKnown(t)).keys).toEqual(keys);
    const trusted = await trustedSigningKey(t.ctx, before.keyId);
    expect(trusted).toEqual({
      publicKeyPem: before.publicKeyPem,
      notBefore: new Date(keys[0]!.notBefore),
      notAfter: new Date(keys[0]!.notAfter!),
    });
  });

  it('rotate-signing-key replaces the key file (0600) and this process signs with the new key', async () => {
    const active = (await wellKnown(t)).keys.at(-1)!;
    const r = await rotateFileSigningKey(t.ctx);
    expect(r.retiredKeyId).toBe(active.keyId);
    const file = signingKeyFile(t.config);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    const signer = await certificateSigner(t.config);
    expect(signer.keyId).toBe(r.keyId);
    expect(r.fingerprint).toBe(keyIdOf(signer.publicKeyPem));
    const keys = (await wellKnown(t)).keys;
    expect(keys.at(-1)).toMatchObject({ keyId: r.keyId, notAfter: null });
    expect(keys.find((k) => k.keyId === r.retiredKeyId)?.notAfter).toBe(keys.at(-1)!.notBefore);
    await expect(rotateFileSigningKey(processWith(t, newPem()))).rejects.toThrow('SIGNING_PRIVATE_KEY');
  });

  it('a table emptied or restored from an old backup is rebuilt from the write-once records', async () => {
    const keysBefore = (await wellKnown(t)).keys;
    const current = keysBefore.at(-1)!;
    await sql`delete from signing_keys`.execute(t.ctx.db);
    const again = await registerSigningKey(t.ctx);
    expect(again.keyId).toBe(current.keyId);
    // The record's notBefore stands, and the table follows it.
    expect(again.notBefore.toISOString()).toBe(current.notBefore);
    const row = await t.ctx.db.selectFrom('signingKeys').selectAll().where('keyId', '=', current.keyId).executeTakeFirstOrThrow();
    expect(row.notBefore.toISOString()).toBe(current.notBefore);
  });
});
