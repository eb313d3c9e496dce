import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Matters, their folder and file tree, upload sessions, and the per-year counters behind generated matter
 * numbers. Vault and legal hold columns are here already (a later issue fills them); their restrictions are
 * enforced now.
 */
const up: string[] = [
  `create table matters (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     matter_name text not null check (char_length(matter_name) between 1 and 255),
     matter_number text,
     client_name text,
     description text check (description is null or char_length(description) <= 2000),
     responsible_lawyer text,
     status text not null default 'Open' check (status in ('Open', 'Vaulted')),
     is_vaulted boolean not null default false,
     legal_hold boolean not null default false,
     hold_reason text,
     retention_expires_at timestamptz,
     vaulted_at timestamptz,
     version integer not null default 1,
     created_by integer references users(id),
     updated_by integer references users(id),
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     check (is_vaulted = (status = 'Vaulted'))
   )`,
  // Matter numbers are unique per organization, ignoring case.
  `create unique index matters_org_number_unique on matters (organization_id, lower(matter_number)) where matter_number is not null`,
  // List orderings (each ends with id, the tiebreaker) and the filters on client and lawyer.
  `create index matters_org_created on matters (organization_id, created_at, id)`,
  `create index matters_org_name on matters (organization_id, lower(matter_name), id)`,
  `create index matters_org_client on matters (organization_id, lower(client_name), id)`,
  `create index matters_org_lawyer on matters (organization_id, lower(responsible_lawyer), id)`,
  `create index matters_org_vaulted on matters (organization_id, is_vaulted, id)`,
  // Substring search (ILIKE '%q%') over name, number, client and description: one trigram index per column,
  // combined by a BitmapOr; client and lawyer ones also serve the suggestions.
  `create index matters_name_trgm on matters using gin (matter_name gin_trgm_ops)`,
  `create index matters_number_trgm on matters using gin (matter_number gin_trgm_ops)`,
  `create index matters_client_trgm on matters using gin (client_name gin_trgm_ops)`,
  `create index matters_description_trgm on matters using gin (description gin_trgm_ops)`,
  `create index matters_lawyer_trgm on matters using gin (responsible_lawyer gin_trgm_ops)`,
  `create table matter_number_counters (
     organization_id uuid not null references organizations(id),
     year integer not null,
     last_value integer not null,
     primary key (organization_id, year)
   )`,
  `create table nodes (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     matter_id uuid not null references matters(id),
     parent_id uuid,
     name text not null check (char_length(name) between 1 and 255),
     node_type text not null check (node_type in ('file', 'folder')),
     file_size bigint,
     mime_type text,
     sha256_hash text,
     storage_path text,
     upload_id text,
     upload_status text,
     upload_progress integer,
     created_by integer references users(id),
     created_at timestamptz not null default now(),
     updated_at timestamptz not null default now(),
     unique (matter_id, id),
     -- A parent is a node of the same matter.
     foreign key (matter_id, parent_id) references nodes (matter_id, id),
     check (node_type = 'folder' or (storage_path is not null and sha256_hash is not null and file_size is not null))
   )`,
  // Names are unique within a folder (the root counts as one), ignoring case.
  `create unique index nodes_name_unique on nodes (matter_id, coalesce(parent_id, '00000000-0000-0000-0000-000000000000'::uuid), lower(name))`,
  `create index nodes_parent on nodes (parent_id)`,
  `create unique index nodes_storage_path on nodes (storage_path) where storage_path is not null`,
  `create table upload_sessions (
     id uuid primary key default gen_random_uuid(),
     organization_id uuid not null references organizations(id),
     user_id integer not null references users(id),
     matter_id uuid not null references matters(id),
     parent_id uuid,
     s3_key text not null unique,
     upload_id text,
     file_name text not null,
     file_type text not null,
     file_size bigint,
     kind text not null check (kind in ('standard', 'multipart')),
     status text not null default 'pending' check (status in ('pending', 'completed', 'aborted', 'failed', 'expired')),
     node_id uuid,
     created_at timestamptz not null default now(),
     expires_at timestamptz not null,
     finished_at timestamptz,
     check ((kind = 'multipart') = (upload_id is not null))
   )`,
  `create index upload_sessions_pending on upload_sessions (expires_at) where status = 'pending'`,
  `create index upload_sessions_user on upload_sessions (user_id, status)`,
];

export const matters: Migration = {
  async up(db: Kysely<unknown>) {
    for (const statement of up) await sql.raw(statement).execute(db);
  },
  async down(db: Kysely<unknown>) {
    for (const t of ['upload_sessions', 'nodes', 'matter_number_counters', 'matters']) {
      await sql.raw(`drop table if exists ${t} cascade`).execute(db);
    }
  },
};
