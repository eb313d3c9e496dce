import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Each table has one writing feature. The feature that owns a table holds every insert, update and delete of it,
 * its row locks and the version its changes raise; another feature that needs a change calls the owner's named
 * operation (through the owner's index.ts, which the lint boundary and the layering test hold). Two writers of one
 * table would each keep their own copy of its rules, and the copies drift apart.
 *
 * The check reads the server's product source (tests, test fixtures and migrations left out): Kysely's
 * insertInto / updateTable / deleteFrom / replaceInto / mergeInto, and raw INSERT INTO / UPDATE ... SET /
 * DELETE FROM in sql templates; and row locks (Kysely's forUpdate, raw FOR UPDATE). A file counts for its feature (features/<name>/...), or for `shared` or
 * `platform`, or for `app` (the entry points at the top of src/).
 */
const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');

/**
 * The only tables more than one part of the server writes: infrastructure every feature shares. Each entry names
 * every writer allowed and why.
 */
const SHARED_TABLES: Record<string, { writers: string[]; reason: string }> = {
  audit_logs: {
    writers: ['shared', 'audit'],
    reason:
      'shared/audit.ts appends the chained entry every audited change writes, in the change’s own transaction; ' +
      'the audit feature owns everything else done to the entries (archival marks them archived through it)',
  },
  auth_throttle: {
    writers: ['shared', 'security'],
    reason:
      'one table of counters under distinct keys: shared/throttle.ts counts sign-in and code attempts, the ' +
      'security feature counts client reports in the same table under its own key prefix',
  },
  system_settings: {
    writers: ['setup', 'audit'],
    reason:
      'one table of installation-wide values under distinct keys: setup keeps the first-run token, the audit ' +
      'feature the progress of its search text backfill and whether the list may read that text',
  },
};

const toSnake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The tables of the schema, by their SQL names (raw SQL naming anything else is prose, not a write). */
const TABLES = (() => {
  const schema = fs.readFileSync(path.join(srcDir, 'platform/db/schema.ts'), 'utf8');
  const body = /export interface DB \{([^}]*)\}/.exec(schema)?.[1] ?? '';
  return new Set([...body.matchAll(/^\s*(\w+)\s*:/gm)].map((m) => toSnake(m[1]!)));
})();

/** The product's source files under src/ (tests, test fixtures and migrations left out). */
function productFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    const rel = path.relative(srcDir, full).split(path.sep).join('/');
    // Migrations change the schema (and backfill it once, when deployed): no feature writes through them.
    if (d.isDirectory()) return rel === 'platform/db/migrations' ? [] : productFiles(full);
    if (!d.name.endsWith('.ts') || d.name.endsWith('.d.ts') || d.name.endsWith('.test.ts') || d.name.endsWith('-fixtures.ts')) return [];
    return [rel];
  });
}

/** The part of the server a file belongs to. */
function ownerOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'features') return parts[1]!;
  if (parts[0] === 'shared' || parts[0] === 'platform') return parts[0];
  return 'app';
}

/** The source without comments (their prose may say "update the matter set ..."). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
}

type Write = { table: string; owner: string; file: string };

/** The writes a file makes, by table; a Kysely write whose table is not a literal is reported as unreadable. */
function writesOf(file: string): { writes: Write[]; unreadable: string[] } {
  const text = code(fs.readFileSync(path.join(srcDir, file), 'utf8'));
  const owner = ownerOf(file);
  const writes: Write[] = [];
  const unreadable: string[] = [];
  for (const m of text.matchAll(/\.(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*([^)]*)\)/g)) {
    const literal = /^'(\w+)(?:\s+as\s+\w+)?'$/.exec(m[2]!.trim());
    if (literal) writes.push({ table: toSnake(literal[1]!), owner, file });
    else unreadable.push(`${file}: ${m[0]}`);
  }
  // Table names may be quoted or schema-qualified (public.matters).
  const name = String.raw`(?:"?\w+"?\.)?"?(\w+)"?`;
  const raw = new RegExp(
    String.raw`\binsert\s+into\s+${name}|\bupdate\s+(?:only\s+)?${name}\s+(?:(?:as\s+)?\w+\s+)?set\b|\bdelete\s+from\s+${name}|\bmerge\s+into\s+${name}`,
    'gi',
  );
  for (const m of text.matchAll(raw)) {
    const table = (m[1] ?? m[2] ?? m[3] ?? m[4])!.toLowerCase();
    if (TABLES.has(table)) writes.push({ table, owner, file });
  }
  return { writes, unreadable };
}

type Lock = { table: string; owner: string; file: string };

/**
 * The row locks a file takes: Kysely's .forUpdate() (on the table of the nearest .selectFrom before it) and raw
 * `from <table> ... for update` in sql templates.
 */
function locksOf(file: string): Lock[] {
  const text = code(fs.readFileSync(path.join(srcDir, file), 'utf8'));
  const owner = ownerOf(file);
  const locks: Lock[] = [];
  for (const m of text.matchAll(/\.forUpdate\(\)/g)) {
    const select = [...text.slice(0, m.index).matchAll(/\.selectFrom\(\s*'(\w+)(?:\s+as\s+\w+)?'/g)].pop();
    if (select) locks.push({ table: toSnake(select[1]!), owner, file });
  }
  for (const m of text.matchAll(/\bfrom\s+(\w+)\b[^`;]*?\bfor\s+update\b/gi)) {
    if (TABLES.has(m[1]!.toLowerCase())) locks.push({ table: m[1]!.toLowerCase(), owner, file });
  }
  return locks;
}

const files = productFiles(srcDir);
const scanned = files.map(writesOf);
const locks = files.flatMap(locksOf);
const writes = scanned.flatMap((s) => s.writes);

/** Each table's writers, with the files that write it. */
function writersByTable(): Map<string, Map<string, Set<string>>> {
  const byTable = new Map<string, Map<string, Set<string>>>();
  for (const w of writes) {
    const owners = byTable.get(w.table) ?? new Map<string, Set<string>>();
    owners.set(w.owner, (owners.get(w.owner) ?? new Set()).add(w.file));
    byTable.set(w.table, owners);
  }
  return byTable;
}

describe('table writers', () => {
  it('has one writing feature per table (shared infrastructure named with its reason)', () => {
    const found: string[] = [];
    for (const [table, owners] of writersByTable()) {
      if (owners.size < 2) continue;
      const allowed = new Set(SHARED_TABLES[table]?.writers ?? []);
      if ([...owners.keys()].every((o) => allowed.has(o))) continue;
      const who = [...owners].map(([owner, files]) => `${owner} (${[...files].sort().join(', ')})`).join('; ');
      found.push(`${table}: ${who}`);
    }
    expect(found).toEqual([]);
  });

  it('takes the row locks of a table only where the table is written (its lock rule lives once, with its owner)', () => {
    const byTable = writersByTable();
    const found = locks.filter((l) => !byTable.get(l.table)?.has(l.owner)).map((l) => `${l.table}: ${l.owner} (${l.file})`);
    expect(found).toEqual([]);
    // The locks it sees include the matter's row lock, taken by the matters feature alone.
    expect(locks.filter((l) => l.table === 'matters').map((l) => l.owner)).toEqual(['matters']);
  });

  it('reads the table of every write it sees (a write it cannot read would escape the check)', () => {
    expect(scanned.flatMap((s) => s.unreadable)).toEqual([]);
  });

  it('keeps the shared list short and current: every writer it allows writes the table', () => {
    const byTable = writersByTable();
    const stale = Object.entries(SHARED_TABLES).flatMap(([table, { writers }]) =>
      writers.filter((w) => !byTable.get(table)?.has(w)).map((w) => `${table}: ${w}`),
    );
    expect(stale).toEqual([]);
  });

  it('sees the writes it checks (a guard against a check that sees nothing)', () => {
    const byTable = writersByTable();
    const writersOf = (table: string) => [...(byTable.get(table)?.keys() ?? [])].sort();
    expect(TABLES.has('matters')).toBe(true);
    expect(writersOf('matters')).toEqual(['matters']);
    expect(writersOf('nodes')).toEqual(['nodes']);
    expect(writersOf('users')).toEqual(['users']);
    expect(writersOf('organizations')).toEqual(['users']);
    // A raw statement in a sql template counts too (the counters of sign-in attempts).
    expect(writes.some((w) => w.file === 'shared/throttle.ts' && w.table === 'auth_throttle')).toBe(true);
  });
});
