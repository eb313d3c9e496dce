import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Upload integrity:
 * - an upload session gains the state 'completing': one completion holds it (claim_id, claimed_at as its lease,
 *   renewed while it works) from before the parts are joined until the file node is written, so no second
 *   completion or abort can join, hash or remove the same upload meanwhile; a claim whose lease ran out (the
 *   process died) may be taken over by a retry;
 * - organizations gain a storage quota in bytes (null: the server's STORAGE_QUOTA_BYTES, or no limit).
 */
const up: string[] = [
  `alter table upload_sessions drop constraint upload_sessions_status_check`,
  `alter table upload_sessions add constraint upload_sessions_status_check
     check (status in ('pending', 'completing', 'completed', 'aborted', 'failed', 'expired'))`,
  `alter table upload_sessions add column claim_id uuid`,
  `alter table upload_sessions add column claimed_at timestamptz`,
  `alter table upload_sessions add constraint upload_sessions_claim_check
     check (status <> 'completing' or (claim_id is not null and claimed_at is not null))`,
  // Bytes reserved by uploads in flight are summed per organization at every presign and completion.
  `create index upload_sessions_in_flight on upload_sessions (organization_id) where status in ('pending', 'completing')`,
  `alter table organizations add column storage_quota_bytes bigint check (storage_quota_bytes is null or storage_quota_bytes >= 0)`,
];

export const uploadIntegrity: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of up) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const statement of [
      `alter table organizations drop column storage_quota_bytes`,
      `drop index if exists upload_sessions_in_flight`,
      `alter table upload_sessions drop constraint upload_sessions_claim_check`,
      `update upload_sessions set status = 'pending' where status = 'completing'`,
      `alter table upload_sessions drop column claimed_at`,
      `alter table upload_sessions drop column claim_id`,
      `alter table upload_sessions drop constraint upload_sessions_status_check`,
      `alter table upload_sessions add constraint upload_sessions_status_check
         check (status in ('pending', 'completed', 'aborted', 'failed', 'expired'))`,
    ]) {
      await sql.raw(statement).execute(db);
    }
  },
};
