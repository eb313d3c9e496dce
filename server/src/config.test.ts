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
