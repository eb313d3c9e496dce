/**
 * Starting an upload: the signed URL of a single PUT, the start of a multipart upload and the signed URL of each
 * of its parts. The server chooses the key, checks the file and its target, counts the declared size against the
 * organization's quota and records the upload session every later step is bound to.
 */
import { randomUUID } from 'node:crypto';
import type { MultipartInitRequest, PresignedUrlRequest, PresignedUrlResponse, UploadOnConflict } from '@strongroom/contracts';
import { formatByteLimit, UPLOAD_LIMITS, UPLOAD_MSG } from '@strongroom/contracts';
import { MAX_PRESIGN_SECONDS, MAX_SINGLE_PUT_SIZE, plannedPartLength } from '../../platform/storage/blob-store.js';
import type { AppContext } from '../../shared/context.js';
import { badRequest, notFound } from '../../shared/errors.js';
import { getVisibleMatter, requireMatterWritable, requireMatterWriter, requireVisible } from '../matters/index.js';
import { resolveParentFolder, resolveUploadTarget } from '../nodes/index.js';
import type { AuthContext } from '../sessions/index.js';
import { findUserUploadWithMatterState, insertUploadSession } from './uploads.repository.js';
import { checkFile, removeStored, requireQuota, UPLOAD_READ_ONLY, who } from './uploads.service.js';

/** Upload URLs live the longest the store allows: 15 minutes. */
const UPLOAD_URL_SECONDS = MAX_PRESIGN_SECONDS;
/** How long a single PUT may take to be registered, and a multipart upload to be finished. */
const STANDARD_SESSION_MS = 24 * 3600_000;
const MULTIPART_SESSION_MS = UPLOAD_LIMITS.incompleteUploadDays * 24 * 3600_000;

function objectKey(organizationId: string, matterId: string): string {
  return `org/${organizationId}/matters/${matterId}/${randomUUID()}`;
}

/**
 * The matter and folder a new file goes to, checked before any bytes move (and again at completion): a taken
 * name is refused unless the upload says what to do then (a new version of that file, or keep both).
 */
async function checkTarget(
  ctx: AppContext,
  auth: AuthContext,
  input: { matterId: string; parentId?: string | null; fileName: string; onConflict?: UploadOnConflict },
) {
  const matter = await getVisibleMatter(ctx.db, auth.user, input.matterId);
  requireMatterWritable(matter, UPLOAD_READ_ONLY);
  const folderId = await resolveParentFolder(ctx.db, matter, input.parentId);
  await resolveUploadTarget(ctx.db, matter, folderId, input.fileName, input.onConflict);
  return { matter, parentId: folderId };
}

/** The largest file a single PUT may carry: under the multipart threshold, and within the upload limit. */
function singlePutLimit(ctx: AppContext): number {
  return Math.min(ctx.config.uploadMaxBytes, MAX_SINGLE_PUT_SIZE, UPLOAD_LIMITS.multipartThreshold - 1);
}

export async function presignUpload(ctx: AppContext, auth: AuthContext, input: PresignedUrlRequest): Promise<PresignedUrlResponse> {
  // Someone who may change nothing is told matters are read-only to them; anyone else without canUpload, that they lack it.
  requireMatterWriter(auth.user, 'canUpload');
  if (input.partNumber !== undefined)
    return presignPart(ctx, auth, input as PresignedUrlRequest & { partNumber: number; uploadId: string; s3Key: string });
  const fileSize = input.fileSize;
  const mime = checkFile(ctx, input.fileName, input.fileType, fileSize, Math.min(ctx.config.uploadMaxBytes, MAX_SINGLE_PUT_SIZE));
  // From the threshold on, a file goes in parts: a single PUT of it would be refused at completion anyway.
  if (fileSize !== undefined && fileSize >= UPLOAD_LIMITS.multipartThreshold) {
    throw badRequest(UPLOAD_MSG.multipartRequired(formatByteLimit(UPLOAD_LIMITS.multipartThreshold)));
  }
  const target = await checkTarget(ctx, auth, input);
  const key = objectKey(auth.user.organizationId, target.matter.id);
  // With a size the URL takes exactly that many bytes; without, at most the single-PUT limit (the local store
  // enforces the bound; on S3 completion checks the stored size).
  const bound = fileSize !== undefined ? { contentLength: fileSize } : { maxLength: singlePutLimit(ctx) };
  const signed = await ctx.store.presignPut({ key, ...bound, contentType: mime, expiresInSeconds: UPLOAD_URL_SECONDS });
  await ctx.db.transaction().execute(async (trx) => {
    await requireQuota(ctx, trx, auth.user.organizationId, fileSize ?? 0, null);
    await insertUploadSession(trx, {
      organizationId: auth.user.organizationId,
      userId: auth.user.id,
      matterId: target.matter.id,
      parentId: target.parentId,
      s3Key: key,
      uploadId: null,
      fileName: input.fileName,
      fileType: mime,
      fileSize: fileSize ?? null,
      onConflict: input.onConflict ?? null,
      kind: 'standard',
      expiresAt: new Date(Date.now() + STANDARD_SESSION_MS),
    });
  });
  return { url: signed.url, s3Key: key, method: 'PUT', headers: signed.headers, expiresAt: signed.expiresAt.toISOString() };
}

async function presignPart(
  ctx: AppContext,
  auth: AuthContext,
  input: PresignedUrlRequest & { partNumber: number; uploadId: string; s3Key: string },
): Promise<PresignedUrlResponse> {
  const session = await findUserUploadWithMatterState(ctx.db, who(auth), input.s3Key, input.uploadId);
  if (!session || session.status !== 'pending' || session.expiresAt.getTime() < Date.now()) throw notFound(UPLOAD_MSG.uploadNotFound);
  if (session.kind !== 'multipart' || session.matterId !== input.matterId || session.fileName !== input.fileName)
    throw badRequest(UPLOAD_MSG.uploadMismatch);
  // A hold applied during the upload stops it (the matter's state comes with the upload row).
  const matter = { isVaulted: session.matterIsVaulted, status: session.matterStatus, legalHold: session.matterLegalHold };
  requireMatterWritable(requireVisible(auth.user, matter), UPLOAD_READ_ONLY);
  // Parts are cut by the plan: every part a full chunk, the last the remainder of the declared size. Without a
  // declared size a part may be at most one chunk (local store; completion checks the parts against the plan).
  let bound: { contentLength: number } | { maxLength: number };
  if (session.fileSize !== null) {
    const length = plannedPartLength(Number(session.fileSize), UPLOAD_LIMITS.chunkSize, input.partNumber);
    if (length === null) throw badRequest(UPLOAD_MSG.partBeyondEnd);
    bound = { contentLength: length };
  } else {
    bound = { maxLength: UPLOAD_LIMITS.chunkSize };
  }
  const signed = await ctx.store.presignPart({
    key: session.s3Key,
    uploadId: input.uploadId,
    partNumber: input.partNumber,
    ...bound,
    expiresInSeconds: UPLOAD_URL_SECONDS,
  });
  return {
    url: signed.url,
    s3Key: session.s3Key,
    method: 'PUT',
    headers: signed.headers,
    expiresAt: signed.expiresAt.toISOString(),
    partNumber: input.partNumber,
  };
}

export async function initMultipart(
  ctx: AppContext,
  auth: AuthContext,
  input: MultipartInitRequest,
): Promise<{ uploadId: string; s3Key: string }> {
  requireMatterWriter(auth.user, 'canUpload');
  const mime = checkFile(ctx, input.fileName, input.fileType, input.fileSize);
  const target = await checkTarget(ctx, auth, input);
  const key = objectKey(auth.user.organizationId, target.matter.id);
  // A quick look first, so an upload over quota does not open a store upload; the locked check below decides.
  await requireQuota(ctx, ctx.db, auth.user.organizationId, input.fileSize ?? 0, null);
  const { uploadId } = await ctx.store.createMultipart({ key, contentType: mime });
  try {
    await ctx.db.transaction().execute(async (trx) => {
      await requireQuota(ctx, trx, auth.user.organizationId, input.fileSize ?? 0, null);
      await insertUploadSession(trx, {
        organizationId: auth.user.organizationId,
        userId: auth.user.id,
        matterId: target.matter.id,
        parentId: target.parentId,
        s3Key: key,
        uploadId,
        fileName: input.fileName,
        fileType: mime,
        fileSize: input.fileSize ?? null,
        onConflict: input.onConflict ?? null,
        kind: 'multipart',
        expiresAt: new Date(Date.now() + MULTIPART_SESSION_MS),
      });
    });
  } catch (err) {
    await removeStored(ctx, { kind: 'multipart', s3Key: key, uploadId });
    throw err;
  }
  return { uploadId, s3Key: key };
}
