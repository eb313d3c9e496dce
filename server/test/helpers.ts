import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect, inject, vi } from 'vitest';
import type { FastifyBaseLogger, FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuiltApp } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { openPglite, openPostgres, type DatabaseHandle } from '../src/platform/db/database.js';
import { createOrganizationFromCli } from '../src/features/setup/setup.service.js';
import { currentTotp } from '../src/features/mfa/totp.js';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';
import { NOT_DISTRIBUTED, TenantScopeRecorder, unexcused } from './tenant-scope.js';

/**
 * Every test database records the queries the product sends that read or change an organization's table
 * without naming the organization (see tenant-scope.ts); closing it fails the test file when one was sent.
 */
async function withTenantScope(h: DatabaseHandle): Promise<DatabaseHandle> {
  const { rows } = await h.pool.query<{ t: string }>(
    "select table_name as t from information_schema.columns where table_schema = 'public' and column_name = 'organization_id'",
  );
  const recorder = new TenantScopeRecorder(new Set(rows.map((r) => r.t).filter((t) => !NOT_DISTRIBUTED.has(t))));
  const close = h.close;
  return {
    ...h,
    db: h.db.withPlugin(recorder),
    async close() {
      await close();
      const found = unexcused(recorder.violations);
      if (found.length) throw new Error(`Queries of an organization's table that do not name the organization:\n${found.join('\n')}`);
    },
  };
}

/** A fresh, migrated database for one test file: PGlite from the snapshot, or a copy of the PG template. */
export async function testDatabase(): Promise<DatabaseHandle> {
  return withTenantScope(await openTestDatabase());
}

async function openTestDatabase(): Promise<DatabaseHandle> {
  if (process.env.TEST_DB_KIND === 'postgres') {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    const name = `strongroom_t_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query(`create database ${name} template ${inject('pgTemplate')}`);
    url.pathname = `/${name}`;
    // The database is dropped when the file ends; an idle connection it ends then is expected.
    const h = await openPostgres(url.toString(), 5, () => undefined);
    return {
      ...h,
      async close() {
        await h.close();
        // The pool's end resolves before its connections are gone; a forced drop would then kill them
        // mid-close and their 'terminating connection' errors would surface as unhandled.
        // Waited for up to a second; a connection still there then is dropped with the database.
        await vi
          .waitFor(
            async () => {
              const { rows } = await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1', [name]);
              if (rows[0].n !== 0) throw new Error('connections still open');
            },
            { timeout: 1000, interval: 20 },
          )
          .catch(() => undefined);
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const snapshot = fs.readFileSync(inject('pgliteSnapshot'));
  return openPglite(undefined, { loadDataDir: new Blob([snapshot]) });
}

export type TestApp = BuiltApp & { sink: SmtpSink; config: Config; dataDir: string; database: DatabaseHandle; shutdown(): Promise<void> };

export async function createTestApp(
  env: Record<string, string> = {},
  overrides: Partial<Config> & { loggerInstance?: FastifyBaseLogger } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-test-'));
  const sink = await startSmtpSink();
  const { loggerInstance, ...configOverrides } = overrides;
  const config = loadConfig(
    { NODE_ENV: 'test', DATA_DIR: dataDir, SMTP_URL: sink.url, LOG_LEVEL: 'silent', APP_URL: 'http://localhost:3000', ...env },
    configOverrides,
  );
  const database = await testDatabase();
  const built = await buildApp({ config, database, migrate: false, logger: false, loggerInstance });
  await built.app.ready();
  return {
    ...built,
    sink,
    config,
    dataDir,
    database,
    async shutdown() {
      await built.close();
      await database.close();
      await sink.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A browser-like client over app.inject: keeps cookies, sends JSON, remembers its address. */
export class Client {
  readonly cookies = new Map<string, string>();
  constructor(
    readonly app: FastifyInstance,
    readonly ip = '127.0.0.1',
  ) {}

  async request(opts: InjectOptions): Promise<LightMyRequestResponse> {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await this.app.inject({
      remoteAddress: this.ip,
      ...opts,
      headers: { ...(cookie ? { cookie } : {}), ...(opts.headers ?? {}) },
    });
    for (const c of res.cookies as Array<{ name: string; value: string; maxAge?: number; expires?: Date }>) {
      const gone = c.value === '' || c.maxAge === 0 || (c.expires && c.expires.getTime() < Date.now());
      if (gone) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    return res;
  }

  post(url: string, payload?: unknown, headers: Record<string, string> = {}) {
    return this.request({ method: 'POST', url, payload: payload as object, headers });
  }

  get(url: string, headers: Record<string, string> = {}) {
    return this.request({ method: 'GET', url, headers });
  }
}

export type Account = { email: string; password: string; userId: number; organizationId: string };

let counter = 0;
export function uniqueEmail(prefix = 'user'): string {
  counter += 1;
  return `${prefix}${counter}.${Math.random().toString(36).slice(2, 6)}@firm.test`;
}

/** A new organization with its administrator (not yet enrolled in MFA). */
export async function createOrgWithAdmin(t: TestApp, name = 'Acme LLP'): Promise<Account> {
  const email = uniqueEmail('admin');
  const password = 'correct horse battery';
  const { organizationId, userId } = await createOrganizationFromCli(t.ctx.db, {
    name,
    adminName: 'Ada Admin',
    adminEmail: email,
    adminPassword: password,
  });
  return { email, password, userId, organizationId };
}

/** Password and emailed code: a signed-in client (the setup wall still applies if MFA is not set up). */
export async function signInWithEmailCode(t: TestApp, account: Pick<Account, 'email' | 'password'>, ip?: string): Promise<Client> {
  const c = new Client(t.app, ip);
  const login = await c.post('/_api/auth/login_with_password', { email: account.email, password: account.password });
  if (login.statusCode !== 200) throw new Error(`login failed: ${login.body}`);
  const { userId } = login.json();
  const before = t.sink.messages.length;
  const sent = await c.post('/_api/auth/mfa-email', { userId });
  if (sent.statusCode !== 200) throw new Error(`send code failed: ${sent.body}`);
  await waitForCount(t.sink, before + 1);
  const code = await t.sink.lastCode(account.email);
  const verify = await c.post('/_api/auth/mfa-verify-email', { userId, token: code });
  if (verify.statusCode !== 200) throw new Error(`verify failed: ${verify.body}`);
  return c;
}

/** Waits until the sink holds n mails. */
export async function waitForCount(sink: SmtpSink, n: number): Promise<void> {
  await vi.waitFor(() => expect(sink.messages.length, 'mails arrived').toBeGreaterThanOrEqual(n), { timeout: 5000, interval: 25 });
}

/** Enrolls the signed-in client's user in TOTP through the setup wall calls; answers the secret. */
export async function enrollTotp(c: Client): Promise<string> {
  const gen = await c.post('/_api/settings/mfa-manage', { operation: 'generate_totp_secret' });
  if (gen.statusCode !== 200) throw new Error(`generate failed: ${gen.body}`);
  const { secret } = gen.json();
  const sw = await c.post('/_api/settings/mfa-manage', { operation: 'switch_to_totp', totpToken: currentTotp(secret), mfaToken: 'setup' });
  if (sw.statusCode !== 200) throw new Error(`switch failed: ${sw.body}`);
  return secret;
}

/** The authenticator's code for the next time step, which the server accepts once the current one is used. */
export const nextTotp = (secret: string, steps = 1) => currentTotp(secret, Date.now() + steps * 30_000);

export const API = { 'x-api-version': 'v1.0.0' };
