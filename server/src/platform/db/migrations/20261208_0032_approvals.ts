import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Two people for what cannot be undone.
 *
 * approval_settings: which actions of an organization need a second administrator (none without a row), how long
 * a request waits before it expires, the folder size from which deleting a folder is governed, and how many days
 * before a vaulted matter's retention ends it enters the disposition review.
 *
 * approval_requests: one asked-for governed action: who asked, when and why, the call exactly as asked (its body
 * without the second-factor code), the preview of its effect and the state of what it touches when it was asked
 * (`touches`: compared again at approval, a difference voids the request), then the decision (who, when, why)
 * and the execution. A request is decided once (status moves from pending exactly once, under the row's lock)
 * and executed once (executed_at is set in the transaction that makes the change).
 *
 * users_keep_approvers: while any rule is on, an organization keeps two active administrators (someone must be
 * able to approve, the rules' own change included): a change of a user that would leave fewer is refused with
 * SQLSTATE SRA01, whatever path makes it.
 */
export const approvals: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create table approval_settings (
      organization_id uuid primary key references organizations (id) on delete cascade,
      actions jsonb not null default '[]',
      expiry_hours integer not null default 72,
      folder_file_threshold integer not null default 100,
      disposition_lead_days integer not null default 30,
      updated_at timestamptz not null default now()
    )`.execute(db);
    await sql`create table approval_requests (
      id uuid primary key default gen_random_uuid(),
      organization_id uuid not null references organizations (id) on delete cascade,
      action text not null,
      status text not null default 'pending' check (status in ('pending', 'approved', 'rejected', 'expired', 'void')),
      requested_by integer not null references users (id),
      requested_at timestamptz not null default now(),
      request_ip text,
      reason text,
      method text not null,
      path text not null,
      parameters jsonb not null,
      preview jsonb not null,
      touches jsonb not null,
      expires_at timestamptz not null,
      decided_by integer references users (id),
      decided_at timestamptz,
      decision_reason text,
      void_reason text,
      executed_at timestamptz,
      outcome jsonb
    )`.execute(db);
    await sql`create index approval_requests_org_status on approval_requests (organization_id, status, requested_at desc)`.execute(db);
    // The expiry sweep reads only what still waits.
    await sql`create index approval_requests_pending_expiry on approval_requests (expires_at) where status = 'pending'`.execute(db);
    // Approved requests not yet carried out: what the execution job picks up after a crash.
    await sql`create function users_keep_approvers() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from approval_settings s where s.organization_id = new.organization_id and jsonb_array_length(s.actions) > 0)
           and (select count(*) from users u where u.organization_id = new.organization_id and u.role = 'admin' and u.is_active) < 2 then
          raise exception 'approval rules need two active administrators' using errcode = 'SRA01';
        end if;
        return null;
      end $$`.execute(db);
    await sql`create trigger users_keep_approvers after update of role, is_active on users for each row
      when (old.role = 'admin' and old.is_active and (new.role <> 'admin' or not new.is_active))
      execute function users_keep_approvers()`.execute(db);
    await sql`create index approval_requests_unexecuted on approval_requests (decided_at) where status = 'approved' and executed_at is null`.execute(
      db,
    );
  },
  async down(db: Kysely<unknown>) {
    await sql`drop trigger if exists users_keep_approvers on users`.execute(db);
    await sql`drop function if exists users_keep_approvers()`.execute(db);
    await sql`drop table if exists approval_requests`.execute(db);
    await sql`drop table if exists approval_settings`.execute(db);
  },
};
