/**
 * The database half of a backup, done by the product itself so that the same code serves PGlite and PostgreSQL:
 * every table of the public schema as JSON lines (one row a line, its stored columns only: generated columns are
 * computed again), read in one REPEATABLE READ READ ONLY snapshot, and the sequences' positions. Loading writes
 * the rows back into an empty, migrated database in one transaction, tables in foreign-key order.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import readline from 'node:readline';
import { sql, type Transaction } from 'kysely';
import type { Database } from './database.js';
import type { DB } from './schema.js';

/**
 * Tables left out of every backup: short-lived secrets and state that means nothing on another installation.
 * Sessions are not carried over (everyone signs in again after a restore), nor pending sign-ins, emailed codes,
 * system MFA tokens, password reset links, throttle counters or uploads in flight; the migration bookkeeping is
 * the target's own.
 */
export const TABLES_NOT_BACKED_UP = [
  'sessions',
  'pending_logins',
  'mfa_email_codes',
  'system_mfa_tokens',
  'password_reset_tokens',
  'auth_throttle',
  'upload_sessions',
  'schema_migrations',
  'schema_migrations_lock',
];

export type TableInfo = { name: string; columns: string[]; identity: boolean };
export type SequencePosition = { name: string; lastValue: string; isCalled: boolean };
export type DumpedTable = TableInfo & { rows: number; sha256: string; bytes: number };

const IDENT = /^[a-z_][a-z0-9_]*$/;
const quoted = (name: string) => {
  if (!IDENT.test(name)) throw new Error(`unexpected identifier ${JSON.stringify(name)}`);
  return `"${name}"`;
};
const q = (name: string) => sql.raw(quoted(name));
const cols = (columns: string[]) => sql.raw(columns.map(quoted).join(', '));

type Exec = Database | Transaction<DB>;

/** The tables to back up with their stored columns, parents before children (self-references aside). */
export async function backupTables(db: Exec): Promise<TableInfo[]> {
  const { rows } = await sql<{ table: string; column: string; identity: boolean }>`
    select c.relname as table, a.attname as column, a.attidentity <> '' as identity
    from pg_class c join pg_attribute a on a.attrelid = c.oid
    where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and a.attnum > 0 and not a.attisdropped
      and a.attgenerated = ''
    order by c.relname, a.attnum`.execute(db);
  const tables = new Map<string, TableInfo>();
  for (const r of rows) {
    if (TABLES_NOT_BACKED_UP.includes(r.table)) continue;
    const t = tables.get(r.table) ?? { name: r.table, columns: [], identity: false };
    t.columns.push(r.column);
    t.identity ||= r.identity;
    tables.set(r.table, t);
  }
  const { rows: fks } = await sql<{ child: string; parent: string }>`
    select c.relname as child, p.relname as parent
    from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_class p on p.oid = k.confrelid
    where k.contype = 'f' and k.connamespace = 'public'::regnamespace`.execute(db);
  const parents = new Map<string, Set<string>>([...tables.keys()].map((t) => [t, new Set<string>()]));
  for (const fk of fks) if (fk.child !== fk.parent && tables.has(fk.child) && tables.has(fk.parent)) parents.get(fk.child)!.add(fk.parent);
  const ordered: TableInfo[] = [];
  const placed = new Set<string>();
  while (placed.size < tables.size) {
    const ready = [...tables.keys()].filter((t) => !placed.has(t) && [...parents.get(t)!].every((p) => placed.has(p))).sort();
    if (ready.length === 0) throw new Error('the tables reference each other in a cycle: no order to restore them in');
    for (const t of ready) {
      placed.add(t);
      ordered.push(tables.get(t)!);
    }
  }
  return ordered;
}

/** The public schema's sequences and where each stands. */
export async function sequencePositions(db: Exec): Promise<SequencePosition[]> {
  const { rows } = await sql<{ name: string }>`
    select relname as name from pg_class where relnamespace = 'public'::regnamespace and relkind = 'S' order by relname`.execute(db);
  const out: SequencePosition[] = [];
  for (const { name } of rows) {
    const { rows: pos } = await sql<{
      lastValue: string;
      isCalled: boolean;
    }>`select last_value::text as last_value, is_called from ${q(name)}`.execute(db);
    out.push({ name, lastValue: pos[0]!.lastValue, isCalled: pos[0]!.isCalled });
  }
  return out;
}

/**
 * Runs `work` in one REPEATABLE READ, READ ONLY transaction: every table it reads is read as of the same moment,
 * while the installation keeps working.
 */
export function inSnapshot<T>(db: Database, work: (trx: Transaction<DB>) => Promise<T>): Promise<T> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      await sql`set transaction read only`.execute(trx);
      return work(trx);
    });
}

const FETCH_ROWS = 1000;

/** Writes the table's rows to `file` as JSON lines through a cursor; answers the count, bytes and sha256. */
export async function dumpTable(trx: Transaction<DB>, table: TableInfo, file: string): Promise<DumpedTable> {
  const out = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
  const hash = createHash('sha256');
  let rows = 0;
  let bytes = 0;
  const cursor = sql.raw(`backup_${table.name}`);
  await sql`declare ${cursor} no scroll cursor for select row_to_json(t)::text as line from (select ${cols(table.columns)} from ${q(table.name)}) t`.execute(
    trx,
  );
  try {
    for (;;) {
      const { rows: batch } = await sql<{ line: string }>`fetch ${sql.raw(String(FETCH_ROWS))} from ${cursor}`.execute(trx);
      if (batch.length === 0) break;
      const chunk = Buffer.from(batch.map((r) => `${r.line}\n`).join(''), 'utf8');
      hash.update(chunk);
      bytes += chunk.length;
      rows += batch.length;
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
    }
  } finally {
    await sql`close ${cursor}`.execute(trx);
    await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
  return { ...table, rows, bytes, sha256: hash.digest('hex') };
}

const LOAD_BATCH_BYTES = 4 * 1024 * 1024;

/**
 * Loads the tables' JSON lines into the database in one transaction: the target's rows of these tables are
 * removed first (the caller has checked that the installation is empty: only rows the migrations seed are there),
 * user triggers are off while the rows go in (storage counters and version bumps are restored as they were, not
 * counted again), each table goes in by one statement from a staging table (so rows referring to rows of the same
 * table need no order), and the sequences are set where they stood.
 */
export async function loadTables(
  db: Database,
  tables: Array<TableInfo & { file: string; rows: number }>,
  sequences: SequencePosition[],
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`truncate table ${sql.raw(tables.map((t) => quoted(t.name)).join(', '))} cascade`.execute(trx);
    await sql`create temporary table backup_stage (n bigserial primary key, doc json not null) on commit drop`.execute(trx);
    for (const table of tables) {
      await sql`alter table ${q(table.name)} disable trigger user`.execute(trx);
      await stageFile(trx, table.file);
      const overriding = table.identity ? sql.raw('overriding system value') : sql.raw('');
      const { numAffectedRows } = await sql`
        insert into ${q(table.name)} (${cols(table.columns)}) ${overriding}
        select ${cols(table.columns)} from backup_stage s cross join lateral json_populate_record(null::${q(table.name)}, s.doc) r
        order by s.n`.execute(trx);
      if (Number(numAffectedRows ?? 0) !== table.rows) {
        throw new Error(`table ${table.name}: ${String(numAffectedRows)} rows loaded, the backup lists ${table.rows}`);
      }
      await sql`truncate table backup_stage`.execute(trx);
      await sql`alter table ${q(table.name)} enable trigger user`.execute(trx);
    }
    for (const s of sequences) {
      await sql`select setval(${s.name}::regclass, ${s.lastValue}::bigint, ${s.isCalled})`.execute(trx);
    }
  });
}

async function stageFile(trx: Transaction<DB>, file: string): Promise<void> {
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  let batch: string[] = [];
  let size = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await sql`insert into backup_stage (doc) select value from json_array_elements(${`[${batch.join(',')}]`}::json)`.execute(trx);
    batch = [];
    size = 0;
  };
  for await (const line of lines) {
    if (line === '') continue;
    batch.push(line);
    size += line.length;
    if (size >= LOAD_BATCH_BYTES) await flush();
  }
  await flush();
}
