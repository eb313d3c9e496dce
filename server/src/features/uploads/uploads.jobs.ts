/**
 * cleanup-incomplete-uploads (daily, 03:17 UTC): uploads that were never finished, and what they left behind.
 * - uploads past their time are expired: pending ones, and completions that stopped (the server died while it
 *   joined or hashed) and were not retried; multipart uploads are aborted in the store (parts removed) and the
 *   object under the key (a single PUT, or a joined file) is deleted by the delete-objects job, enqueued in the
 *   same transaction;
 * - uploads that ended recently without a file (aborted, failed, expired, or completed and the file deleted)
 *   have their key swept: an S3 URL cannot be revoked, so a part or PUT replayed after the end may have put
 *   bytes back, and a crash between the row and the store may have left parts; all of it is removed;
 * - the local store also drops multipart folders and temp files older than 7 days that no row knows about.
 *   On S3 the bucket's lifecycle rule AbortIncompleteMultipartUpload (7 days) does that part.
 * Finished upload records are kept 90 days, then removed.
 */
import { UPLOAD_LIMITS } from '@strongroom/contracts';
import { BlobNotSupportedError } from '../../platform/storage/blob-store.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext } from '../../shared/context.js';
import { enqueueObjectDeletion, keysStillReferenced } from '../nodes/index.js';
import {
  deadUploadsSince,
  expiredPendingUploads,
  expireUploadSession,
  purgeFinishedUploads,
  type UploadSessionRow,
} from './uploads.repository.js';

const CLEANUP_UPLOADS_JOB = 'cleanup-incomplete-uploads';
const DAY_MS = 86_400_000;
const BATCH = 100;
/** How far back the sweep looks: two daily runs, so a run that failed is covered by the next. */
const SWEEP_WINDOW_MS = 2 * DAY_MS;

type CleanupResult = { expired: number; storeRemoved: number; swept: number; purged: number };

async function expire(ctx: AppContext, session: UploadSessionRow): Promise<boolean> {
  const done = await ctx.db.transaction().execute(async (trx) => {
    const row = await expireUploadSession(trx, session);
    if (!row) return false;
    // A single PUT's object, or the file a stopped completion joined: no node points at it.
    await enqueueObjectDeletion(ctx, trx, session.organizationId, [session.s3Key], 'upload-expired');
    await auditFor({ organizationId: session.organizationId, actor: null })(
      trx,
      'UPLOAD_EXPIRED',
      { table: 'upload_sessions', id: session.id },
      {
        matterId: session.matterId,
        fileName: session.fileName,
        multipart: session.kind === 'multipart',
        startedAt: session.createdAt.toISOString(),
      },
    );
    return true;
  });
  if (done && session.kind === 'multipart') await abortQuietly(ctx, session.s3Key, session.uploadId!);
  return done;
}

async function abortQuietly(ctx: AppContext, key: string, uploadId: string): Promise<void> {
  try {
    await ctx.store.abortMultipart({ key, uploadId });
  } catch (err) {
    if (!(err instanceof BlobNotSupportedError)) throw err;
  }
}

/** Removes parts and objects under the keys of uploads that ended without a file. Returns how many keys. */
async function sweepDeadUploads(ctx: AppContext, now: Date): Promise<number> {
  let swept = 0;
  let after: string | null = null;
  for (;;) {
    const batch = await deadUploadsSince(ctx.db, new Date(now.getTime() - SWEEP_WINDOW_MS), after, BATCH);
    if (batch.length === 0) break;
    after = batch[batch.length - 1]!.id;
    const used = await keysStillReferenced(
      ctx.db,
      batch.map((s) => s.s3Key),
    );
    for (const session of batch) {
      if (used.has(session.s3Key)) continue;
      if (session.kind === 'multipart') await abortQuietly(ctx, session.s3Key, session.uploadId!);
      if (await ctx.store.head(session.s3Key)) {
        await ctx.store.delete(session.s3Key);
        swept += 1;
      }
    }
  }
  return swept;
}

async function cleanupIncompleteUploads(ctx: AppContext, now = new Date()): Promise<CleanupResult> {
  const result: CleanupResult = { expired: 0, storeRemoved: 0, swept: 0, purged: 0 };
  const seen = new Set<string>();
  const leaseMs = ctx.config.uploadCompletionLeaseSeconds * 1000;
  for (;;) {
    const batch = (await expiredPendingUploads(ctx.db, now, BATCH, leaseMs)).filter((s) => !seen.has(s.id));
    if (batch.length === 0) break;
    for (const session of batch) {
      seen.add(session.id);
      if (await expire(ctx, session)) result.expired += 1;
    }
  }
  result.swept = await sweepDeadUploads(ctx, now);
  result.storeRemoved = await ctx.store.cleanupIncompleteMultipart(new Date(now.getTime() - UPLOAD_LIMITS.incompleteUploadDays * DAY_MS));
  result.purged = await purgeFinishedUploads(ctx.db, new Date(now.getTime() - 90 * DAY_MS));
  if (result.expired || result.storeRemoved || result.swept || result.purged) ctx.log.info(result, 'incomplete uploads cleaned up');
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
