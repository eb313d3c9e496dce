import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Single sign-on with OpenID Connect.
 * - organization_sso: an organization's one provider (issuer, client id, the client secret encrypted at rest), and
 *   its switches: enabled, just-in-time accounts with their role, Require SSO, whether the provider's MFA counts.
 * - organization_sso_domains: the email domains an organization has verified; a domain belongs to one organization
 *   across the installation (its primary key), so a firm cannot claim another's people.
 * - user_identities: a person linked to the provider's subject; unique per (organization, issuer, subject), one link
 *   per person. Never created from an email address alone.
 * - sso_login_states: a sign-in or a link started at the provider: the state's sha256, the nonce and PKCE verifier,
 *   what it was for, spent once (consumed_at) and good for ten minutes, so a replayed callback is refused.
 * - pending_logins.via: whether a pending sign-in came from the password or from the provider.
 */
export const sso: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create table organization_sso (
      organization_id uuid primary key references organizations (id) on delete cascade,
      display_name text not null,
      issuer text not null,
      client_id text not null,
      client_secret text not null,
      enabled boolean not null default true,
      jit_enabled boolean not null default false,
      jit_role text not null default 'user' check (jit_role in ('user', 'guest')),
      require_sso boolean not null default false,
      provider_mfa_counts boolean not null default false,
      updated_at timestamptz not null default now(),
      updated_by integer references users (id) on delete set null
    )`.execute(db);
    await sql`create table organization_sso_domains (
      domain text primary key check (domain = lower(domain)),
      organization_id uuid not null references organizations (id) on delete cascade
    )`.execute(db);
    await sql`create index organization_sso_domains_org on organization_sso_domains (organization_id)`.execute(db);
    await sql`create table user_identities (
      id uuid primary key default gen_random_uuid(),
      organization_id uuid not null references organizations (id) on delete cascade,
      user_id integer not null unique references users (id) on delete cascade,
      issuer text not null,
      subject text not null,
      created_at timestamptz not null default now(),
      unique (organization_id, issuer, subject)
    )`.execute(db);
    await sql`create table sso_login_states (
      state_hash text primary key,
      organization_id uuid not null references organizations (id) on delete cascade,
      nonce text not null,
      code_verifier text not null,
      intent text not null check (intent in ('sign-in', 'link')),
      user_id integer references users (id) on delete cascade,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      consumed_at timestamptz
    )`.execute(db);
    await sql`create index sso_login_states_org on sso_login_states (organization_id, created_at)`.execute(db);
    await sql`alter table pending_logins add column via text not null default 'password' check (via in ('password', 'sso'))`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`alter table pending_logins drop column if exists via`.execute(db);
    await sql`drop table if exists sso_login_states`.execute(db);
    await sql`drop table if exists user_identities`.execute(db);
    await sql`drop table if exists organization_sso_domains`.execute(db);
    await sql`drop table if exists organization_sso`.execute(db);
  },
};
