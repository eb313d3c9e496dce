import Fastify, { type FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { newOrganizationWithTotp, type TotpMember } from '../../../test/factories.js';
import type { AppContext } from '../../shared/context.js';
import { currentTotp } from '../mfa/index.js';
import { registerAccessGuard, stepUpTokenOf } from './index.js';

const requestWith = (parts: { header?: string; body?: unknown; query?: unknown }) =>
  ({ headers: parts.header === undefined ? {} : { 'x-mfa-token': parts.header }, body: parts.body, query: parts.query }) as FastifyRequest;

describe('the step-up code of a request', () => {
  it('is read once: the X-MFA-Token header first, then the body, then the query', () => {
    expect(stepUpTokenOf(requestWith({ header: 'H', body: { mfaToken: 'B' }, query: { mfaToken: 'Q' } }))).toBe('H');
    expect(stepUpTokenOf(requestWith({ body: { mfaToken: 'B' }, query: { mfaToken: 'Q' } }))).toBe('B');
    expect(stepUpTokenOf(requestWith({ query: { mfaToken: 'Q' } }))).toBe('Q');
    // An empty header or field is no code at all.
    expect(stepUpTokenOf(requestWith({ header: '', body: { mfaToken: '' }, query: { mfaToken: 'Q' } }))).toBe('Q');
    expect(stepUpTokenOf(requestWith({}))).toBeUndefined();
  });
});

describe('route declarations', () => {
  it('are required of every /_api route: one without is refused when it is added', () => {
    const app = Fastify();
    registerAccessGuard(app, {} as AppContext);
    expect(() => app.get('/_api/undeclared', async () => ({}))).toThrow('GET /_api/undeclared declares no access');
  });

  it('make a public or optional route say why', () => {
    const app = Fastify();
    registerAccessGuard(app, {} as AppContext);
    expect(() => app.get('/_api/open', { config: { access: { who: 'public', why: '' } } }, async () => ({}))).toThrow(
      'a public route says why',
    );
  });

  it('are kept in app.routeAccess, keyed by method and path', async () => {
    const app = Fastify();
    registerAccessGuard(app, {} as AppContext);
    app.post('/_api/thing', { config: { access: { who: 'signed-in', allow: 'admin' } } }, async () => ({}));
    await app.ready();
    expect(app.routeAccess.get('POST /_api/thing')).toEqual({ who: 'signed-in', allow: 'admin' });
  });
});

describe('the step-up, end to end', () => {
  let t: TestApp;
  let admin: TotpMember;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await newOrganizationWithTotp(t, 'Precedence LLP');
  });
  afterAll(() => t.shutdown());

  const code = async () => {
    await t.ctx.db.updateTable('users').set({ totpLastUsedStep: null }).where('id', '=', admin.userId).execute();
    return currentTotp(admin.totpSecret);
  };

  it('takes the header over the body: a good header code with a wrong body code goes through', async () => {
    const res = await admin.client.post(
      '/_api/settings/retention',
      { defaultRetentionYears: 9, mfaToken: '000000' },
      { 'x-mfa-token': await code() },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().defaultRetentionYears).toBe(9);
  });

  it('and a wrong header code is not rescued by a good one in the body', async () => {
    const res = await admin.client.post(
      '/_api/settings/retention',
      { defaultRetentionYears: 8, mfaToken: await code() },
      { 'x-mfa-token': '000000' },
    );
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('MFA_INVALID');
    const now = await admin.client.get('/_api/settings/retention');
    expect(now.json().defaultRetentionYears).toBe(9);
    await t.ctx.db.deleteFrom('authThrottle').execute();
  });

  it('asks for nothing while the organization has turned the route’s flag off', async () => {
    await t.ctx.db
      .updateTable('featureFlags')
      .set({ enabled: false })
      .where('organizationId', '=', admin.organizationId)
      .where('flagName', '=', 'MFA_RETENTION_POLICIES')
      .execute();
    const res = await admin.client.post('/_api/settings/retention', { defaultRetentionYears: 7 });
    expect(res.statusCode, res.body).toBe(200);
    // A route whose step-up has no flag still asks: vaulting is never done on a session alone.
    const vault = await admin.client.post('/_api/vault/start', { matterId: crypto.randomUUID(), retentionYears: 7 });
    expect(vault.statusCode).not.toBe(200);
  });
});
