/**
 * Prometheus metrics as a firm's monitoring sees them: GET /metrics on the main port behind METRICS_TOKEN, or on a
 * port of its own (METRICS_PORT); requests counted by route pattern (never the URL with its ids); uploads, vault
 * transfers and verifications, throttle refusals and job queues counted where they happen.
 */
import fs from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAllChainHeads, signingHeadAges } from '../src/features/audit/index.js';
import { currentTotp } from '../src/features/mfa/index.js';
import { VAULT_TRANSFER_JOB, vaultObjectKey } from '../src/features/vault/vault-transfer.jobs.js';
import { runVaultVerification, VAULT_VERIFY_JOB } from '../src/features/vault/vault-verification.jobs.js';
import type { LocalBlobStore } from '../src/platform/storage/local-store.js';
import { loadConfig } from '../src/config.js';
import { startWorker } from '../src/worker-runtime.js';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { createMatter, newOrganizationWithTotp, ok, uploadFile, type TotpMember } from './factories.js';
import { Client, createTestApp, type TestApp } from './helpers.js';

const TOKEN = 'metrics-token-for-the-test-0123456789abcdef';

/** The value of one sample: the metric `name` with at least these labels (0 when the series does not exist yet). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return 0;
}

async function listen(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}

describe('GET /metrics behind METRICS_TOKEN', () => {
  let t: TestApp;
  let base: string;
  let admin: TotpMember;
  const scrape = async () => {
    const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    return res.text();
  };

  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN, JOB_RUNNER: 'off' });
    base = await listen(t);
    admin = await newOrganizationWithTotp(t, 'Metrics & Co');
  });
  afterAll(() => t.shutdown());

  it('refuses a scrape without the token or with another (401), and serves the text format with it', async () => {
    const none = await fetch(`${base}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(await none.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    const wrong = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    expect((await wrong.text()).includes('strongroom_')).toBe(false);
    const basic = await fetch(`${base}/metrics`, { headers: { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` } });
    expect(basic.status).toBe(401);

    const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(text).toContain('# TYPE strongroom_http_request_duration_seconds histogram');
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(sample(text, 'strongroom_db_pool_max_connections')).toBeGreaterThanOrEqual(1);
  });

  it('counts requests by route pattern and status class, never by the URL with its ids', async () => {
    const labels = { method: 'GET', route: '/_api/matters/list', status_class: '2xx' };
    const before = sample(await scrape(), 'strongroom_http_request_duration_seconds_count', labels);
    for (let i = 0; i < 3; i++) ok(await admin.client.get('/_api/matters/list'));
    const after = await scrape();
    expect(sample(after, 'strongroom_http_request_duration_seconds_count', labels)).toBe(before + 3);
    // A histogram as Prometheus reads it: cumulative buckets ending in +Inf, which holds every request.
    const bucket = (le: string) => sample(after, 'strongroom_http_request_duration_seconds_bucket', { ...labels, le });
    expect(bucket('+Inf')).toBe(before + 3);
    expect(bucket('0.005')).toBeLessThanOrEqual(bucket('30'));
    expect(bucket('30')).toBeLessThanOrEqual(bucket('+Inf'));
    expect(sample(after, 'strongroom_http_request_duration_seconds_sum', labels)).toBeGreaterThan(0);

    // An upload's PUT names the organization and the object in its URL; the label is the route's pattern.
    const matter = await createMatter(admin.client, { matterName: 'Counted Matter' });
    const file = await uploadFile(t, admin.client, matter.id, 'counted.pdf', randomBytes(100));
    const stranger = crypto.randomUUID();
    await fetch(`${base}/_api/no-such-call/${stranger}`);
    const text = await scrape();
    expect(
      sample(text, 'strongroom_http_request_duration_seconds_count', { method: 'PUT', route: '/_objects/*', status_class: '2xx' }),
    ).toBeGreaterThanOrEqual(1);
    for (const secret of [admin.organizationId, matter.id, file.id, file.storagePath, stranger, admin.email]) {
      expect(text.includes(secret), `${secret} in the metrics`).toBe(false);
    }
  });

  it('counts the bytes of completed uploads, vault transfers and verifications by result', async () => {
    const before = await scrape();
    const contents = [randomBytes(70_000), randomBytes(1234)];
    const matter = await createMatter(admin.client, { matterName: 'Vaulted Matter' });
    const files = [
      await uploadFile(t, admin.client, matter.id, 'a.pdf', contents[0]!),
      await uploadFile(t, admin.client, matter.id, 'b.pdf', contents[1]!),
    ];
    await t.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', admin.userId).execute();
    ok(await admin.client.post('/_api/vault/start', { matterId: matter.id, retentionYears: 3, mfaToken: currentTotp(admin.totpSecret) }));
    expect(await t.ctx.jobs.runDueJobs([VAULT_TRANSFER_JOB])).toEqual({ completed: 1, failed: 0 });
    expect(await runVaultVerification(t.ctx, { force: true })).toMatchObject({ checked: 2, failed: 0 });

    // A byte changed behind the app: the next verification of that object fails.
    const file = (t.ctx.store as LocalBlobStore).objectPath(vaultObjectKey(admin.organizationId, matter.id, files[0]!.id));
    await fs.chmod(file, 0o644);
    const tampered = Buffer.from(contents[0]!);
    tampered[0] = tampered[0]! ^ 0x01;
    await fs.writeFile(file, tampered);
    await fs.chmod(file, 0o400);
    expect(await runVaultVerification(t.ctx, { force: true })).toMatchObject({ checked: 2, failed: 1 });

    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) => sample(after, name, labels) - sample(before, name, labels);
    expect(moved('strongroom_upload_bytes_total')).toBe(70_000 + 1234);
    expect(moved('strongroom_uploads_completed_total')).toBe(2);
    expect(moved('strongroom_vault_transfers_total', { result: 'completed' })).toBe(1);
    expect(moved('strongroom_vault_transfers_total', { result: 'failed' })).toBe(0);
    expect(moved('strongroom_vault_verifications_total', { result: 'ok' })).toBe(3);
    expect(moved('strongroom_vault_verifications_total', { result: 'failed' })).toBe(1);
  });

  it('reads how far the signing of audit chain heads is behind', async () => {
    // The organization's entries are not signed yet: the oldest of them waits.
    const waiting = await signingHeadAges(t.ctx);
    expect(waiting.oldestUnsignedSeconds).toBeGreaterThanOrEqual(0);
    await signAllChainHeads(t.ctx, 'manual');
    const signed = await signingHeadAges(t.ctx);
    expect(signed.oldestUnsignedSeconds).toBeNull();
    expect(signed.newestSignedSeconds).toBeGreaterThanOrEqual(0);
    expect(signed.newestSignedSeconds).toBeLessThan(3600);
  });

  it('counts a throttle refusal under the limiter that refused it', async () => {
    const labels = { limiter: 'login-account' };
    const before = sample(await scrape(), 'strongroom_throttle_refusals_total', labels);
    const c = new Client(t.app, '203.0.113.77');
    const email = 'nobody-here@metrics.example';
    let refused = 0;
    for (let i = 0; i < 11; i++) {
      const res = await c.post('/_api/auth/login_with_password', { email, password: 'wrong password' });
      if (res.statusCode === 429) refused += 1;
    }
    expect(refused).toBe(1);
    const text = await scrape();
    expect(sample(text, 'strongroom_throttle_refusals_total', labels)).toBe(before + 1);
    expect(text.includes(email)).toBe(false);
    expect(text.includes('203.0.113.77')).toBe(false);
  });
});

describe('GET /metrics on METRICS_PORT', () => {
  let t: TestApp;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp({ METRICS_PORT: '0', JOB_RUNNER: 'off' });
    base = await listen(t);
  });
  afterAll(() => t.shutdown());

  it('is not on the main port, and is on its own port, which serves nothing else', async () => {
    expect(t.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect((await fetch(`${base}/metrics`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    const other = new URL('/healthz', t.metricsUrl);
    expect((await fetch(other)).status).toBe(404);
    expect((await fetch(t.metricsUrl!, { method: 'POST' })).status).toBe(405);
  });

  it('reports the depth and age of each job queue, with an enqueued job counted', async () => {
    // The first scrape of this process: the queue figures are read now, after the jobs were enqueued.
    await t.ctx.jobs.enqueue(t.ctx.db, VAULT_VERIFY_JOB, { force: false });
    await t.ctx.jobs.enqueue(t.ctx.db, VAULT_VERIFY_JOB, { force: false }, { startAfterSeconds: 3600 });
    const res = await fetch(t.metricsUrl!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const queue = { queue: VAULT_VERIFY_JOB };
    expect(sample(text, 'strongroom_job_queue_waiting', queue)).toBe(1);
    expect(sample(text, 'strongroom_job_queue_deferred', queue)).toBe(1);
    expect(sample(text, 'strongroom_job_queue_active', queue)).toBe(0);
    expect(sample(text, 'strongroom_job_queue_oldest_waiting_seconds', queue)).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'strongroom_job_queue_waiting', { queue: VAULT_TRANSFER_JOB })).toBe(0);
    expect(text).toContain('strongroom_db_pool_connections ');
    expect(text).toContain('strongroom_db_pool_waiting_requests 0');
    expect(text).toContain('strongroom_audit_oldest_unsigned_entry_age_seconds ');
  });
});

// PGlite belongs to the one app process: workers run beside app servers on PostgreSQL only.
if (process.env.TEST_DB_KIND === 'postgres') {
  describe('a worker with METRICS_PORT', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ JOB_RUNNER: 'off' });
    });
    afterAll(() => t.shutdown());

    it('serves its own metrics on that port, and stops serving them when it stops', async () => {
      const config = { ...t.config, metrics: { port: 0, host: '127.0.0.1' } };
      const log = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;
      const worker = await startWorker({ config, log, database: t.database, migrate: false });
      const url = worker.metricsUrl!;
      try {
        const res = await fetch(url);
        expect(res.status).toBe(200);
        const text = await res.text();
        expect(text).toContain(`strongroom_job_queue_waiting{queue="${VAULT_VERIFY_JOB}"}`);
        expect(text).toContain('strongroom_db_pool_max_connections');
      } finally {
        await worker.close();
      }
      await expect(fetch(url)).rejects.toThrow();
    });
  });
}

describe('the metrics configuration', () => {
  it('refuses a short token and a port that is not a port, naming the variable', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'too-short' })).toThrow(/METRICS_TOKEN: must be at least 32 characters/);
    expect(() => loadConfig({ METRICS_PORT: 'ninety' })).toThrow(/METRICS_PORT/);
    expect(loadConfig({ METRICS_PORT: '9464' }).metrics).toEqual({ port: 9464, host: '127.0.0.1', token: undefined });
  });
});

describe('without METRICS_TOKEN or METRICS_PORT', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ JOB_RUNNER: 'off' });
  });
  afterAll(() => t.shutdown());

  it('answers 404 on the main port, token or not', async () => {
    expect(t.metricsUrl).toBeUndefined();
    const res = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
