// PostgreSQL for the scale-out harness: a throw-away database on the shared server (BENCH_PG_URL, default
// postgres://postgres@127.0.0.1:5432), or a whole cluster of our own (initdb in a temp dir, a random port) when the
// bench must restart it; and PgBouncer in transaction mode in front of either.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sleep, startProc, stopProc, type Proc } from './procs.js';

const PG_BIN = '/usr/lib/postgresql/15/bin';

/** A port that was free a moment ago. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** A temp dir the `postgres` account can read and write (PgBouncer and an own cluster run as that account). */
function postgresDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  fs.chmodSync(dir, 0o755);
  execFileSync('chown', ['postgres:postgres', dir]);
  return dir;
}

const asPostgres = (cmd: string[]) =>
  (process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', ...cmd]] : [cmd[0], cmd.slice(1)]) as [string, string[]];

export type Postgres = {
  /** Direct URL of the bench's database (setup and the checks afterwards). */
  url: string;
  port: number;
  /** Own cluster only: stop, then start again after `downMs`. */
  restart?(downMs: number): Promise<void>;
  close(): Promise<void>;
};

async function createDatabase(serverUrl: string, name: string): Promise<void> {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  try {
    await c.query(`create database ${name}`);
  } finally {
    await c.end();
  }
}

async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const c = new pg.Client({ connectionString: serverUrl });
  await c.connect();
  try {
    await c.query(`drop database if exists ${name} with (force)`);
  } finally {
    await c.end();
  }
}

/** A new database on the shared server, dropped by close(). */
export async function sharedDatabase(): Promise<Postgres> {
  const server = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `strongroom_scaleout_${randomBytes(4).toString('hex')}`;
  await createDatabase(server, name);
  const u = new URL(server);
  u.pathname = `/${name}`;
  return { url: u.toString(), port: Number(u.port || 5432), close: () => dropDatabase(server, name) };
}

/** A cluster of our own (initdb, pg_ctl) on a random port in a temp dir, removed by close(). */
export async function ownCluster(): Promise<Postgres> {
  const dir = postgresDir('strongroom-pg-');
  const data = path.join(dir, 'data');
  const port = await freePort();
  const ctl = (args: string[]) => {
    const [cmd, a] = asPostgres([`${PG_BIN}/pg_ctl`, '-D', data, ...args]);
    execFileSync(cmd, a, { stdio: 'ignore', timeout: 60_000 });
  };
  const [cmd, a] = asPostgres([`${PG_BIN}/initdb`, '-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  execFileSync(cmd, a, { stdio: 'ignore', timeout: 120_000 });
  const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=60 -c fsync=on`;
  const start = () => ctl(['-o', opts, '-l', path.join(dir, 'log'), '-w', 'start']);
  start();
  const server = `postgres://postgres@127.0.0.1:${port}/postgres`;
  try {
    await createDatabase(server, 'strongroom');
  } catch (err) {
    ctl(['-m', 'immediate', 'stop']);
    throw err;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/strongroom`,
    port,
    async restart(downMs: number) {
      ctl(['-m', 'fast', '-w', 'stop']);
      await sleep(downMs);
      start();
    },
    async close() {
      try {
        ctl(['-m', 'immediate', '-w', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

export type Bouncer = { url: string; proc: Proc; close(): Promise<void> };

/**
 * PgBouncer in transaction mode in front of `pgUrl`: a server connection is lent for one transaction at a time, so
 * the app servers' and workers' pools (10 each) share 20 server connections. query_wait_timeout bounds how long a
 * query waits for a server connection (while PostgreSQL is down, for instance) before it fails.
 */
export async function startPgBouncer(pgUrl: string, root: string): Promise<Bouncer> {
  const dir = postgresDir('strongroom-pgbouncer-');
  const port = await freePort();
  const u = new URL(pgUrl);
  const ini = [
    '[databases]',
    `* = host=127.0.0.1 port=${u.port || 5432}`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = trust',
    `auth_file = ${path.join(dir, 'users.txt')}`,
    'pool_mode = transaction',
    'max_client_conn = 500',
    'default_pool_size = 20',
    'query_wait_timeout = 10',
    'server_login_retry = 1',
    'ignore_startup_parameters = extra_float_digits,options',
    'server_reset_query =',
    'log_connections = 0',
    'log_disconnections = 0',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'pgbouncer.ini'), ini + '\n');
  fs.writeFileSync(path.join(dir, 'users.txt'), '"postgres" ""\n');
  const args = process.getuid?.() === 0 ? ['-u', 'postgres', path.join(dir, 'pgbouncer.ini')] : [path.join(dir, 'pgbouncer.ini')];
  const proc = startProc('pgbouncer', '/usr/sbin/pgbouncer', args, { cwd: root });
  const until = Date.now() + 15_000;
  for (;;) {
    try {
      const c = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}${u.pathname}` });
      await c.connect();
      await c.query('select 1');
      await c.end();
      break;
    } catch (err) {
      if (Date.now() > until || proc.child.exitCode !== null) {
        await stopProc(proc, 1000);
        fs.rmSync(dir, { recursive: true, force: true });
        throw new Error(`pgbouncer did not start: ${(err as Error).message}\n${proc.output()}`, { cause: err });
      }
      await sleep(200);
    }
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}${u.pathname}`,
    proc,
    async close() {
      await stopProc(proc, 3000);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
