import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type BuiltApp } from '../../app.js';
import { loadConfig } from '../../config.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { createMatter, newOrganization, ok, uploadFile, type Member } from '../../../test/factories.js';
import * as securityHeaders from './security-headers.js';

// Count how often the header set is worked out: once per app build, never per request. Test files may share
// their modules (the server suites run without isolation), so this file starts from fresh modules for the
// mock to reach the app it builds.
vi.hoisted(() => vi.resetModules());
vi.mock('./security-headers.js', async (importOriginal) => {
  const real = await importOriginal<typeof securityHeaders>();
  return { ...real, buildSecurityHeaders: vi.fn(real.buildSecurityHeaders) };
});

/**
 * The security headers Strongroom sent before they were built once per app (what @fastify/helmet 13.2 / helmet 8.3
 * produced from the app's former configuration, recorded from its answers): they must not change.
 */
const CSP_HTTP =
  "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;font-src 'self' data:;connect-src 'self';object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'";
const HELMET_HTTP: Record<string, string> = {
  'content-security-policy': CSP_HTTP,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};
/** Over https with an S3 endpoint: HSTS, the endpoint's origin in connect-src, upgrade-insecure-requests. */
const HELMET_HTTPS_S3 = {
  ...HELMET_HTTP,
  'content-security-policy':
    "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;font-src 'self' data:;connect-src 'self' http://127.0.0.1:9000;object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none';upgrade-insecure-requests",
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
} satisfies Record<string, string>;

/** Every header of an answer but the two that change with each request and connection. */
function headersOf(r: LightMyRequestResponse): Record<string, unknown> {
  const { date: _date, connection: _connection, ...rest } = r.headers;
  return rest;
}

const SHELL =
  '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>';
/** A login chunk as big as a real one (compressible text), and the small theme script beside index.html. */
const LOGIN_JS = Buffer.from(
  Array.from({ length: 400 }, (_, i) => `export const field${i} = { label: "Email address ${i}", required: true };\n`).join(''),
);
const THEME_JS = Buffer.from('document.documentElement.dataset.theme = localStorage.theme ?? "light";\n');

/** A web build as the Vite build writes it: hashed assets with .br and .gz beside the files worth compressing. */
function webBuild(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), SHELL);
  fs.writeFileSync(path.join(dir, 'theme-init.js'), THEME_JS);
  const login = path.join(dir, 'assets', 'login-page-abc123.js');
  fs.writeFileSync(login, LOGIN_JS);
  fs.writeFileSync(`${login}.br`, zlib.brotliCompressSync(LOGIN_JS));
  fs.writeFileSync(`${login}.gz`, zlib.gzipSync(LOGIN_JS, { level: 9 }));
  return dir;
}

let t: TestApp;
let webDist: string;

/** Another app on the same database and data folder, with its own settings (no second test database to drop). */
async function anotherApp(env: Record<string, string> = {}): Promise<BuiltApp> {
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: t.dataDir,
    SMTP_URL: t.config.smtpUrl!,
    LOG_LEVEL: 'silent',
    APP_URL: 'http://localhost:3000',
    JOB_RUNNER: 'off',
    ...env,
  });
  const built = await buildApp({ config, database: t.database, migrate: false, logger: false });
  await built.app.ready();
  return built;
}

let admin: Member;
beforeAll(async () => {
  webDist = webBuild();
  t = await createTestApp({ JOB_RUNNER: 'off' }, { webDist });
  admin = await newOrganization(t, 'Compress & Co');
});
afterAll(async () => {
  await t.shutdown();
  fs.rmSync(webDist, { recursive: true, force: true });
});

describe('security headers', () => {
  it('sends exactly the former headers on API calls, health checks, the app shell, assets and refusals', async () => {
    const session = await t.app.inject('/_api/auth/session');
    expect(session.statusCode).toBe(401);
    expect(headersOf(session)).toEqual({
      ...HELMET_HTTP,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'x-api-version': 'v1.0.0',
      'content-length': String(session.rawPayload.length),
    });

    const health = await t.app.inject('/healthz');
    expect(headersOf(health)).toEqual({
      ...HELMET_HTTP,
      'content-type': 'application/json; charset=utf-8',
      'x-api-version': 'v1.0.0',
      'content-length': '15',
    });

    const shell = await t.app.inject({ url: '/login', headers: { 'accept-encoding': 'br, gzip' } });
    expect(shell.body).toBe(SHELL);
    expect(headersOf(shell)).toEqual({
      ...HELMET_HTTP,
      'content-type': 'text/html',
      'cache-control': 'no-cache',
      'x-api-version': 'v1.0.0',
      'content-length': String(Buffer.byteLength(SHELL)),
    });

    // Refused before any route runs (a cross-site call) and answered by no route: the same headers.
    const crossSite = await t.app.inject({ url: '/_api/auth/session', headers: { 'sec-fetch-site': 'cross-site' } });
    expect(crossSite.statusCode).toBe(403);
    const unknown = await t.app.inject('/_api/no-such-call');
    expect(unknown.statusCode).toBe(404);
    const asset = await t.app.inject('/assets/login-page-abc123.js');
    for (const r of [crossSite, unknown, asset]) {
      for (const [name, value] of Object.entries(HELMET_HTTP)) expect(r.headers[name], `${r.raw.req.url} ${name}`).toBe(value);
      expect(r.headers['strict-transport-security']).toBeUndefined();
      expect(r.headers['x-powered-by']).toBeUndefined();
    }
  });

  it('works the headers out once per app, not per request', async () => {
    const build = vi.mocked(securityHeaders.buildSecurityHeaders);
    const before = build.mock.calls.length;
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => t.app.inject(i % 2 ? '/healthz' : '/_api/auth/session')));
    expect(answers.every((r) => r.headers['content-security-policy'] === CSP_HTTP)).toBe(true);
    expect(build.mock.calls.length).toBe(before);

    const other = await anotherApp();
    try {
      expect(build.mock.calls.length).toBe(before + 1);
      await Promise.all(Array.from({ length: 10 }, () => other.app.inject('/healthz')));
      expect(build.mock.calls.length).toBe(before + 1);
    } finally {
      await other.close();
    }
  });

  it('over https with S3 sends HSTS, the endpoint in connect-src and upgrade-insecure-requests', async () => {
    const secure = await anotherApp({
      APP_URL: 'https://archive.firm.test',
      S3_BUCKET: 'archive',
      S3_ENDPOINT: 'http://127.0.0.1:9000/ignored-path',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
    });
    try {
      const health = await secure.app.inject('/healthz');
      expect(headersOf(health)).toEqual({
        ...HELMET_HTTPS_S3,
        'content-type': 'application/json; charset=utf-8',
        'x-api-version': 'v1.0.0',
        'content-length': '15',
      });
    } finally {
      await secure.close();
    }
    // S3 on AWS itself (no endpoint): any amazonaws.com host may be called.
    const aws = Object.fromEntries(
      securityHeaders.buildSecurityHeaders({ secureCookies: true, s3: { region: 'eu-west-1', bucket: 'archive', forcePathStyle: false } }),
    );
    expect(aws['Content-Security-Policy']).toBe(
      HELMET_HTTPS_S3['content-security-policy'].replace('http://127.0.0.1:9000', 'https://*.amazonaws.com'),
    );
    expect(aws['Strict-Transport-Security']).toBe('max-age=31536000; includeSubDomains');
  });
});

describe('compressed answers', () => {
  it('serves the web build pre-compressed: brotli or gzip as accepted, the file itself otherwise, always with Vary', async () => {
    const url = '/assets/login-page-abc123.js';
    const br = await t.app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(Number(br.headers['content-length'])).toBe(br.rawPayload.length);
    expect(br.rawPayload.length).toBeLessThan(LOGIN_JS.length / 5);
    expect(zlib.brotliDecompressSync(br.rawPayload).equals(LOGIN_JS)).toBe(true);

    const gz = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['content-type']).toBe('application/javascript; charset=utf-8');
    expect(gz.headers.vary).toBe('accept-encoding');
    expect(zlib.gunzipSync(gz.rawPayload).equals(LOGIN_JS)).toBe(true);

    // The client's preference order counts.
    const preferGzip = await t.app.inject({ url, headers: { 'accept-encoding': 'br;q=0.5, gzip' } });
    expect(preferGzip.headers['content-encoding']).toBe('gzip');

    for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'deflate' }]) {
      const plain = await t.app.inject({ url, headers });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(plain.headers.vary).toBe('accept-encoding');
      expect(plain.rawPayload.equals(LOGIN_JS)).toBe(true);
      expect(plain.headers['content-length']).toBe(String(LOGIN_JS.length));
    }

    // A file without compressed copies (too small to gain) is sent as it is, outside assets/ too.
    const theme = await t.app.inject({ url: '/theme-init.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(theme.statusCode).toBe(200);
    expect(theme.headers['content-encoding']).toBeUndefined();
    expect(theme.rawPayload.equals(THEME_JS)).toBe(true);
  });

  it('compresses large /_api JSON answers when asked, and nothing when not asked or small', async () => {
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        createMatter(admin.client, {
          matterName: `Share purchase agreement ${i}`,
          description: 'Completion accounts and the escrow '.repeat(4),
        }),
      ),
    );
    const plain = await admin.client.get('/_api/matters/list');
    const list = ok(plain);
    expect(list.matters.length).toBeGreaterThanOrEqual(12);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(Number(plain.headers['content-length'])).toBe(plain.rawPayload.length);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await admin.client.get('/_api/matters/list', { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toBe('accept-encoding');
    expect(br.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(br.headers['cache-control']).toBe('no-store');
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(list);

    const gz = await admin.client.get('/_api/matters/list', { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString())).toEqual(list);

    // The OpenAPI document (tens of KB, past the size compressed inline) streams out compressed.
    const doc = await t.app.inject({ url: '/_api/openapi.json', headers: { 'accept-encoding': 'br' } });
    expect(doc.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(doc.rawPayload).toString()).openapi).toBe('3.1.0');

    // Small answers, and answers outside /_api, are sent as they are.
    const session = await admin.client.get('/_api/auth/session', { 'accept-encoding': 'br, gzip', 'x-api-version': 'v1.0.0' });
    expect(session.statusCode).toBe(200);
    expect(session.rawPayload.length).toBeLessThan(1024);
    expect(session.headers['content-encoding']).toBeUndefined();
    const health = await t.app.inject({ url: '/healthz', headers: { 'accept-encoding': 'br, gzip' } });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json()).toEqual({ status: 'ok' });
  });

  it('never compresses object downloads: exact bytes, length and ranges, even for text files such as CSV', async () => {
    const m = await createMatter(admin.client);
    const bytes = Buffer.from(
      ['clause,text', ...Array.from({ length: 300 }, (_, i) => `${i},"Clause ${i}: the vendor warrants title."`)].join('\r\n'),
    );
    const f = await uploadFile(t, admin.client, m.id, 'clauses.csv', bytes, null, 'text/csv');
    const link = new URL(ok(await admin.client.get(`/_api/nodes/download-url?nodeId=${f.id}`)).url);
    const url = link.pathname + link.search;

    const whole = await t.app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(whole.headers['content-type']).toBe('text/csv');
    expect(whole.headers['content-length']).toBe(String(bytes.length));
    expect(whole.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(whole.rawPayload.equals(bytes)).toBe(true);

    const part = await t.app.inject({ url, headers: { 'accept-encoding': 'br, gzip', range: 'bytes=100-1099' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.headers['content-range']).toBe(`bytes 100-1099/${bytes.length}`);
    expect(part.headers['content-length']).toBe('1000');
    expect(part.rawPayload.equals(bytes.subarray(100, 1100))).toBe(true);

    const tail = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip', range: 'bytes=-10' } });
    expect(tail.statusCode).toBe(206);
    expect(tail.rawPayload.equals(bytes.subarray(bytes.length - 10))).toBe(true);
  });
});
