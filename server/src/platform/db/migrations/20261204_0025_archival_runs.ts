import { sql, type Kysely, type Migration } from 'kysely';

/**
 * audit_archival_runs: one archival of an organization's old audit entries, run by a durable background job.
 * The request records the run (who asked, when, the cut-off) and enqueues its job in one transaction; the job
 * archives batch by batch and counts its progress (entries_done of entries_total, batches, bytes) in each
 * batch's transaction. At most one run of an organization is queued or running at a time (the partial unique
 * index): a second request while one is under way answers that run.
 */
const up: string[] = [
  `create table audit_archival_runs (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     requested_by integer references users(id),
     requested_at timestamptz not null default now(),
     cutoff timestamptz not null,
     state text not null default 'queued' check (state in ('queued', 'running', 'completed', 'failed')),
     entries_total integer not null,
     entries_done integer not null default 0,
     batches integer not null default 0,
     bytes bigint not null default 0,
     message text,
     started_at timestamptz,
     finished_at timestamptz
   )`,
  `create unique index audit_archival_runs_active on audit_archival_runs (organization_id) where state in ('queued', 'running')`,
  `create index audit_archival_runs_latest on audit_archival_runs (organization_id, requested_at desc)`,
];

export const archivalRuns: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of up) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql.raw(`drop table if exists audit_archival_runs`).execute(db);
  },
};
