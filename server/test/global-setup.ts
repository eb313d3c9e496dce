import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateToLatest, openPglite, openPostgres } from '../src/platform/db/database.js';

/**
 * Makes one migrated database to copy from, so that each test file starts from a fresh database in about
 * a second: a PGlite data-directory snapshot, or a PostgreSQL template database.
 */
export default async function setup(project: TestProject) {
  const kind = project.config.env?.TEST_DB_KIND ?? 'pglite';
  if (kind === 'postgres') {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error('TEST_DATABASE_URL is required for the PostgreSQL suite');
    const template = `strongroom_tpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`drop database if exists ${template}`);
    await admin.query(`create database ${template}`);
    const u = new URL(url);
    u.pathname = `/${template}`;
    const h = await openPostgres(u.toString(), 1);
    await migrateToLatest(h.db);
    await h.close();
    project.provide('pgTemplate', template);
    return async () => {
      await admin.query(`drop database if exists ${template} with (force)`);
      await admin.end();
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-pglite-'));
  const h = await openPglite(undefined);
  await migrateToLatest(h.db);
  const blob = await h.pglite.dumpDataDir('none');
  const file = path.join(dir, 'snapshot.tar');
  fs.writeFileSync(file, Buffer.from(await blob.arrayBuffer()));
  await h.close();
  project.provide('pgliteSnapshot', file);
  return () => fs.rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
    pgTemplate: string;
  }
}
