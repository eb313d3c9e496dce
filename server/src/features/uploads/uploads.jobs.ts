/**
 * cleanup-incomplete-uploads (daily, 03:17 UTC): uploads that were never finished.
 * - multipart uploads older than 7 days are aborted in the store (its parts removed), then marked expired;
 * - single PUTs not registered within a day are marked expired and their object deleted (delete-objects job,
 *   enqueued in the same transaction);
 * - the local store also drops multipart folders and temp files older than 7 days that no row knows about.
 *   On S3 the bucket's lifecycle rule AbortIncompleteMultipartUpload (7 days) does that part.
 * Finished upload records are kept 90 days, then removed.
 */
import { UPLOAD_LIMITS } from '@strongroom/contracts';
import { BlobNotSupportedError } from '../../platform/storage/blob-store.js';
import { appendAudit } from '../../shared/audit.js';
import type { AppContext } from '../../shared/context.js';
import { enqueueObjectDeletion } from '../nodes/nodes.jobs.js';
import { expiredPendingUploads, finishUploadSession, purgeFinishedUploads, type UploadSessionRow } from './uploads.repository.js';

export const CLEANUP_UPLOADS_JOB = 'cleanup-incomplete-uploads';
const DAY_MS = 86_400_000;
const BATCH = 100;

export type CleanupResult = { expired: number; storeRemoved: number; purged: number };

async function expire(ctx: AppContext, session: UploadSessionRow): Promise<boolean> {
  if (session.kind === 'multipart') {
    try {
      await ctx.store.abortMultipart({ key: session.s3Key, uploadId: session.uploadId! });
    } catch (err) {
      if (!(err instanceof BlobNotSupportedError)) throw err;
    }
  }
  return ctx.db.transaction().execute(async (trx) => {
    const row = await finishUploadSession(trx, session.id, 'expired');
    if (!row) return false;
    if (session.kind === 'standard') await enqueueObjectDeletion(ctx, trx, session.organizationId, [session.s3Key], 'upload-expired');
    await appendAudit(trx, {
      organizationId: session.organizationId,
      actor: null,
      action: 'UPLOAD_EXPIRED',
      targetTable: 'upload_sessions',
      targetId: session.id,
      details: { matterId: session.matterId, fileName: session.fileName, multipart: session.kind === 'multipart', startedAt: session.createdAt.toISOString() },
    });
    return true;
  });
}

export async function cleanupIncompleteUploads(ctx: AppContext, now = new Date()): Promise<CleanupResult> {
  const result: CleanupResult = { expired: 0, storeRemoved: 0, purged: 0 };
  const seen = new Set<string>();
  for (;;) {
    const batch = (await expiredPendingUploads(ctx.db, now, BATCH)).filter((s) => !seen.has(s.id));
    if (batch.length === 0) break;
    for (const session of batch) {
      seen.add(session.id);
      if (await expire(ctx, session)) result.expired += 1;
    }
  }
  result.storeRemoved = await ctx.store.cleanupIncompleteMultipart(new Date(now.getTime() - UPLOAD_LIMITS.incompleteUploadDays * DAY_MS));
  result.purged = await purgeFinishedUploads(ctx.db, new Date(now.getTime() - 90 * DAY_MS));
  if (result.expired || result.storeRemoved || result.purged) ctx.log.info(result, 'incomplete uploads cleaned up');
  return result;
}

export function defineUploadJobs(ctx: AppContext): void {
  ctx.jobs.define({
    name: CLEANUP_UPLOADS_JOB,
    handler: async () => {
      await cleanupIncompleteUploads(ctx);
    },
    cron: '17 3 * * *',
    retryLimit: 3,
    pollingIntervalSeconds: 60,
  });
}
