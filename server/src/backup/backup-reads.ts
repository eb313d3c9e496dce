/**
 * What backup and restore read of the product's tables to check their work: the objects the rows name, and each
 * stored file's recorded sha256. Reads only; the rows themselves are copied by platform/db/backup-tables.ts.
 */
import { sql } from 'kysely';
import type { Executor } from '../platform/db/database.js';

/** Every object key a row names: file versions, current files, vault objects not destroyed, certificates. */
export async function namedObjectKeys(db: Executor): Promise<string[]> {
  const { rows } = await sql<{ key: string }>`
    select storage_path as key from nodes where storage_path is not null
    union select storage_path from node_versions
    union select object_key from vault_objects where state = 'vaulted'
    union select object_key from vault_certificates
    union select object_key from audit_signed_heads
    order by 1`.execute(db);
  return rows.map((r) => r.key);
}

/** A stored object a row vouches for by its sha256 (a file, one of its versions, a vault object, a certificate). */
export type RecordedObject = { kind: 'file' | 'version' | 'vault' | 'certificate'; id: string; key: string; sha256: string | null };

export async function recordedObjects(db: Executor): Promise<RecordedObject[]> {
  const { rows } = await sql<RecordedObject>`
    select 'file' as kind, id::text, storage_path as key, sha256_hash as sha256 from nodes where storage_path is not null
    union all select 'version', id::text, storage_path, sha256_hash from node_versions
    union all select 'vault', id::text, object_key, sha256 from vault_objects where state = 'vaulted'
    union all select 'certificate', id::text, object_key, sha256 from vault_certificates`.execute(db);
  return rows;
}

export async function restoredCounts(
  db: Executor,
): Promise<{ organizations: number; matters: number; files: number; versions: number; auditEntries: number }> {
  const { rows } = await sql<{ organizations: number; matters: number; files: number; versions: number; auditEntries: number }>`
    select (select count(*)::int from organizations) as organizations,
           (select count(*)::int from matters) as matters,
           (select count(*)::int from nodes where storage_path is not null) as files,
           (select count(*)::int from node_versions) as versions,
           (select count(*)::int from audit_logs) as audit_entries`.execute(db);
  return rows[0]!;
}

/** Whether the installation holds anything an operator made: an organization or a user. */
export async function hasAccounts(db: Executor): Promise<boolean> {
  const { rows } = await sql<{ any: boolean }>`
    select exists (select 1 from organizations) or exists (select 1 from users) as any`.execute(db);
  return rows[0]!.any;
}

export async function certificateKeyIds(db: Executor): Promise<Array<{ id: string; objectKey: string; keyId: string | null }>> {
  const { rows } = await sql<{ id: string; objectKey: string; keyId: string | null }>`
    select id::text, object_key, body->>'keyId' as key_id from vault_certificates order by issued_at`.execute(db);
  return rows;
}
