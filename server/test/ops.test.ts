import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logOptions } from '../src/app.js';
import { createTestApp, type TestApp } from './helpers.js';

let t: TestApp;
const lines: string[] = [];
beforeAll(async () => {
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-web-'));
  fs.mkdirSync(path.join(webDist, 'assets'));
  fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(webDist, 'assets', 'app-abc123.js'), 'console.log(1)');
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk));
      cb();
    },
  });
  t = await createTestApp({}, { webDist, loggerInstance: pino(logOptions('info'), stream) });
});
afterAll(() => t.shutdown());

describe('operations', () => {
  it('answers liveness and readiness with the database and object store checked', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    // The local store enforces write-once itself: the vault check is ok.
    expect(ready.json()).toEqual({ status: 'ready', checks: { database: 'ok', objectStore: 'ok', vault: 'ok' } });
  });

  it('serves the OpenAPI document generated from the contracts', async () => {
    const doc = (await t.app.inject('/_api/openapi.json')).json();
    expect(doc.openapi).toBe('3.1.0');
    const login = doc.paths['/_api/auth/login_with_password'].post;
    expect(login.requestBody.content['application/json'].schema.required).toEqual(['email', 'password']);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/_api/auth/session',
        '/_api/settings/mfa-manage',
        '/_api/settings/users/invite',
        '/_api/security/event-log',
      ]),
    );
  });

  it('sends security headers and never caches API answers', async () => {
    const r = await t.app.inject('/_api/auth/session');
    expect(r.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(r.headers['content-security-policy']).toContain("script-src 'self'");
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers['cache-control']).toBe('no-store');
  });

  it('answers an unknown API path and broken JSON with a 4xx, never a 5xx', async () => {
    const r = await t.app.inject({ method: 'POST', url: '/_api/nothing-here', payload: {} });
    expect(r.statusCode).toBe(404);
    expect(r.json().code).toBe('NOT_FOUND');
    const broken = await t.app.inject({
      method: 'POST',
      url: '/_api/auth/login_with_password',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(broken.statusCode).toBe(400);
    const huge = await t.app.inject({
      method: 'POST',
      url: '/_api/auth/login_with_password',
      payload: { email: 'a@b.co', password: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(huge.statusCode).toBe(413);
  });

  it('serves client routes with the app shell and hashed assets as immutable', async () => {
    for (const url of ['/', '/login', '/matters', '/password-reset?token=abc', '/no/such/page']) {
      const r = await t.app.inject(url);
      expect(r.statusCode).toBe(200);
      expect(r.body).toContain('<div id="root">');
      expect(r.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    }
    const asset = await t.app.inject('/assets/app-abc123.js');
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await t.app.inject('/assets/missing.js')).statusCode).toBe(404);
    expect((await t.app.inject('/_api/unknown')).statusCode).toBe(404);
  });

  it('keeps codes, tokens and cookies out of the logs', async () => {
    await t.app.inject({ method: 'GET', url: '/password-reset?token=SECRET-RESET-TOKEN', headers: { cookie: 'sr_session=SECRET-COOKIE' } });
    await t.app.inject({
      method: 'POST',
      url: '/_api/auth/mfa-verify-email',
      headers: { cookie: 'sr_pending=SECRET-PENDING' },
      payload: { userId: 1, token: '987654' },
    });
    const all = lines.join('\n');
    expect(all).toContain('/password-reset?token=[REDACTED]');
    expect(all).not.toContain('SECRET-RESET-TOKEN');
    expect(all).not.toContain('SECRET-COOKIE');
    expect(all).not.toContain('SECRET-PENDING');
    expect(all).not.toContain('987654');
  });
});
