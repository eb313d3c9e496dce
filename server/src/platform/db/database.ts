import fs from 'node:fs';
import path from 'node:path';
import { CamelCasePlugin, Kysely, Migrator, PostgresDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import type { NodeFS as NodeFSType } from '@electric-sql/pglite/nodefs';
import type { DB } from './schema.js';
import { migrations } from './migrations/index.js';

export type Database = Kysely<DB>;
/** A handle that is either the database or an open transaction; repositories take it as their first argument. */
export type Executor = Kysely<DB> | Transaction<DB>;

export type DatabaseHandle = {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** The pool under `db` (on PGlite: its one connection), for clients that must run raw SQL beside Kysely (pg-boss). */
  pool: pg.Pool;
  close(): Promise<void>;
};

type PGliteLike = { dumpDataDir(compression: 'none'): Promise<Blob> };

// int8 (bigint) stays a string so that no precision is lost; counts are cast in SQL where a number is wanted.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => v);

export class DataDirInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The data directory ${dir} is in use by another Strongroom process (pid ${pid}). ` +
        'The embedded database allows one process at a time: stop the server first, then run this command again.',
    );
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock file beside PGlite's data so that a second process gets a clear message rather than corrupt data. */
function takeLock(dir: string): () => void {
  const lockFile = path.join(dir, 'strongroom.lock');
  try {
    const pid = Number(fs.readFileSync(lockFile, 'utf8').trim());
    if (pid && pid !== process.pid && pidAlive(pid)) throw new DataDirInUseError(dir, pid);
  } catch (err) {
    if (err instanceof DataDirInUseError) throw err;
  }
  fs.writeFileSync(lockFile, String(process.pid), { mode: 0o600 });
  return () => {
    try {
      if (fs.readFileSync(lockFile, 'utf8').trim() === String(process.pid)) fs.rmSync(lockFile);
    } catch {
      /* already gone */
    }
  };
}

type NodeFsClass = typeof NodeFSType;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Emscripten hands its file-layer hooks untyped arguments; the wrapper passes them on unread
type EmscriptenModule = { NODEFS?: { doSetAttr?: (...args: any[]) => unknown } };

/**
 * PGlite's file layer sets the modes PostgreSQL asks for (0666 for the files of its initial data directory, 0644
 * for some it writes later), whatever the process umask says. This layer keeps every mode it sets owner-only, so
 * that no other account can read the database files (the WAL holds password hashes).
 */
function ownerOnly(Base: NodeFsClass): NodeFsClass {
  return class OwnerOnlyNodeFS extends Base {
    override async init(...args: Parameters<InstanceType<NodeFsClass>['init']>) {
      const result = await super.init(...args);
      const restrict = (mod: EmscriptenModule) => {
        const nodefs = mod.NODEFS;
        const setAttr = nodefs?.doSetAttr;
        if (!nodefs || typeof setAttr !== 'function') return;
        nodefs.doSetAttr = (target: unknown, node: unknown, attr: { mode?: number } | undefined, ...rest: unknown[]) =>
          setAttr.call(nodefs, target, node, attr && typeof attr.mode === 'number' ? { ...attr, mode: attr.mode & ~0o077 } : attr, ...rest);
      };
      const opts = result.emscriptenOpts as { preRun?: Array<(mod: EmscriptenModule) => void> };
      opts.preRun = [restrict, ...(opts.preRun ?? [])];
      return result;
    }
  };
}

const camel = () => new CamelCasePlugin({ maintainNestedObjectKeys: true });

/**
 * A pool over node-postgres. An idle connection that the server ends (a restart, a failover, an administrator,
 * a dropped database) is taken out of the pool, which opens a new one for the next query; the error is reported
 * to `onIdleError` instead of ending the process. A connection ended while a transaction holds it fails that
 * transaction, never the process.
 */
export async function openPostgres(
  connectionString: string,
  max = 10,
  onIdleError: (err: Error) => void = (err) => console.warn(`PostgreSQL closed an idle connection: ${err.message}`),
): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString, max });
  pool.on('error', onIdleError);
  // A connection checked out of the pool (a transaction between two of its queries) has no listener of the pool's,
  // so the server ending it would raise an 'error' event nobody hears, which ends the process. Every connection
  // keeps a listener of its own: the transaction's next query fails (and is reported as the request's error), and
  // the pool drops the broken connection when it is given back. Idle ones are reported by the pool, above.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [camel()] });
  return { db, kind: 'postgres', pool, close: () => db.destroy() };
}

/**
 * PGlite (PostgreSQL in WASM) in `dir`, or in memory when dir is undefined. One connection: transactions
 * queue behind each other, which is why every repository call inside a transaction uses the transaction.
 */
export async function openPglite(
  dir: string | undefined,
  opts: { lock?: boolean; loadDataDir?: Blob } = {},
): Promise<DatabaseHandle & { pglite: PGliteLike }> {
  const [{ PGlite }, { pg_trgm }, { pgcrypto }, { createPgConfig }, { NodeFS }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite/contrib/pgcrypto'),
    import('@electric-sql/pglite/node-postgres'),
    import('@electric-sql/pglite/nodefs'),
  ]);
  let release = () => {};
  if (dir) {
    // Owner-only: the database files hold password hashes (with the process umask, PGlite's files follow).
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (opts.lock !== false) release = takeLock(dir);
  }
  let files: InstanceType<typeof NodeFS> | undefined;
  if (dir) {
    fs.mkdirSync(path.join(dir, 'data'), { recursive: true, mode: 0o700 });
    files = new (ownerOnly(NodeFS))(path.join(dir, 'data'));
  }
  const pglite = await PGlite.create({
    ...(files ? { fs: files } : {}),
    extensions: { pg_trgm, pgcrypto },
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
  });
  const pool = new pg.Pool({ ...createPgConfig(pglite), max: 1 });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [camel()] });
  return {
    db,
    kind: 'pglite',
    pool,
    pglite,
    async close() {
      await db.destroy();
      await pglite.close();
      release();
    },
  };
}

export async function openDatabase(opts: { databaseUrl?: string; dataDir: string }): Promise<DatabaseHandle> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  return openPglite(path.join(opts.dataDir, 'pg'));
}

function migrator(db: Database): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
  });
}

/** The names of the migrations this database has run, in order. */
async function executedMigrations(db: Database): Promise<string[]> {
  return (await migrator(db).getMigrations()).filter((m) => m.executedAt !== undefined).map((m) => m.name);
}

/**
 * Migrates up to and including `name`, never down: a database that has already run a later migration is left as
 * it is (the caller compares executedMigrations). Restoring a backup uses it so that the rows go into the schema
 * they were taken from, and the later migrations then run over them.
 */
export async function migrateUpTo(db: Database, name: string): Promise<void> {
  if (!(name in migrations)) throw new Error(`unknown migration ${name}`);
  if ((await executedMigrations(db)).some((m) => m > name)) return;
  const { error } = await migrator(db).migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

export async function migrateToLatest(db: Database): Promise<string[]> {
  const { error, results } = await migrator(db).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function ping(db: Database): Promise<void> {
  await sql`select 1`.execute(db);
}
