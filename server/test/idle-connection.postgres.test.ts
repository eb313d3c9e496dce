/**
 * PostgreSQL may end a connection the pool holds idle (a restart, a failover, an administrator's
 * pg_terminate_backend). The app must not die of it: the pool drops that connection, reports it, and the next
 * query opens a new one. (A `.postgres.test.ts` file runs in the PostgreSQL suite only.)
 */
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, expect, it } from 'vitest';
import { openPostgres, type DatabaseHandle } from '../src/platform/db/database.js';

let handle: DatabaseHandle | undefined;
afterAll(() => handle?.close());

it('survives the server ending an idle connection and answers the next query', async () => {
  const reported: string[] = [];
  handle = await openPostgres(process.env.TEST_DATABASE_URL!, 2, (err) => reported.push(err.message));
  const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db);
  const pid = rows[0]!.pid;

  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query('select pg_terminate_backend($1)', [pid]);
  } finally {
    await admin.end();
  }
  await expect.poll(() => reported.length).toBeGreaterThan(0);
  expect(reported[0]).toMatch(/terminating connection/);

  const again = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db);
  expect(again.rows[0]!.pid).not.toBe(pid);
});
