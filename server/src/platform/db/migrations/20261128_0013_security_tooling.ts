import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Security tooling of an organization's administrators.
 *
 * - security_policies: the current version of each policy (name unique among the organization's live policies; a
 *   deleted policy keeps its row with deleted_at, so its name can be used again and its history stays readable).
 * - security_policy_versions: every version a policy had (created, each update, the deletion), never changed.
 * - compliance_reports: each compliance check run with its results.
 * - vulnerability_scans and vulnerability_findings: each scan of a target and what it found, by severity.
 * - security_assessments: scans combined into one risk level.
 */
const up: string[] = [
  `create table security_policies (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     name text not null,
     description text not null,
     definition jsonb not null default '{}'::jsonb,
     version integer not null check (version > 0),
     is_active boolean not null default true,
     created_by integer references users(id),
     updated_by integer references users(id),
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     deleted_at timestamptz
   )`,
  `create unique index security_policies_live_name on security_policies (organization_id, name) where deleted_at is null`,
  `create table security_policy_versions (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     policy_id uuid not null references security_policies(id),
     operation text not null check (operation in ('create', 'update', 'delete')),
     name text not null,
     description text not null,
     definition jsonb not null,
     version integer not null,
     is_active boolean not null,
     changed_by integer references users(id),
     changed_at timestamptz not null default now(),
     unique (policy_id, version, operation)
   )`,
  `create table compliance_reports (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     requested_by integer references users(id),
     generated_at timestamptz not null default now(),
     summary jsonb not null,
     results jsonb not null
   )`,
  `create index compliance_reports_org on compliance_reports (organization_id, generated_at desc)`,
  `create table vulnerability_scans (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     target_type text not null check (target_type in ('APPLICATION', 'INFRASTRUCTURE', 'DATABASE', 'NETWORK')),
     target_identifier text not null,
     requested_by integer references users(id),
     total_vulnerabilities integer not null,
     by_severity jsonb not null,
     created_at timestamptz not null default now()
   )`,
  `create index vulnerability_scans_org on vulnerability_scans (organization_id, created_at desc)`,
  `create table vulnerability_findings (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     scan_id uuid not null references vulnerability_scans(id),
     check_name text not null,
     severity text not null check (severity in ('CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO')),
     title text not null,
     detail text not null,
     recommendation text not null
   )`,
  `create index vulnerability_findings_scan on vulnerability_findings (organization_id, scan_id)`,
  `create table security_assessments (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     scan_ids jsonb not null,
     overall_risk_level text not null check (overall_risk_level in ('CRITICAL', 'HIGH', 'MEDIUM', 'LOW')),
     summary jsonb not null,
     requested_by integer references users(id),
     created_at timestamptz not null default now()
   )`,
];

export const securityTooling: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of up) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const table of [
      'security_assessments',
      'vulnerability_findings',
      'vulnerability_scans',
      'compliance_reports',
      'security_policy_versions',
      'security_policies',
    ]) {
      await sql.raw(`drop table if exists ${table}`).execute(db);
    }
  },
};
