import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The vault: a matter's transfer into write-once storage, the objects it put there and the signed certificates.
 *
 * - vault_transfers: one row per vaulted matter, the state of its durable transfer job and its progress.
 * - vault_objects: one row per file in the vault (at most one per node: a file is vaulted exactly once), with the
 *   lock it was written under and the result of its last continuous verification.
 * - vault_certificates: the signed certificates (vault, destruction) as stored in the vault, with the sha256 of the
 *   stored bytes; a matter has at most one vault certificate, so a re-run of the transfer never writes a second.
 *
 * vault_objects.node_id does not reference nodes: the row outlives the node when retention ends and the file is
 * destroyed (state 'destroyed'), as the record of what was kept and removed.
 */
const up: string[] = [
  `create table vault_transfers (
     matter_id uuid primary key references matters(id),
     organization_id uuid not null references organizations(id),
     state text not null default 'pending' check (state in ('pending', 'transferring', 'completed', 'failed')),
     retention_expires_at timestamptz,
     files_total integer not null default 0,
     files_done integer not null default 0,
     bytes_total bigint not null default 0,
     bytes_done bigint not null default 0,
     attempts integer not null default 0,
     last_error text,
     started_at timestamptz not null default now(),
     completed_at timestamptz
   )`,
  `create index vault_transfers_organization_state on vault_transfers (organization_id, state)`,
  `create table vault_objects (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     matter_id uuid not null references matters(id),
     node_id uuid not null unique,
     path text not null,
     object_key text not null,
     version_id text,
     sha256 text not null,
     size bigint not null,
     storage_class text,
     retain_until timestamptz not null,
     legal_hold boolean not null,
     state text not null default 'vaulted' check (state in ('vaulted', 'destroyed')),
     vaulted_at timestamptz not null default now(),
     destroyed_at timestamptz,
     last_verified_at timestamptz,
     last_verification_ok boolean
   )`,
  `create index vault_objects_organization_matter on vault_objects (organization_id, matter_id)`,
  // The continuous verification takes the objects verified longest ago (never verified first).
  `create index vault_objects_verification_due on vault_objects (last_verified_at nulls first, id) where state = 'vaulted'`,
  `create table vault_certificates (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     matter_id uuid not null references matters(id),
     kind text not null check (kind in ('vault', 'destruction')),
     object_key text not null,
     sha256 text not null,
     issued_at timestamptz not null default now(),
     body jsonb not null
   )`,
  `create index vault_certificates_organization_matter on vault_certificates (organization_id, matter_id, kind)`,
  // A matter's vault certificate is written once, however often its transfer runs.
  `create unique index vault_certificates_one_vault_per_matter on vault_certificates (matter_id) where kind = 'vault'`,
];

export const vault: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of up) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const statement of [
      `drop table if exists vault_certificates`,
      `drop table if exists vault_objects`,
      `drop table if exists vault_transfers`,
    ]) {
      await sql.raw(statement).execute(db);
    }
  },
};
