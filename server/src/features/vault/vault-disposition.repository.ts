/**
 * What the vault reads of the disposition review and changes for it: the approved review a destruction needs (read
 * from the disposition feature's table, which the vault never writes), and the retain-until dates of a matter's
 * vault objects and transfer when an administrator extends its retention.
 */
import type { Executor } from '../../platform/db/database.js';

export type ApprovedReview = {
  id: string;
  approvalRequestId: string | null;
  approvedBy: Array<{ userId: number; name: string; email: string }>;
  approvedAt: Date;
};

/**
 * The review that approved destroying the matter at this retention end, or undefined: only such a matter is
 * destroyed. Read under the matter's row lock by the retention-end job, where every decision is also made.
 */
export async function approvedReviewFor(
  db: Executor,
  organizationId: string,
  matterId: string,
  retentionExpiresAt: Date,
): Promise<ApprovedReview | undefined> {
  const row = await db
    .selectFrom('dispositionReviews')
    .select(['id', 'approvalRequestId', 'approvedBy', 'approvedAt'])
    .where('organizationId', '=', organizationId)
    .where('matterId', '=', matterId)
    .where('retentionExpiresAt', '=', retentionExpiresAt)
    .where('status', '=', 'approved')
    .where('approvedAt', 'is not', null)
    .executeTakeFirst();
  return row ? { ...row, approvedAt: row.approvedAt! } : undefined;
}

/** The matter's latest approved review (the certificate of destruction names it), or undefined. */
export async function latestApprovedReview(db: Executor, organizationId: string, matterId: string): Promise<ApprovedReview | undefined> {
  const row = await db
    .selectFrom('dispositionReviews')
    .select(['id', 'approvalRequestId', 'approvedBy', 'approvedAt'])
    .where('organizationId', '=', organizationId)
    .where('matterId', '=', matterId)
    .where('approvedAt', 'is not', null)
    .orderBy('approvedAt', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { ...row, approvedAt: row.approvedAt! } : undefined;
}

/** The matter's objects still in the vault, by path and version. */
export function objectsInVault(db: Executor, organizationId: string, matterId: string) {
  return db
    .selectFrom('vaultObjects')
    .select(['id', 'nodeId', 'path', 'versionNumber', 'size', 'sha256', 'objectKey', 'retainUntil'])
    .where('organizationId', '=', organizationId)
    .where('matterId', '=', matterId)
    .where('state', '=', 'vaulted')
    .orderBy('path')
    .orderBy('versionNumber')
    .orderBy('id')
    .execute();
}

/** Records an object's later retain-until date, as the store now holds it. */
export async function setObjectRetainUntil(db: Executor, organizationId: string, id: string, retainUntil: Date): Promise<void> {
  await db.updateTable('vaultObjects').set({ retainUntil }).where('organizationId', '=', organizationId).where('id', '=', id).execute();
}

/** Records the transfer's later retention end (the certificate of a transfer still finishing locks to it). */
export async function setTransferRetention(
  db: Executor,
  organizationId: string,
  matterId: string,
  retentionExpiresAt: Date,
): Promise<void> {
  await db
    .updateTable('vaultTransfers')
    .set({ retentionExpiresAt })
    .where('organizationId', '=', organizationId)
    .where('matterId', '=', matterId)
    .execute();
}
