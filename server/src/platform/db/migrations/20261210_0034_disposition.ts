import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The disposition review: retention end never destroys silently.
 *
 * disposition_reviews: one vaulted matter's review of one retention end (a matter whose retention is extended gets
 * a new review of the new end when that comes near). It enters as 'due' N days before the end (the organization's
 * approval_settings.disposition_lead_days, else 30); an administrator's decision moves it to 'approved' (who
 * approved it, and the approval request when a second administrator had to), 'extended' or 'held'. A held review
 * whose matter's hold is lifted is due again. The retention-end job destroys only a matter whose review of its
 * current end is approved, and checks that under the matter's row lock; the certificate of destruction names the
 * review, its request and its approvers. 'destroyed' is read from the certificate.
 *
 * disposition_reminder_days: the days an organization's administrators were reminded of overdue reviews (at most
 * once a day: the day is claimed before the notification and the mails go out).
 */
export const disposition: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create table disposition_reviews (
      id uuid primary key default gen_random_uuid(),
      organization_id uuid not null references organizations (id) on delete cascade,
      matter_id uuid not null references matters (id) on delete cascade,
      retention_expires_at timestamptz not null,
      status text not null default 'due' check (status in ('due', 'approved', 'extended', 'held')),
      queued_at timestamptz not null default now(),
      decided_by integer references users (id),
      decided_at timestamptz,
      decision_reason text,
      extended_to timestamptz,
      approval_request_id uuid,
      approved_by jsonb not null default '[]',
      approved_at timestamptz,
      unique (organization_id, matter_id, retention_expires_at)
    )`.execute(db);
    await sql`create index disposition_reviews_org_status on disposition_reviews (organization_id, status, retention_expires_at)`.execute(
      db,
    );
    await sql`create table disposition_reminder_days (
      organization_id uuid not null references organizations (id) on delete cascade,
      day text not null check (day ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
      overdue integer not null,
      created_at timestamptz not null default now(),
      primary key (organization_id, day)
    )`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table if exists disposition_reminder_days`.execute(db);
    await sql`drop table if exists disposition_reviews`.execute(db);
  },
};
