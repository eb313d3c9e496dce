import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('has embedded defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      appUrl: 'http://localhost:3000',
      secureCookies: false,
      mailFrom: expect.any(String),
    });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.s3).toBeUndefined();
    expect(c.session).toEqual({ idleMinutes: 30, absoluteHours: 12 });
  });

  it('names every bad variable', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', SMTP_URL: 'http://mail', APP_URL: 'not a url' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const msg = (err as Error).message;
      for (const name of ['PORT', 'DATABASE_URL', 'SMTP_URL', 'APP_URL']) expect(msg).toContain(name);
    }
  });

  it('asks for a bucket when S3 is configured, and marks cookies Secure behind https', () => {
    expect(() => loadConfig({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toThrow(/S3_BUCKET/);
    const c = loadConfig({ S3_BUCKET: 'archive', S3_ENDPOINT: 'http://127.0.0.1:9000', APP_URL: 'https://archive.firm.test/' });
    expect(c.s3).toMatchObject({ bucket: 'archive', forcePathStyle: true });
    expect(c.secureCookies).toBe(true);
    expect(c.appUrl).toBe('https://archive.firm.test');
  });
});

describe('TRUST_PROXY ranges', () => {
  const refusal = (value: string) => {
    try {
      loadConfig({ TRUST_PROXY: value });
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    return expect.unreachable(`TRUST_PROXY=${value} was accepted`);
  };

  it('refuses a range that is not one, naming the variable and the entry', () => {
    for (const value of [
      '10.0.0.0/33',
      '::1/129',
      '10.0.0.0/-1',
      '10.0.0.0/8/8',
      '10.0.0.300',
      '10.0.0.0/255.0.0.0',
      'proxy.firm.test',
      ',',
    ])
      expect(refusal(value)).toMatch(/^Invalid configuration:\n {2}TRUST_PROXY: not an address or CIDR range/);
  });

  it('refuses catch-alls: IPv4 shorter than /8, IPv6 shorter than /16, and IPv6 ranges holding every IPv4 client', () => {
    for (const value of [
      '0.0.0.0/0',
      '::/0',
      '10.0.0.0/7',
      '128.0.0.0/1',
      '2000::/3',
      'fc00::/15',
      '::/16',
      '::ffff:0:0/96',
      '::ffff:10.0.0.0/100',
    ]) {
      const message = refusal(value);
      expect(message).toContain(`TRUST_PROXY: ${value} would believe the X-Forwarded-For of a large share of the internet`);
      expect(message).toContain('IPv4 /8 or narrower, IPv6 /16 or narrower');
    }
    // One catch-all among good entries is enough to refuse the whole list.
    expect(refusal('127.0.0.1, 0.0.0.0/0')).toContain('TRUST_PROXY: 0.0.0.0/0 would believe');
  });

  it('accepts addresses, ranges from /8 (IPv4) and /16 (IPv6), and the named sets', () => {
    const value = '127.0.0.1, 10.0.0.0/8, 192.168.1.0/24, 2001:db8::/16, fd00::/64, ::1, ::ffff:10.0.0.0/104, loopback, uniquelocal';
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(value.split(', '));
  });
});
