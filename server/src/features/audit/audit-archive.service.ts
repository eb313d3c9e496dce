/**
 * What archival does to the audit log's entries, named for what it does. The audit feature (with the shared
 * writer that appends entries) is the one writer of the audit log: archival moves an entry's details into its
 * batch in the store and marks the entry archived through these operations.
 */
import type { Executor } from '../../platform/db/database.js';
import { lockRange, markArchived } from './audit.repository.js';

/** The entries of seq from..to of the organization's chain, locked for the rest of the archival's transaction. */
export function lockEntriesForArchival(trx: Executor, organizationId: string, fromSeq: string, toSeq: string) {
  return lockRange(trx, organizationId, fromSeq, toSeq);
}

/**
 * Marks the entries of seq from..to archived in the batch and clears their details from the database (the batch
 * holds them); answers how many changed. The caller holds their lock.
 */
export function markEntriesArchived(
  trx: Executor,
  organizationId: string,
  fromSeq: string,
  toSeq: string,
  batchId: string,
): Promise<number> {
  return markArchived(trx, organizationId, fromSeq, toSeq, batchId);
}
