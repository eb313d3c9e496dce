import { sql, type Kysely, type Migration } from 'kysely';

const up: string[] = [
  `create extension if not exists pgcrypto`,
  `create extension if not exists pg_trgm`,
  `create table organizations (
     id uuid primary key default gen_random_uuid(),
     name text not null,
     primary_contact_name text,
     primary_contact_email text,
     primary_contact_phone text,
     mfa_required boolean not null default true,
     default_retention_years integer not null default 7,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now()
   )`,
  `create table users (
     id serial primary key,
     public_id uuid not null unique default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     email text not null,
     full_name text not null,
     phone_number text,
     password_hash text not null,
     role text not null check (role in ('admin', 'user', 'guest')),
     permissions jsonb not null,
     is_active boolean not null default true,
     mfa_enabled boolean not null default false,
     mfa_primary_method text check (mfa_primary_method in ('totp', 'email')),
     totp_secret text,
     totp_pending_secret text,
     totp_last_used_step bigint,
     version integer not null default 1,
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now()
   )`,
  // One organization per user: an address signs in to exactly one account.
  `create unique index users_email_unique on users (lower(email))`,
  `create index users_organization on users (organization_id)`,
  `create table sessions (
     id uuid primary key default gen_random_uuid(),
     token_hash text not null unique,
     user_id integer not null references users(id) on delete cascade,
     organization_id uuid not null references organizations(id),
     created_at timestamptz not null default now(),
     last_seen_at timestamptz not null default now(),
     idle_expires_at timestamptz not null,
     absolute_expires_at timestamptz not null,
     revoked_at timestamptz,
     revoked_reason text,
     ip_address text,
     user_agent text
   )`,
  `create index sessions_user_live on sessions (user_id) where revoked_at is null`,
  `create table pending_logins (
     id uuid primary key default gen_random_uuid(),
     token_hash text not null unique,
     user_id integer not null references users(id) on delete cascade,
     created_at timestamptz not null default now(),
     expires_at timestamptz not null,
     failed_attempts integer not null default 0,
     ended_at timestamptz
   )`,
  `create table mfa_email_codes (
     id uuid primary key default gen_random_uuid(),
     user_id integer not null references users(id) on delete cascade,
     purpose text not null check (purpose in ('login', 'setup', 'action')),
     pending_login_id uuid references pending_logins(id) on delete cascade,
     code_hash text not null,
     expires_at timestamptz not null,
     attempts integer not null default 0,
     used_at timestamptz,
     created_at timestamptz not null default now()
   )`,
  `create index mfa_email_codes_user on mfa_email_codes (user_id, purpose) where used_at is null`,
  `create table system_mfa_tokens (
     id uuid primary key default gen_random_uuid(),
     token_hash text not null unique,
     user_id integer not null references users(id) on delete cascade,
     session_id uuid not null references sessions(id) on delete cascade,
     operation text not null,
     expires_at timestamptz not null,
     created_at timestamptz not null default now()
   )`,
  `create table password_reset_tokens (
     id uuid primary key default gen_random_uuid(),
     token_hash text not null unique,
     user_id integer not null references users(id) on delete cascade,
     expires_at timestamptz not null,
     used_at timestamptz,
     created_at timestamptz not null default now()
   )`,
  `create table invitations (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     email text not null,
     role text not null check (role in ('admin', 'user', 'guest')),
     token_hash text not null unique,
     invited_by integer not null references users(id),
     expires_at timestamptz not null,
     accepted_at timestamptz,
     revoked_at timestamptz,
     created_at timestamptz not null default now()
   )`,
  `create index invitations_open on invitations (organization_id) where accepted_at is null and revoked_at is null`,
  `create table feature_flags (
     organization_id uuid not null references organizations(id),
     flag_name text not null,
     enabled boolean not null,
     updated_at timestamptz not null default now(),
     primary key (organization_id, flag_name)
   )`,
  `create table audit_chain_heads (
     chain_key text primary key,
     last_seq bigint not null,
     last_hash text not null
   )`,
  `create table audit_logs (
     id bigserial primary key,
     organization_id uuid references organizations(id),
     chain_key text not null,
     seq bigint not null,
     actor_id integer references users(id),
     actor_name text,
     actor_email text,
     action text not null,
     target_table text,
     target_id text,
     details jsonb not null default '{}'::jsonb,
     ip_address text,
     created_at timestamptz not null,
     archived boolean not null default false,
     prev_hash text not null,
     hash text not null,
     unique (chain_key, seq)
   )`,
  `create index audit_logs_org_created on audit_logs (organization_id, created_at desc, id desc)`,
  `create table auth_throttle (
     key text primary key,
     failures integer not null,
     window_started_at timestamptz not null,
     locked_until timestamptz
   )`,
  `create table system_settings (
     key text primary key,
     value text not null,
     updated_at timestamptz not null default now()
   )`,
];

export const foundation: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of up) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const t of [
      'system_settings',
      'auth_throttle',
      'audit_logs',
      'audit_chain_heads',
      'feature_flags',
      'invitations',
      'password_reset_tokens',
      'system_mfa_tokens',
      'mfa_email_codes',
      'pending_logins',
      'sessions',
      'users',
      'organizations',
    ]) {
      await sql.raw(`drop table if exists ${t} cascade`).execute(db);
    }
  },
};
