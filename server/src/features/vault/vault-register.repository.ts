/**
 * The vault register's reads: the organization's vaulted matters in name order, a batch at a time (keyset, so
 * each batch is an index range however deep), and the newest vault certificate of each matter of a batch.
 */
import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';

export type RegisterCursor = { matterName: string; id: string };

/** The next `limit` vaulted matters of the organization after `after`, by name then id. */
export function vaultedMattersAfter(db: Executor, organizationId: string, after: RegisterCursor | null, limit: number) {
  let q = db
    .selectFrom('matters')
    .select(['id', 'matterName', 'matterNumber', 'clientName', 'vaultedAt', 'retentionExpiresAt', 'legalHold'])
    .where('organizationId', '=', organizationId)
    .where('isVaulted', '=', true);
  if (after) q = q.where(sql<boolean>`(matter_name, id) > (${after.matterName}, ${after.id}::uuid)`);
  return q.orderBy('matterName').orderBy('id').limit(limit).execute();
}

/** How many vaulted matters the organization has (the export's audit entry records it). */
export async function countRegister(db: Executor, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('matters')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('organizationId', '=', organizationId)
    .where('isVaulted', '=', true)
    .executeTakeFirstOrThrow();
  return row.n;
}

/** Each matter's newest vault certificate: its id and the fingerprint (keyId) of the key that signed it. */
export async function newestVaultCertificates(
  db: Executor,
  organizationId: string,
  matterIds: string[],
): Promise<Map<string, { id: string; keyFingerprint: string | null }>> {
  if (matterIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('vaultCertificates')
    .select(['id', 'matterId', sql<string | null>`body->>'keyId'`.as('keyFingerprint')])
    .where('organizationId', '=', organizationId)
    .where('matterId', 'in', matterIds)
    .where('kind', '=', 'vault')
    .orderBy('issuedAt')
    .orderBy('id')
    .execute();
  // Oldest first: the newest of each matter is the one left in the map.
  return new Map(rows.map((r) => [r.matterId, { id: r.id, keyFingerprint: r.keyFingerprint }]));
}
