import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { SecurityPolicyVersionsTable } from '../../platform/db/schema.js';

type Definition = Record<string, string | number | boolean>;

// ---------------------------------------------------------------- policies

const POLICY_COLUMNS = [
  'id',
  'organizationId',
  'name',
  'description',
  'definition',
  'version',
  'isActive',
  'createdAt',
  'updatedAt',
] as const;

export type PolicyRow = {
  id: string;
  organizationId: string;
  name: string;
  description: string;
  definition: Definition;
  version: number;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
};

/** The organization's live policies, by name. */
export async function listPolicies(db: Executor, organizationId: string, activeOnly = false): Promise<PolicyRow[]> {
  let q = db
    .selectFrom('securityPolicies')
    .select(POLICY_COLUMNS)
    .where('organizationId', '=', organizationId)
    .where('deletedAt', 'is', null);
  if (activeOnly) q = q.where('isActive', '=', true);
  return q.orderBy('name').execute();
}

/** The live policy of that name, locked for the change that reads it. */
export async function lockPolicyByName(db: Executor, organizationId: string, name: string): Promise<PolicyRow | undefined> {
  return db
    .selectFrom('securityPolicies')
    .select(POLICY_COLUMNS)
    .where('organizationId', '=', organizationId)
    .where('name', '=', name)
    .where('deletedAt', 'is', null)
    .forUpdate()
    .executeTakeFirst();
}

export type PolicyValues = { name: string; description: string; definition: Definition; version: number; isActive: boolean };

/** Inserts a policy; answers undefined when a live policy of the organization has the name already. */
export async function insertPolicy(db: Executor, organizationId: string, v: PolicyValues, by: number): Promise<PolicyRow | undefined> {
  return db
    .insertInto('securityPolicies')
    .values({
      organizationId,
      name: v.name,
      description: v.description,
      definition: JSON.stringify(v.definition),
      version: v.version,
      isActive: v.isActive,
      createdBy: by,
      updatedBy: by,
    })
    .onConflict((oc) => oc.columns(['organizationId', 'name']).where('deletedAt', 'is', null).doNothing())
    .returning(POLICY_COLUMNS)
    .executeTakeFirst();
}

export async function updatePolicy(db: Executor, organizationId: string, id: string, v: PolicyValues, by: number): Promise<PolicyRow> {
  return db
    .updateTable('securityPolicies')
    .set({
      name: v.name,
      description: v.description,
      definition: JSON.stringify(v.definition),
      version: v.version,
      isActive: v.isActive,
      updatedBy: by,
      updatedAt: sql<Date>`now()`,
    })
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .returning(POLICY_COLUMNS)
    .executeTakeFirstOrThrow();
}

export async function markPolicyDeleted(db: Executor, organizationId: string, id: string, by: number): Promise<void> {
  await db
    .updateTable('securityPolicies')
    .set({ deletedAt: sql<Date>`now()`, updatedAt: sql<Date>`now()`, updatedBy: by, isActive: false })
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .execute();
}

export async function insertPolicyVersion(
  db: Executor,
  p: PolicyRow,
  operation: SecurityPolicyVersionsTable['operation'],
  by: number,
): Promise<void> {
  await db
    .insertInto('securityPolicyVersions')
    .values({
      organizationId: p.organizationId,
      policyId: p.id,
      operation,
      name: p.name,
      description: p.description,
      definition: JSON.stringify(p.definition),
      version: p.version,
      isActive: p.isActive,
      changedBy: by,
    })
    .execute();
}

// ---------------------------------------------------------------- compliance facts

/** Active people of the organization without a second factor. */
export async function activeUsersWithoutMfa(db: Executor, organizationId: string): Promise<{ email: string }[]> {
  return db
    .selectFrom('users')
    .select('email')
    .where('organizationId', '=', organizationId)
    .where('isActive', '=', true)
    .where('mfaEnabled', '=', false)
    .orderBy('email')
    .execute();
}

export async function countActiveUsers(db: Executor, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organizationId', '=', organizationId)
    .where('isActive', '=', true)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function defaultRetentionYears(db: Executor, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('organizations')
    .select('defaultRetentionYears')
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
  return row.defaultRetentionYears;
}

export type VaultedObjectRow = { id: string; objectKey: string; sha256: string; retainUntil: Date; path: string };

/**
 * The organization's vaulted files (destroyed ones left out): all of them when limit is 0, otherwise a random
 * sample of that many, so repeated checks cover different files.
 */
export async function vaultedObjects(
  db: Executor,
  organizationId: string,
  limit: number,
): Promise<{ rows: VaultedObjectRow[]; total: number }> {
  const total = await db
    .selectFrom('vaultObjects')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('organizationId', '=', organizationId)
    .where('state', '=', 'vaulted')
    .executeTakeFirstOrThrow();
  let q = db
    .selectFrom('vaultObjects')
    .select(['id', 'objectKey', 'sha256', 'retainUntil', 'path'])
    .where('organizationId', '=', organizationId)
    .where('state', '=', 'vaulted');
  q = limit > 0 ? q.orderBy(sql`random()`).limit(limit) : q.orderBy('vaultedAt').orderBy('id');
  return { rows: await q.execute(), total: Number(total.n) };
}

/** Entries of the organization's log older than the given days that are still in the database (not archived). */
export async function countUnarchivedOlderThan(
  db: Executor,
  organizationId: string,
  days: number,
): Promise<{ count: number; oldest: Date | null }> {
  const row = await db
    .selectFrom('auditLogs')
    .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.min('createdAt').as('oldest')])
    .where('organizationId', '=', organizationId)
    .where('archived', '=', false)
    .where('createdAt', '<', sql<Date>`now() - make_interval(days => ${days})`)
    .executeTakeFirstOrThrow();
  return { count: Number(row.n), oldest: row.oldest ? new Date(row.oldest as Date) : null };
}

/**
 * Active administrators who have not signed in within the given days (a session started counts as a sign-in);
 * an account younger than the window is not yet due.
 */
export async function adminsWithoutRecentSignIn(db: Executor, organizationId: string, days: number) {
  return db
    .selectFrom('users')
    .leftJoin('sessions', (j) => j.onRef('sessions.userId', '=', 'users.id').onRef('sessions.organizationId', '=', 'users.organizationId'))
    .select(['users.email', (eb) => eb.fn.max('sessions.createdAt').as('lastSignInAt')])
    .where('users.organizationId', '=', organizationId)
    .where('users.role', '=', 'admin')
    .where('users.isActive', '=', true)
    .where('users.createdAt', '<', sql<Date>`now() - make_interval(days => ${days})`)
    .groupBy(['users.id', 'users.email'])
    .having((eb) =>
      eb.or([
        eb(eb.fn.max('sessions.createdAt'), 'is', null),
        eb(eb.fn.max('sessions.createdAt'), '<', sql<Date>`now() - make_interval(days => ${days})`),
      ]),
    )
    .orderBy('users.email')
    .execute();
}

export async function insertComplianceReport(
  db: Executor,
  organizationId: string,
  by: number,
  summary: Record<string, unknown>,
  results: unknown[],
): Promise<{ id: string; generatedAt: Date }> {
  return db
    .insertInto('complianceReports')
    .values({ organizationId, requestedBy: by, summary: JSON.stringify(summary), results: JSON.stringify(results) })
    .returning(['id', 'generatedAt'])
    .executeTakeFirstOrThrow();
}

// ---------------------------------------------------------------- database facts (the DATABASE scan)

export async function installedExtensions(db: Executor): Promise<{ name: string; version: string }[]> {
  const r = await sql<{
    name: string;
    version: string;
  }>`select extname as name, extversion as version from pg_extension order by extname`.execute(db);
  return r.rows;
}

/** The role the server connects as: whether it is a superuser or may bypass row-level security or create roles. */
export async function currentRole(
  db: Executor,
): Promise<{ name: string; superuser: boolean; bypassRls: boolean; createRole: boolean; createDb: boolean }> {
  const r = await sql<{ name: string; superuser: boolean; bypassRls: boolean; createRole: boolean; createDb: boolean }>`
    select rolname as name, rolsuper as superuser, rolbypassrls as "bypassRls", rolcreaterole as "createRole", rolcreatedb as "createDb"
    from pg_roles where rolname = current_user`.execute(db);
  return r.rows[0]!;
}

/** Tables of the public schema that hold an organization_id column, and whether row-level security is on. */
export async function tenantTablesRls(db: Executor): Promise<{ table: string; rls: boolean }[]> {
  const r = await sql<{ table: string; rls: boolean }>`
    select c.relname as "table", c.relrowsecurity as rls
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and c.relkind = 'r'
      and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'organization_id' and not a.attisdropped)
    order by c.relname`.execute(db);
  return r.rows;
}

/** Whether this connection is encrypted (pg_stat_ssl); null where the server keeps no such view. */
export async function connectionSsl(db: Executor): Promise<boolean | null> {
  try {
    const r = await sql<{ ssl: boolean }>`select ssl from pg_stat_ssl where pid = pg_backend_pid()`.execute(db);
    return r.rows[0]?.ssl ?? null;
  } catch {
    return null;
  }
}

export async function serverVersion(db: Executor): Promise<string> {
  const r = await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db);
  return r.rows[0]!.v;
}

// ---------------------------------------------------------------- scans and assessments

export type FindingValues = {
  checkName: string;
  severity: 'CRITICAL' | 'HIGH' | 'MEDIUM' | 'LOW' | 'INFO';
  title: string;
  detail: string;
  recommendation: string;
};

export async function insertScan(
  db: Executor,
  organizationId: string,
  v: {
    targetType: 'APPLICATION' | 'INFRASTRUCTURE' | 'DATABASE' | 'NETWORK';
    targetIdentifier: string;
    by: number;
    total: number;
    bySeverity: Record<string, number>;
  },
): Promise<{ id: string; createdAt: Date }> {
  return db
    .insertInto('vulnerabilityScans')
    .values({
      organizationId,
      targetType: v.targetType,
      targetIdentifier: v.targetIdentifier,
      requestedBy: v.by,
      totalVulnerabilities: v.total,
      bySeverity: JSON.stringify(v.bySeverity),
    })
    .returning(['id', 'createdAt'])
    .executeTakeFirstOrThrow();
}

export async function insertFindings(db: Executor, organizationId: string, scanId: string, findings: FindingValues[]) {
  if (findings.length === 0) return [];
  return db
    .insertInto('vulnerabilityFindings')
    .values(findings.map((f) => ({ organizationId, scanId, ...f })))
    .returning(['id', 'checkName', 'severity', 'title', 'detail', 'recommendation'])
    .execute();
}

/** The organization's scans of those ids (another organization's ids are simply not found). */
export async function scansByIds(db: Executor, organizationId: string, ids: string[]) {
  return db
    .selectFrom('vulnerabilityScans')
    .select(['id', 'targetType', 'targetIdentifier', 'totalVulnerabilities', 'bySeverity', 'createdAt'])
    .where('organizationId', '=', organizationId)
    .where('id', 'in', ids)
    .execute();
}

/** The worst findings of the scans, worst first. */
export async function worstFindings(db: Executor, organizationId: string, scanIds: string[], limit: number) {
  return db
    .selectFrom('vulnerabilityFindings')
    .select(['checkName', 'severity', 'title'])
    .where('organizationId', '=', organizationId)
    .where('scanId', 'in', scanIds)
    .where('severity', '!=', 'INFO')
    .orderBy(sql`case severity when 'CRITICAL' then 0 when 'HIGH' then 1 when 'MEDIUM' then 2 else 3 end`)
    .orderBy('title')
    .limit(limit)
    .execute();
}

export async function insertAssessment(
  db: Executor,
  organizationId: string,
  v: { scanIds: string[]; level: 'CRITICAL' | 'HIGH' | 'MEDIUM' | 'LOW'; summary: Record<string, unknown>; by: number },
): Promise<{ id: string }> {
  return db
    .insertInto('securityAssessments')
    .values({
      organizationId,
      scanIds: JSON.stringify(v.scanIds),
      overallRiskLevel: v.level,
      summary: JSON.stringify(v.summary),
      requestedBy: v.by,
    })
    .returning(['id'])
    .executeTakeFirstOrThrow();
}
