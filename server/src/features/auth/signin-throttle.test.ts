import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@strongroom/contracts';
import { ConfigError, loadConfig } from '../../config.js';
import { Client, createOrgWithAdmin, createTestApp, type Account, type TestApp } from '../../../test/helpers.js';

describe('password throttles under concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.shutdown());

  it('80 concurrent wrong passwords for one address: at most 10 are checked, the rest are refused', async () => {
    const victim = await createOrgWithAdmin(t, 'Race LLP');
    const c = new Client(t.app, '10.8.0.1');
    const burst = await Promise.all(
      Array.from({ length: 80 }, (_, i) => c.post('/_api/auth/login_with_password', { email: victim.email, password: `wrong-${i}` })),
    );
    const unauthorized = burst.filter((r) => r.statusCode === 401);
    const refused = burst.filter((r) => r.statusCode === 429);
    expect(unauthorized.length).toBeLessThanOrEqual(10);
    expect(unauthorized.length + refused.length).toBe(80);
    expect(refused[0]!.json()).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', error: MSG.tooManyAttempts });
    const failed = await t.ctx.db
      .selectFrom('auditLogs')
      .select('id')
      .where('targetId', '=', String(victim.userId))
      .where('action', '=', 'USER_LOGIN_FAILED')
      .execute();
    expect(failed.length).toBe(unauthorized.length);
    // Locked: even the right password is refused now.
    expect(
      (await new Client(t.app, '10.8.0.2').post('/_api/auth/login_with_password', { email: victim.email, password: victim.password }))
        .statusCode,
    ).toBe(429);
  });

  it('a right password gives back its attempt from the address budget', async () => {
    const acct = await createOrgWithAdmin(t, 'Office LLP');
    const c = new Client(t.app, '10.8.0.3');
    for (let i = 0; i < 60; i++)
      expect((await c.post('/_api/auth/login_with_password', { email: acct.email, password: acct.password })).statusCode).toBe(200);
  });
});

describe('TRUST_PROXY', () => {
  it("refuses 'true' and hop counts at start, naming the variable", () => {
    for (const value of ['true', '1', '2']) {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    }
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY: not an address or CIDR range: 10.0.0.0\/33/);
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8']);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({}).trustProxy).toBe(false);
  });

  describe('behind a proxy at 127.0.0.1', () => {
    let t: TestApp;
    let acct: Account;
    beforeAll(async () => {
      t = await createTestApp({ TRUST_PROXY: '127.0.0.1' });
      acct = await createOrgWithAdmin(t, 'Proxy LLP');
    });
    afterAll(() => t.shutdown());

    // The proxy appends the address it saw; whatever the client put to the left is its own claim.
    const viaProxy = (spoofed: string) => ({ 'x-forwarded-for': `${spoofed}, 198.51.100.7` });

    it('a spoofed leftmost X-Forwarded-For changes neither the throttled address nor the audit address', async () => {
      const proxy = new Client(t.app, '127.0.0.1');
      for (let i = 0; i < 50; i++) {
        const r = await proxy.post(
          '/_api/auth/login_with_password',
          { email: `spray${i}@firm.test`, password: 'password1' },
          viaProxy(`203.0.113.${i}`),
        );
        expect(r.statusCode).toBe(401);
      }
      const next = await proxy.post(
        '/_api/auth/login_with_password',
        { email: acct.email, password: acct.password },
        viaProxy('203.0.113.200'),
      );
      expect(next.statusCode).toBe(429);
      const ips = await t.ctx.db.selectFrom('auditLogs').select('ipAddress').where('action', '=', 'USER_LOGIN_FAILED').execute();
      expect(new Set(ips.map((r) => r.ipAddress))).toEqual(new Set(['198.51.100.7']));
      // Another client behind the same proxy is not affected.
      const other = await proxy.post(
        '/_api/auth/login_with_password',
        { email: acct.email, password: acct.password },
        { 'x-forwarded-for': '192.0.2.44' },
      );
      expect(other.statusCode).toBe(200);
    });

    it('a client reaching the server directly cannot pick its address with X-Forwarded-For', async () => {
      const direct = new Client(t.app, '192.0.2.99');
      await direct.post(
        '/_api/auth/login_with_password',
        { email: 'nobody-direct@firm.test', password: 'password1' },
        { 'x-forwarded-for': '198.51.100.250' },
      );
      const row = await t.ctx.db
        .selectFrom('auditLogs')
        .select('ipAddress')
        .where('action', '=', 'USER_LOGIN_FAILED')
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirstOrThrow();
      expect(row.ipAddress).toBe('192.0.2.99');
    });
  });
});
