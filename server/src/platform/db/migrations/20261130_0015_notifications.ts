import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Notifications are derived from the audit log and the vault's retention dates; only what each person did with
 * them is stored, by the notifications feature alone:
 * - notification_reads: one row per person and notification read (key `audit-<entry id>` or
 *   `retention-<matter id>-<YYYY-MM-DD>`), plus at most one row keyed `all` whose read_at marks everything up to
 *   that moment read ('Mark all as read');
 * - notification_mail_days: the day each administrator was sent the retention alerts by email, so the daily job
 *   sends at most one mail per person and day however often it runs.
 * The audit log's (organization_id, created_at desc, id desc) index serves the newest-first listing.
 */
export const notifications: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create table notification_reads (
      user_id integer not null references users(id) on delete cascade,
      notification_key text not null check (char_length(notification_key) <= 100),
      organization_id uuid not null references organizations(id),
      read_at timestamptz not null default now(),
      primary key (user_id, notification_key)
    )`.execute(db);
    await sql`create table notification_mail_days (
      user_id integer not null references users(id) on delete cascade,
      day text not null check (day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
      organization_id uuid not null references organizations(id),
      sent_at timestamptz not null default now(),
      primary key (user_id, day)
    )`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table if exists notification_mail_days`.execute(db);
    await sql`drop table if exists notification_reads`.execute(db);
  },
};
