import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Reading the audit log, and the signed heads of its chains.
 *
 * - The list reads one organization's entries newest first (audit_logs_org_created exists), filtered by action or
 *   by actor (a person who is not an administrator sees their own entries), or sorted by action or target table:
 *   an index per order, with time and id breaking ties in the same direction as the sort key (read forwards for
 *   ascending, backwards for descending), so a page is an index range scan.
 * - Search looks for a substring of the action, the actor, the target and the details' text: one trigram index
 *   over that text.
 * - The integrity check and the export walk a chain in sequence order: (chain_key, seq) is unique already.
 * - audit_signed_heads: each signature of a chain head (daily, after an archival, or asked for), with the object
 *   key it was stored under with a write-once lock. The newest one is what the integrity check compares with.
 */
const up: string[] = [
  `create index audit_logs_org_action on audit_logs (organization_id, action, created_at, id)`,
  `create index audit_logs_org_actor on audit_logs (organization_id, actor_id, created_at desc, id desc)`,
  `create index audit_logs_org_target_table on audit_logs (organization_id, (coalesce(target_table, '')), created_at, id)`,
  `create index audit_logs_search_trgm on audit_logs using gin ((lower(action || ' ' || coalesce(actor_name, '') || ' ' || coalesce(actor_email, '') || ' ' || coalesce(target_table, '') || ' ' || coalesce(target_id, '') || ' ' || details::text)) gin_trgm_ops)`,
  `create table audit_signed_heads (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     chain_key text not null,
     seq bigint not null,
     hash text not null,
     signed_at timestamptz not null,
     reason text not null,
     object_key text not null,
     key_id text not null,
     signature text not null,
     unique (chain_key, seq)
   )`,
];

export const audit: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of up) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const statement of [
      `drop table if exists audit_signed_heads`,
      `drop index if exists audit_logs_search_trgm`,
      `drop index if exists audit_logs_org_target_table`,
      `drop index if exists audit_logs_org_actor`,
      `drop index if exists audit_logs_org_action`,
    ]) {
      await sql.raw(statement).execute(db);
    }
  },
};
