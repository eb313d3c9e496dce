import { sql, type Kysely, type Migration } from 'kysely';

/**
 * signing_keys: the installation's Ed25519 signing keys, current and retired (installation-wide, no organization).
 * Only a cache of the write-once records under vault/signing-keys/ in the object store: a key is trusted or
 * published only when its write-once record holds the same public key.
 */
export const signingKeys: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`create table signing_keys (
      key_id text primary key,
      algorithm text not null check (algorithm = 'Ed25519'),
      public_key_pem text not null,
      not_before timestamptz not null,
      not_after timestamptz
    )`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`drop table if exists signing_keys`.execute(db);
  },
};
