// The real Strongroom app, built in-process the way the server tests build it, listening on 127.0.0.1.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { buildApp, type BuiltApp } from '../../server/src/app.js';
import { loadConfig, type Config } from '../../server/src/config.js';
import { migrateToLatest, openPglite, openPostgres, type DatabaseHandle } from '../../server/src/platform/db/database.js';
import { createOrganizationFromCli } from '../../server/src/features/setup/setup.service.js';
import { createSession, SESSION_COOKIE } from '../../server/src/features/sessions/index.js';

export type Strongroom = {
  built: BuiltApp;
  config: Config;
  dbKind: 'pglite' | 'postgres';
  /** http://127.0.0.1:PORT */
  url: string;
  admin: { email: string; password: string; userId: number; organizationId: string };
  /** `sr_session=TOKEN` for the administrator (a session made as sign-in makes it). */
  sessionCookie: string;
  close(): Promise<void>;
};

/**
 * Starts Strongroom with a temporary DATA_DIR and silent logging. The database is PGlite in memory, or
 * PostgreSQL when BENCH_DATABASE_URL is set (migrated to the latest schema; the organization made here is
 * left in it, so point it at a throw-away database).
 */
export async function startStrongroom(opts: { webDist?: string; env?: Record<string, string> } = {}): Promise<Strongroom> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-bench-'));
  let database: DatabaseHandle | undefined;
  let built: BuiltApp | undefined;
  try {
    const config = loadConfig(
      {
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        HOST: '127.0.0.1',
        PORT: '0',
        APP_URL: 'http://127.0.0.1',
        ...opts.env,
      },
      // A folder without index.html: no web app unless asked for.
      { webDist: opts.webDist ?? path.join(dataDir, 'no-web') },
    );
    const pgUrl = process.env.BENCH_DATABASE_URL;
    database = pgUrl ? await openPostgres(pgUrl, 10) : await openPglite(undefined);
    await migrateToLatest(database.db);
    built = await buildApp({ config, database, migrate: false });

    const admin = {
      email: `bench.${Date.now().toString(36)}.${Math.random().toString(36).slice(2, 6)}@firm.test`,
      password: 'correct horse battery staple',
    };
    const { organizationId, userId } = await createOrganizationFromCli(database.db, {
      name: 'Bench LLP',
      adminName: 'Bench Admin',
      adminEmail: admin.email,
      adminPassword: admin.password,
    });
    const ctx = built.ctx;
    const { token } = await database.db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
      return createSession(ctx, trx, user, { ip: '127.0.0.1', userAgent: 'strongroom-bench' });
    });

    await built.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = built.app.server.address() as AddressInfo;
    const db = database;
    const app = built;
    return {
      built,
      config,
      dbKind: database.kind,
      url: `http://127.0.0.1:${port}`,
      admin: { ...admin, userId, organizationId },
      sessionCookie: `${SESSION_COOKIE}=${token}`,
      async close() {
        try {
          await app.close();
        } finally {
          await db.close();
          fs.rmSync(dataDir, { recursive: true, force: true });
        }
      },
    };
  } catch (err) {
    await built?.close().catch(() => {});
    await database?.close().catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}
