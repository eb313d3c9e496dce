/**
 * Uploads straight from the browser to the object store, with the server in charge of every decision:
 * - the server chooses every key (`org/<orgId>/matters/<matterId>/<uuid>`), never from the file name;
 * - every URL it signs is bound to a row in upload_sessions (who, which matter and folder, which file), so
 *   parts, completion and abort only work for what presigned/multipart-init issued to this user, on any app
 *   instance and after a page reload; every URL is bound to the byte length the plan gives it (a single PUT
 *   to the declared size, part n to the n-th 10 MiB of the declared size), and the local store accepts bytes
 *   only while the upload is pending;
 * - the bytes an upload declares count against the organization's storage quota from the moment it starts
 *   (checked under the organization's row lock, so concurrent uploads cannot share the last free bytes);
 * - completion is held by one request at a time (status 'completing', a renewed lease): it checks the stored
 *   size, hashes the stored bytes (streamed, never held in memory) and only then creates the file node, in one
 *   transaction with its audit entry. A completion that does not match leaves no node and the object is
 *   deleted (by a durable job, and at once when possible).
 *
 * This file holds the rules the steps share, the abort and the listing of stored parts; starting an upload is in
 * uploads-presign.service.ts, completing one in uploads-completion.service.ts.
 */
import type { UploadPartsResponse } from '@strongroom/contracts';
import { allowedMimeType, formatByteLimit, UPLOAD_MSG } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { BlobNotSupportedError, BlobUploadNotFoundError, unquoteEtag } from '../../platform/storage/blob-store.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { AppError, badRequest, conflict, notFound } from '../../shared/errors.js';
import { enqueueObjectDeletion } from '../nodes/index.js';
import type { AuthContext } from '../sessions/index.js';
import { organizationQuota } from '../users/index.js';
import { abortUploadSession, findUploadById, findUserUpload, storageInUse, type UploadSessionRow } from './uploads.repository.js';

export const UPLOAD_READ_ONLY = { legalHold: UPLOAD_MSG.legalHold, vaulted: UPLOAD_MSG.vaulted };

/** The MIME type to store, after the type and size rules; 400 with the published texts (UPLOAD_MSG) otherwise. */
export function checkFile(
  ctx: AppContext,
  fileName: string,
  fileType: string,
  fileSize: number | undefined,
  max = ctx.config.uploadMaxBytes,
): string {
  const mime = allowedMimeType(fileName, fileType);
  if (!mime) throw badRequest(UPLOAD_MSG.invalidFileType);
  if (fileSize !== undefined && fileSize > max) throw badRequest(UPLOAD_MSG.fileTooLarge(formatByteLimit(max)));
  return mime;
}

export const who = (auth: AuthContext) => ({ organizationId: auth.user.organizationId, userId: auth.user.id });

/** The user's pending upload; anything else (another user's, finished, expired, unknown) answers 404. */
async function pendingUpload(ctx: AppContext, auth: AuthContext, s3Key: string, uploadId: string | null): Promise<UploadSessionRow> {
  const session = await findUserUpload(ctx.db, who(auth), s3Key, uploadId);
  if (!session || session.status !== 'pending' || session.expiresAt.getTime() < Date.now()) throw notFound(UPLOAD_MSG.uploadNotFound);
  return session;
}

function effectiveQuota(ctx: AppContext, own: string | null): number | undefined {
  return own !== null ? Number(own) : ctx.config.storageQuotaBytes;
}

/**
 * 413 when `bytes` more would take the organization over its storage quota (stored files plus the sizes
 * uploads in flight declared). The organization's row stays locked until the caller's transaction ends, so two
 * uploads checked at the same time are checked one after the other and cannot both take the last free bytes.
 */
export async function requireQuota(
  ctx: AppContext,
  trx: Executor,
  organizationId: string,
  bytes: number,
  exceptSessionId: string | null,
): Promise<void> {
  // Most organizations have no quota: they skip the lock.
  if (effectiveQuota(ctx, (await organizationQuota(trx, organizationId)).storageQuotaBytes) === undefined) return;
  const quota = effectiveQuota(ctx, (await organizationQuota(trx, organizationId, true)).storageQuotaBytes);
  if (quota === undefined) return;
  const used = await storageInUse(trx, organizationId, exceptSessionId);
  if (used + bytes > quota) throw new AppError(413, UPLOAD_MSG.quotaExceeded, 'PAYLOAD_TOO_LARGE');
}

export const leaseMs = (ctx: AppContext) => ctx.config.uploadCompletionLeaseSeconds * 1000;

/** Removes an ended upload's parts and object from the store at once; the durable job and the cleanup job retry. */
export async function removeStored(ctx: AppContext, session: Pick<UploadSessionRow, 'kind' | 's3Key' | 'uploadId'>): Promise<void> {
  try {
    if (session.kind === 'multipart') await ctx.store.abortMultipart({ key: session.s3Key, uploadId: session.uploadId! });
  } catch (err) {
    if (!(err instanceof BlobNotSupportedError))
      ctx.log.warn({ err, key: session.s3Key }, 'aborting an ended upload failed; the cleanup job retries');
  }
  try {
    await ctx.store.delete(session.s3Key);
  } catch (err) {
    ctx.log.warn({ err, key: session.s3Key }, 'removing an ended upload failed; the delete-objects job retries');
  }
}

/**
 * Ends the user's multipart upload and removes its parts. Allowed under legal hold: it only cleans up. It wins
 * only over a pending upload (or one whose completion died): while a completion holds the upload, or once it is
 * complete, the abort is refused with 409 and nothing is removed.
 */
export async function abortUpload(
  ctx: AppContext,
  auth: AuthContext,
  input: { s3Key: string; uploadId: string },
  meta: RequestMeta,
): Promise<{ success: true }> {
  const session = await findUserUpload(ctx.db, who(auth), input.s3Key, input.uploadId);
  if (!session || session.kind !== 'multipart') throw notFound(UPLOAD_MSG.uploadNotFound);
  const aborted = await ctx.db.transaction().execute(async (trx) => {
    const row = await abortUploadSession(trx, session, leaseMs(ctx));
    if (!row) return null;
    // A completion that died may have stored the joined object: it goes with the upload.
    await enqueueObjectDeletion(ctx, trx, session.organizationId, [session.s3Key], 'upload-aborted');
    await auditFor(auth.user, meta)(
      trx,
      'UPLOAD_ABORTED',
      { table: 'upload_sessions', id: session.id },
      { matterId: session.matterId, fileName: session.fileName, fileSize: session.fileSize === null ? null : Number(session.fileSize) },
    );
    return row;
  });
  if (!aborted) {
    const now = await findUploadById(ctx.db, session);
    if (now?.status === 'completing') throw conflict(UPLOAD_MSG.abortWhileCompleting, { reason: 'UPLOAD_COMPLETING' });
    if (now?.status === 'completed') throw conflict(UPLOAD_MSG.alreadyCompleted, { reason: 'UPLOAD_COMPLETED' });
    // Already aborted, failed or expired: nothing left to do.
    return { success: true };
  }
  await removeStored(ctx, aborted);
  return { success: true };
}

/** Parts already stored, for resuming after a reload; `listable: false` when the store cannot list them. */
export async function listUploadParts(
  ctx: AppContext,
  auth: AuthContext,
  input: { s3Key: string; uploadId: string },
): Promise<UploadPartsResponse> {
  const session = await pendingUpload(ctx, auth, input.s3Key, input.uploadId);
  if (session.kind !== 'multipart') throw notFound(UPLOAD_MSG.uploadNotFound);
  try {
    const parts = await ctx.store.listParts({ key: session.s3Key, uploadId: input.uploadId });
    return { parts: parts.map((p) => ({ partNumber: p.partNumber, etag: unquoteEtag(p.etag), size: p.size })), listable: true };
  } catch (err) {
    if (err instanceof BlobNotSupportedError) return { parts: [], listable: false };
    if (err instanceof BlobUploadNotFoundError) throw notFound(UPLOAD_MSG.uploadNotFound);
    throw err;
  }
}
