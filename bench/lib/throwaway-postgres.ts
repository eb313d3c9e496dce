// Strongroom on a PostgreSQL database made for one bench run (or BENCH_DATABASE_URL as given), and the timing of
// a list of API calls: what the PostgreSQL scenarios that time the app's calls share.
import pg from 'pg';
import { passMfaWall } from './api-client.js';
import { fmt, median, percentile } from './stats.js';
import { startStrongroom, type Strongroom } from './strongroom.js';

const DEFAULT_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';

export type PostgresRun = {
  sr: Strongroom;
  /** A pool of two on the run's database, for seeding and statistics. */
  pool: pg.Pool;
  pgVersion: string;
  /** The run's database, for scenarios that open connections of their own (closed before `close`). */
  dbUrl: string;
  /** The database made for the run (dropped by `close`), or undefined when BENCH_DATABASE_URL was given. */
  ownDb: string | undefined;
  close(): Promise<void>;
};

/**
 * Makes a database (named `<prefix>_<pid>_<random>`) on the local PostgreSQL unless BENCH_DATABASE_URL names
 * one, starts Strongroom on it with its administrator past the MFA wall, and answers a `close` that stops the
 * app and drops the database it made.
 */
export async function strongroomOnPostgres(prefix: string, log: (message: string) => void): Promise<PostgresRun> {
  const given = process.env.BENCH_DATABASE_URL;
  const serverUrl = new URL(given || DEFAULT_SERVER);
  const ownDb = given ? undefined : `${prefix}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const dbUrl = new URL(serverUrl);
  if (ownDb) dbUrl.pathname = `/${ownDb}`;
  const admin = new pg.Client({ connectionString: serverUrl.toString() });
  await admin.connect();
  let sr: Strongroom | undefined;
  let pool: pg.Pool | undefined;
  const close = async () => {
    await pool?.end().catch(() => {});
    await sr?.close().catch(() => {});
    if (ownDb) {
      // A pool's end resolves before its connections are gone: wait for them (2 s at most) before the forced drop.
      for (let i = 0; i < 40; i++) {
        const n = (await admin.query('select count(*)::int as n from pg_stat_activity where datname = $1', [ownDb])).rows[0].n as number;
        if (n === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await admin
        .query(`drop database if exists ${ownDb} with (force)`)
        .catch((err: Error) => log(`could not drop ${ownDb}: ${err.message}`));
    }
    await admin.end();
  };
  try {
    if (ownDb) await admin.query(`create database ${ownDb}`);
    const pgVersion = (await admin.query('show server_version')).rows[0].server_version as string;
    const saved = process.env.BENCH_DATABASE_URL;
    process.env.BENCH_DATABASE_URL = dbUrl.toString();
    try {
      sr = await startStrongroom();
    } finally {
      if (saved === undefined) delete process.env.BENCH_DATABASE_URL;
      else process.env.BENCH_DATABASE_URL = saved;
    }
    await passMfaWall(sr);
    pool = new pg.Pool({ connectionString: dbUrl.toString(), max: 2 });
    pool.on('error', () => {});
    return { sr, pool, pgVersion, dbUrl: dbUrl.toString(), ownDb, close };
  } catch (err) {
    await close();
    throw err;
  }
}

export type CallCase = { label: string; run: () => Promise<unknown> };
export type CallTimes = { label: string; times: number[] };

/** Each case 10 times to warm up, then `requests` times one after another, in milliseconds. */
export async function timeCalls(cases: CallCase[], requests: number, log: (message: string) => void): Promise<CallTimes[]> {
  const results: CallTimes[] = [];
  for (const c of cases) {
    for (let i = 0; i < 10; i++) await c.run();
    const times: number[] = [];
    for (let i = 0; i < requests; i++) {
      const t = performance.now();
      await c.run();
      times.push(performance.now() - t);
    }
    results.push({ label: c.label, times });
    log(`${c.label}: median ${fmt(median(times), 1)} ms, p95 ${fmt(percentile(times, 95), 1)} ms`);
  }
  return results;
}

/** The case with the highest p95. */
export function slowest(results: CallTimes[]): CallTimes {
  return results.reduce((a, b) => (percentile(b.times, 95) > percentile(a.times, 95) ? b : a));
}

/** The table the call-timing scenarios report: median, p95 and max of each call. */
export function callTable(results: CallTimes[], requests: number) {
  const ms = (n: number) => fmt(n, 1);
  return {
    caption: `Milliseconds over ${requests} sequential requests each after 10 warm-ups (\`fetch\` to the app on 127.0.0.1 with the session cookie, JSON read)`,
    columns: ['call', 'median', 'p95', 'max'],
    rows: results.map((r) => [r.label, ms(median(r.times)), ms(percentile(r.times, 95)), ms(Math.max(...r.times))]),
  };
}
