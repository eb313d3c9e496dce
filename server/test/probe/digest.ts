/**
 * Digests of the application's rows, to prove that a refused request changed nothing.
 *
 * Every base table of the public schema is covered, so a table added later is watched from its first day.
 * Left out, on purpose, and only these:
 * - sessions.last_seen_at and sessions.idle_expires_at: any signed-in call (refused or not) may extend the idle
 *   limit; that is the session working, not the request acting.
 * - auth_throttle: counters of refused attempts (wrong codes, wrong passwords) exist to be bumped by refusals.
 * - pending_logins.failed_attempts and ended_at: a wrong sign-in code counts against, and may end, the pending
 *   sign-in it was sent for.
 * - audit_logs and audit_chain_heads: compared separately: a refused request may append only security events
 *   (REFUSAL_AUDIT_ACTIONS), never an entry that records a change.
 * - kysely's migration bookkeeping.
 */
import { sql } from 'kysely';
import type { TestApp } from '../helpers.js';

const SKIPPED_TABLES = new Set(['auth_throttle', 'audit_logs', 'audit_chain_heads', 'kysely_migration', 'kysely_migration_lock']);
const VOLATILE_COLUMNS: Record<string, string[]> = {
  sessions: ['last_seen_at', 'idle_expires_at'],
  pending_logins: ['failed_attempts', 'ended_at'],
};

/** Audit entries a refused request may write: it records the refusal itself, for the security log. */
export const REFUSAL_AUDIT_ACTIONS = new Set(['MFA_VERIFICATION_FAILED', 'USER_LOGIN_FAILED', 'SECURITY_EVENT', 'LOGIN_FAILED']);

type Layout = Array<{ table: string; columns: string[]; hasOrg: boolean; hasUser: boolean }>;
const layouts = new WeakMap<TestApp, Layout>();

async function layout(t: TestApp): Promise<Layout> {
  const known = layouts.get(t);
  if (known) return known;
  // Aliased without underscores: the app's Kysely instance camel-cases result keys.
  const { rows } = await sql<{ tname: string; cname: string }>`
    select c.table_name::text as tname, c.column_name::text as cname from information_schema.columns c
    join information_schema.tables tb on tb.table_schema = c.table_schema and tb.table_name = c.table_name
    where c.table_schema = 'public' and tb.table_type = 'BASE TABLE'
    order by c.table_name, c.ordinal_position`.execute(t.ctx.db);
  const byTable = new Map<string, string[]>();
  for (const r of rows) byTable.set(r.tname, [...(byTable.get(r.tname) ?? []), r.cname]);
  const result: Layout = [];
  for (const [table, cols] of byTable) {
    if (SKIPPED_TABLES.has(table)) continue;
    const columns = cols.filter((c) => !(VOLATILE_COLUMNS[table] ?? []).includes(c));
    result.push({ table, columns, hasOrg: cols.includes('organization_id'), hasUser: cols.includes('user_id') });
  }
  layouts.set(t, result);
  return result;
}

const ident = (s: string) => `"${s.replace(/"/g, '""')}"`;

export type Digest = { tables: Record<string, string>; auditCount: number; at: string };

/**
 * One query: per table, the row count and an md5 over its rows as text (sorted). With `organizationId`, only
 * that organization's rows (by organization_id, or user_id of its users; the organization row itself).
 */
export async function digest(t: TestApp, organizationId?: string): Promise<Digest> {
  const tables = await layout(t);
  const parts: string[] = [];
  // Organization ids come from our own rows; quoted as a literal all the same.
  const org = organizationId === undefined ? '' : `'${organizationId.replace(/'/g, "''")}'`;
  for (const { table, columns, hasOrg, hasUser } of tables) {
    let where = '';
    if (organizationId) {
      if (table === 'organizations') where = `where "id"::text = ${org}`;
      else if (hasOrg) where = `where "organization_id"::text = ${org}`;
      else if (hasUser) where = `where "user_id" in (select "id" from "users" where "organization_id"::text = ${org})`;
      else continue;
    }
    const row = `(${columns.map((c) => `x.${ident(c)}`).join(', ')})::text`;
    parts.push(
      `(select count(*)::text || ':' || coalesce(md5(string_agg(${row}, E'\\n' order by ${row})), '') from ${ident(table)} x ${where}) as ${ident(table)}`,
    );
  }
  const auditWhere = organizationId ? `where "organization_id"::text = ${org}` : '';
  parts.push(`(select count(*)::int from "audit_logs" ${auditWhere}) as "zzauditcount"`);
  parts.push(`clock_timestamp()::text as "zzat"`);
  const res = await sql.raw<Record<string, unknown>>(`select ${parts.join(', ')}`).execute(t.ctx.db);
  const { zzauditcount, zzat, ...rest } = res.rows[0]!;
  return { tables: rest as Record<string, string>, auditCount: Number(zzauditcount), at: String(zzat) };
}

/** The tables whose digest differs. */
export function changedTables(before: Digest, after: Digest): string[] {
  const names = new Set([...Object.keys(before.tables), ...Object.keys(after.tables)]);
  return [...names].filter((n) => before.tables[n] !== after.tables[n]).sort();
}

/** Audit actions written since the digest was taken (every earlier entry was committed before it). */
export async function auditActionsSince(t: TestApp, since: Digest): Promise<string[]> {
  const rows = await t.ctx.db
    .selectFrom('auditLogs')
    .select('action')
    .where(sql<boolean>`created_at >= ${since.at}::timestamptz`)
    .execute();
  return rows.map((r) => r.action);
}
