import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Archival of old audit entries to write-once storage, and retrieval of their details.
 *
 * - audit_archive_batches: one compressed batch of an organization's entries (a run of sequence numbers) stored
 *   under a write-once lock: its object key, the sha256 of its bytes, the first and last sequence numbers, the
 *   hash before the first entry and the hash of the last, so a batch read back is checked against both.
 * - audit_logs.archive_batch_id: the batch an archived entry's details are in (null while not archived).
 * - audit_log_retrievals: a retrieval of one archived entry's details (in progress, cached for 24 hours, failed).
 */
const up: string[] = [
  `create table audit_archive_batches (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     object_key text not null unique,
     sha256 text not null,
     size_bytes bigint not null,
     first_seq bigint not null,
     last_seq bigint not null,
     entry_count integer not null,
     first_prev_hash text not null,
     last_hash text not null,
     retain_until timestamptz not null,
     archived_by integer references users(id),
     created_at timestamptz not null default now(),
     unique (organization_id, first_seq)
   )`,
  `alter table audit_logs add column archive_batch_id uuid references audit_archive_batches(id)`,
  `create index audit_logs_archivable on audit_logs (organization_id, seq) where not archived`,
  `create table audit_log_retrievals (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     log_id bigint not null references audit_logs(id),
     requested_by integer not null references users(id),
     status text not null check (status in ('in-progress', 'cached', 'failed')),
     details jsonb,
     message text,
     requested_at timestamptz not null default now(),
     estimated_completion_at timestamptz not null,
     completed_at timestamptz,
     expires_at timestamptz,
     unique (organization_id, log_id)
   )`,
  `create index audit_log_retrievals_requester on audit_log_retrievals (organization_id, requested_by, requested_at desc)`,
];

export const archival: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of up) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const statement of [
      `drop table if exists audit_log_retrievals`,
      `drop index if exists audit_logs_archivable`,
      `alter table audit_logs drop column if exists archive_batch_id`,
      `drop table if exists audit_archive_batches`,
    ]) {
      await sql.raw(statement).execute(db);
    }
  },
};
