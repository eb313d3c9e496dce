import { sql, type Kysely, type Migration } from 'kysely';

/**
 * api_tokens: a person's API tokens for the firm's own tools. Only the token's sha256 is kept (token_hash), with
 * its first characters to tell tokens apart (prefix), its scopes, its expiry (at most a year), when it was last
 * used, and when and by whom it was revoked. A token is live while not revoked, not expired, and its person active.
 */
export const apiTokens: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create table api_tokens (
      id uuid primary key default gen_random_uuid(),
      organization_id uuid not null references organizations (id) on delete cascade,
      user_id integer not null references users (id) on delete cascade,
      name text not null,
      token_hash text not null unique,
      prefix text not null,
      scopes jsonb not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      last_used_at timestamptz,
      revoked_at timestamptz,
      revoked_by integer references users (id)
    )`.execute(db);
    await sql`create index api_tokens_org_user on api_tokens (organization_id, user_id, created_at desc)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table if exists api_tokens`.execute(db);
  },
};
