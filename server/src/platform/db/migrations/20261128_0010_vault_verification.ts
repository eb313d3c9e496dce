import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Continuous verification of the vault, retention end, and the indexes of the vault's review page.
 *
 * - vault_verifications: one row per check of a vault object (its sha256 re-read and its lock compared with what
 *   was recorded when it was vaulted): when, whether it held, and what differed. The latest result is also kept
 *   on vault_objects (last_verified_at, last_verification_ok) for the schedule and the vault list.
 * - A matter has at most one destruction certificate, however often the retention-end job runs.
 * - The vault list reads only vaulted matters of one organization, sorted by name, client, vaulted date or
 *   retention end (id breaks ties): a partial index per order, so a page is an index range scan.
 * - The vault audit tab reads the entries that name the matter in their details (node and vault entries).
 */
const up: string[] = [
  `create table vault_verifications (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     matter_id uuid not null references matters(id),
     vault_object_id uuid not null references vault_objects(id),
     checked_at timestamptz not null default now(),
     ok boolean not null,
     problem text
   )`,
  `create index vault_verifications_object on vault_verifications (vault_object_id, checked_at desc)`,
  `create index vault_verifications_organization_matter on vault_verifications (organization_id, matter_id, checked_at desc)`,
  `create unique index vault_certificates_one_destruction_per_matter on vault_certificates (matter_id) where kind = 'destruction'`,
  `create index matters_vaulted_name on matters (organization_id, lower(matter_name), id) where is_vaulted`,
  `create index matters_vaulted_client on matters (organization_id, lower(client_name), id) where is_vaulted`,
  `create index matters_vaulted_at on matters (organization_id, vaulted_at, id) where is_vaulted`,
  `create index matters_vaulted_retention on matters (organization_id, retention_expires_at, id) where is_vaulted`,
  // The count of the list, with or without the legal-hold filter, read from the index alone.
  `create index matters_vaulted_hold on matters (organization_id, legal_hold) where is_vaulted`,
  // The vault's search (a substring of name or client, ignoring case) compares lower-cased text with LIKE, which
  // is several times cheaper per row than ILIKE; trigram indexes of the lower-cased columns of vaulted matters.
  `create index matters_vaulted_name_trgm on matters using gin (lower(matter_name) gin_trgm_ops) where is_vaulted`,
  `create index matters_vaulted_client_trgm on matters using gin (lower(client_name) gin_trgm_ops) where is_vaulted`,
  // Retention end looks for vaulted matters whose retention has passed and that are not held.
  `create index matters_retention_due on matters (retention_expires_at) where is_vaulted and not legal_hold`,
  `create index audit_logs_org_matter on audit_logs (organization_id, (details->>'matterId'), created_at desc) where details ? 'matterId'`,
  `create index audit_logs_org_target on audit_logs (organization_id, target_table, target_id)`,
];

export const vaultVerification: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of up) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const statement of [
      `drop index if exists audit_logs_org_target`,
      `drop index if exists audit_logs_org_matter`,
      `drop index if exists matters_retention_due`,
      `drop index if exists matters_vaulted_client_trgm`,
      `drop index if exists matters_vaulted_name_trgm`,
      `drop index if exists matters_vaulted_hold`,
      `drop index if exists matters_vaulted_retention`,
      `drop index if exists matters_vaulted_at`,
      `drop index if exists matters_vaulted_client`,
      `drop index if exists matters_vaulted_name`,
      `drop index if exists vault_certificates_one_destruction_per_matter`,
      `drop table if exists vault_verifications`,
    ]) {
      await sql.raw(statement).execute(db);
    }
  },
};
