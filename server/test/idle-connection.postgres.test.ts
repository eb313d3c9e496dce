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

it('survives the server ending a connection held by a transaction between two of its queries', async () => {
  const h = await openPostgres(process.env.TEST_DATABASE_URL!, 2, () => {});
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    const inTransaction = h.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
      // The connection is checked out, idle in the transaction, when the server ends it (as a restart would).
      await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
      await expect
        .poll(async () => (await admin.query('select count(*)::int as n from pg_stat_activity where pid = $1', [rows[0]!.pid])).rows[0].n)
        .toBe(0);
      await new Promise((resolve) => setImmediate(resolve));
      await sql`select 1`.execute(trx);
    });
    // The transaction fails (its connection is gone); the process does not die of the connection's error event.
    await expect(inTransaction).rejects.toThrow();
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(h.db);
    expect(rows[0]!.one).toBe(1);
  } finally {
    await admin.end();
    await h.close();
  }
});
