import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Passkeys (WebAuthn credentials) of a person: the credential's id as the browser names it, its COSE public key,
 * the signature counter last seen (a counter that does not go forward marks a cloned credential), its transports,
 * whether it is synced (device_type multiDevice, backed_up) and when it was registered and last used.
 * webauthn_challenges: each ceremony's random challenge, single use and short-lived; a passwordless sign-in's
 * challenge names no organization or person yet. passkey_settings: whether an organization lets its people sign
 * in with a passkey alone (off unless an administrator turns it on).
 */
export const passkeys: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create table passkeys (
      id uuid primary key default gen_random_uuid(),
      organization_id uuid not null references organizations (id) on delete cascade,
      user_id integer not null references users (id) on delete cascade,
      credential_id text not null unique,
      public_key bytea not null,
      sign_count bigint not null default 0,
      transports text[] not null default '{}',
      device_type text not null,
      backed_up boolean not null,
      backup_eligible boolean not null,
      name text not null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz
    )`.execute(db);
    await sql`create index passkeys_org_user on passkeys (organization_id, user_id, created_at)`.execute(db);
    await sql`create table webauthn_challenges (
      id uuid primary key default gen_random_uuid(),
      organization_id uuid references organizations (id) on delete cascade,
      user_id integer references users (id) on delete cascade,
      session_id uuid,
      purpose text not null check (purpose in ('register', 'second-factor', 'sign-in', 'step-up')),
      operation text,
      challenge text not null unique,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      consumed_at timestamptz
    )`.execute(db);
    await sql`create index webauthn_challenges_expiry on webauthn_challenges (expires_at)`.execute(db);
    await sql`create table passkey_settings (
      organization_id uuid primary key references organizations (id) on delete cascade,
      allow_passkey_sign_in boolean not null default false,
      updated_at timestamptz not null default now(),
      updated_by integer references users (id)
    )`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table if exists passkey_settings`.execute(db);
    await sql`drop table if exists webauthn_challenges`.execute(db);
    await sql`drop table if exists passkeys`.execute(db);
  },
};
