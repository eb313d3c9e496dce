/**
 * Uploads straight from the browser to the object store, with the server in charge of every decision:
 * - the server chooses every key (`org/<orgId>/matters/<matterId>/<uuid>`), never from the file name;
 * - every URL it signs is bound to a row in upload_sessions (who, which matter and folder, which file), so
 *   parts, completion and abort only work for what presigned/multipart-init issued to this user, on any app
 *   instance and after a page reload;
 * - completion checks the stored size against fileSize, hashes the stored bytes (streamed, never held in
 *   memory) and only then creates the file node, in one transaction with its audit entry. A completion that
 *   does not match leaves no node and the object is deleted (by a durable job, and at once when possible).
 */
import { randomUUID } from 'node:crypto';
import type {
  MultipartCompleteRequest,
  MultipartInitRequest,
  NodeDto,
  PresignedUrlRequest,
  PresignedUrlResponse,
  UploadPartsResponse,
} from '@strongroom/contracts';
import { allowedMimeType, formatByteLimit, NODE_MSG, UPLOAD_LIMITS, UPLOAD_MSG } from '@strongroom/contracts';
import {
  BlobInvalidPartError,
  BlobNotSupportedError,
  BlobUploadNotFoundError,
  MAX_PRESIGN_SECONDS,
  MAX_SINGLE_PUT_SIZE,
  unquoteEtag,
  type BlobHead,
} from '../../platform/storage/blob-store.js';
import { requireMemberRole, requirePermission } from '../../shared/access.js';
import { appendAudit } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { AppError, badRequest, conflict, notFound } from '../../shared/errors.js';
import { getVisibleMatter, lockVisibleMatter, requireMatterWritable, requireVisible, type MatterRow } from '../matters/matter-access.js';
import { enqueueObjectDeletion } from '../nodes/nodes.jobs.js';
import { insertFileNode, nodeDto, requireNameFree, resolveParentFolder } from '../nodes/nodes.service.js';
import type { AuthContext } from '../sessions/sessions.service.js';
import { auditActor } from '../users/users.service.js';
import {
  finishUploadSession,
  findUserUpload,
  findUserUploadWithMatterState,
  insertUploadSession,
  lockUploadSession,
  type UploadSessionRow,
} from './uploads.repository.js';

/** Upload URLs live the longest the store allows: 15 minutes. */
const UPLOAD_URL_SECONDS = MAX_PRESIGN_SECONDS;
/** How long a single PUT may take to be registered, and a multipart upload to be finished. */
const STANDARD_SESSION_MS = 24 * 3600_000;
export const MULTIPART_SESSION_MS = UPLOAD_LIMITS.incompleteUploadDays * 24 * 3600_000;

const UPLOAD_READ_ONLY = { legalHold: UPLOAD_MSG.legalHold, vaulted: UPLOAD_MSG.vaulted };

function objectKey(organizationId: string, matterId: string): string {
  return `org/${organizationId}/matters/${matterId}/${randomUUID()}`;
}

/** The MIME type to store, after the type and size rules; 400 with the spec's texts otherwise. */
function checkFile(ctx: AppContext, fileName: string, fileType: string, fileSize: number | undefined, max = ctx.config.uploadMaxBytes): string {
  const mime = allowedMimeType(fileName, fileType);
  if (!mime) throw badRequest(UPLOAD_MSG.invalidFileType);
  if (fileSize !== undefined && fileSize > max) throw badRequest(UPLOAD_MSG.fileTooLarge(formatByteLimit(max)));
  return mime;
}

/** The matter and folder a new file goes to, checked before any bytes move (and again at completion). */
async function checkTarget(ctx: AppContext, auth: AuthContext, matterId: string, parentId: string | null | undefined, fileName: string) {
  const matter = await getVisibleMatter(ctx.db, auth.user, matterId);
  requireMatterWritable(matter, UPLOAD_READ_ONLY);
  const folderId = await resolveParentFolder(ctx.db, matter, parentId);
  await requireNameFree(ctx.db, matter.id, folderId, fileName);
  return { matter, parentId: folderId };
}

const who = (auth: AuthContext) => ({ organizationId: auth.user.organizationId, userId: auth.user.id });

/** The user's pending upload; anything else (another user's, finished, expired, unknown) answers 404. */
async function pendingUpload(ctx: AppContext, auth: AuthContext, s3Key: string, uploadId: string | null): Promise<UploadSessionRow> {
  const session = await findUserUpload(ctx.db, who(auth), s3Key, uploadId);
  if (!session || session.status !== 'pending' || session.expiresAt.getTime() < Date.now()) throw notFound(UPLOAD_MSG.uploadNotFound);
  return session;
}

export async function presignUpload(ctx: AppContext, auth: AuthContext, input: PresignedUrlRequest): Promise<PresignedUrlResponse> {
  requirePermission(auth.user, 'canUpload');
  if (input.partNumber !== undefined) return presignPart(ctx, auth, input as PresignedUrlRequest & { partNumber: number; uploadId: string; s3Key: string });
  const fileSize = input.fileSize!;
  const mime = checkFile(ctx, input.fileName, input.fileType, fileSize, Math.min(ctx.config.uploadMaxBytes, MAX_SINGLE_PUT_SIZE));
  const target = await checkTarget(ctx, auth, input.matterId, input.parentId, input.fileName);
  const key = objectKey(auth.user.organizationId, target.matter.id);
  const signed = await ctx.store.presignPut({ key, contentLength: fileSize, contentType: mime, expiresInSeconds: UPLOAD_URL_SECONDS });
  await insertUploadSession(ctx.db, {
    organizationId: auth.user.organizationId,
    userId: auth.user.id,
    matterId: target.matter.id,
    parentId: target.parentId,
    s3Key: key,
    uploadId: null,
    fileName: input.fileName,
    fileType: mime,
    fileSize,
    kind: 'standard',
    expiresAt: new Date(Date.now() + STANDARD_SESSION_MS),
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
  if (session.kind !== 'multipart' || session.matterId !== input.matterId || session.fileName !== input.fileName) throw badRequest(UPLOAD_MSG.uploadMismatch);
  // A hold applied during the upload stops it (the matter's state comes with the upload row).
  const matter = { isVaulted: session.matterIsVaulted, status: session.matterStatus, legalHold: session.matterLegalHold };
  requireMatterWritable(requireVisible(auth.user, matter), UPLOAD_READ_ONLY);
  const signed = await ctx.store.presignPart({ key: session.s3Key, uploadId: input.uploadId, partNumber: input.partNumber, expiresInSeconds: UPLOAD_URL_SECONDS });
  return {
    url: signed.url,
    s3Key: session.s3Key,
    method: 'PUT',
    headers: signed.headers,
    expiresAt: signed.expiresAt.toISOString(),
    partNumber: input.partNumber,
  };
}

export async function initMultipart(ctx: AppContext, auth: AuthContext, input: MultipartInitRequest): Promise<{ uploadId: string; s3Key: string }> {
  requirePermission(auth.user, 'canUpload');
  const mime = checkFile(ctx, input.fileName, input.fileType, input.fileSize);
  const target = await checkTarget(ctx, auth, input.matterId, input.parentId, input.fileName);
  const key = objectKey(auth.user.organizationId, target.matter.id);
  const { uploadId } = await ctx.store.createMultipart({ key, contentType: mime });
  await insertUploadSession(ctx.db, {
    organizationId: auth.user.organizationId,
    userId: auth.user.id,
    matterId: target.matter.id,
    parentId: target.parentId,
    s3Key: key,
    uploadId,
    fileName: input.fileName,
    fileType: mime,
    fileSize: input.fileSize ?? null,
    kind: 'multipart',
    expiresAt: new Date(Date.now() + MULTIPART_SESSION_MS),
  });
  return { uploadId, s3Key: key };
}

/**
 * Marks the upload failed and removes what it stored: the deletion is enqueued in the same transaction (it
 * survives a crash) and also tried at once. An unassembled multipart upload is aborted.
 */
async function rejectUpload(ctx: AppContext, auth: AuthContext, session: UploadSessionRow, reason: string, meta: RequestMeta, assembled: boolean): Promise<void> {
  const failed = await ctx.db.transaction().execute(async (trx) => {
    const row = await finishUploadSession(trx, session.id, 'failed');
    if (!row) return false;
    await enqueueObjectDeletion(ctx, trx, session.organizationId, [session.s3Key], 'upload-rejected');
    await appendAudit(trx, {
      organizationId: session.organizationId,
      actor: auditActor(auth.user),
      action: 'UPLOAD_FAILED',
      targetTable: 'upload_sessions',
      targetId: session.id,
      details: { matterId: session.matterId, fileName: session.fileName, reason, multipart: session.kind === 'multipart' },
      ipAddress: meta.ip,
    });
    return true;
  });
  if (!failed) return;
  try {
    if (session.kind === 'multipart' && !assembled) await ctx.store.abortMultipart({ key: session.s3Key, uploadId: session.uploadId! });
    await ctx.store.delete(session.s3Key);
  } catch (err) {
    if (!(err instanceof BlobNotSupportedError)) ctx.log.warn({ err, key: session.s3Key }, 'removing a rejected upload failed; the delete-objects job retries');
  }
}

/** The file node of an upload that already completed (a repeated completion answers the same file). */
async function completedFile(ctx: AppContext, auth: AuthContext, sessionId: string): Promise<{ file: NodeDto } | null> {
  const row = await ctx.db.selectFrom('uploadSessions').select(['status', 'nodeId']).where('id', '=', sessionId).executeTakeFirst();
  if (row?.status !== 'completed' || !row.nodeId) return null;
  return { file: await nodeDto(ctx.db, auth.user.organizationId, row.nodeId) };
}

export async function completeUpload(ctx: AppContext, auth: AuthContext, input: MultipartCompleteRequest, meta: RequestMeta): Promise<{ file: NodeDto }> {
  const { user } = auth;
  requirePermission(user, 'canUpload');
  const uploadId = input.uploadId ?? null;
  const found = await findUserUpload(ctx.db, who(auth), input.s3Key, uploadId);
  if (!found) throw notFound(UPLOAD_MSG.uploadNotFound);
  const done = await completedFile(ctx, auth, found.id);
  if (done) return done;
  const session = await pendingUpload(ctx, auth, input.s3Key, uploadId);
  const mime = checkFile(ctx, input.fileName, input.fileType, input.fileSize);
  if (session.matterId !== input.matterId || session.parentId !== (input.parentId ?? null) || session.fileName !== input.fileName || session.fileType !== mime) {
    throw badRequest(UPLOAD_MSG.uploadMismatch);
  }
  if (session.fileSize !== null && Number(session.fileSize) !== input.fileSize) {
    await rejectUpload(ctx, auth, session, 'size differs from the size given at the start', meta, false);
    throw badRequest(UPLOAD_MSG.sizeMismatch);
  }

  let head: BlobHead | null;
  let parts = 0;
  if (session.kind === 'multipart') {
    const list = [...(input.parts ?? [])].map((p) => ({ partNumber: p.PartNumber, etag: p.ETag })).sort((a, b) => a.partNumber - b.partNumber);
    if (list.some((p, i) => i > 0 && p.partNumber === list[i - 1]!.partNumber)) throw badRequest(UPLOAD_MSG.partsMismatch);
    parts = list.length;
    try {
      head = await ctx.store.completeMultipart({ key: session.s3Key, uploadId: session.uploadId!, parts: list });
    } catch (err) {
      // Missing or wrong parts: the upload stays open, so the client can send them and complete again.
      if (err instanceof BlobInvalidPartError) throw badRequest(UPLOAD_MSG.partsMismatch);
      if (err instanceof BlobUploadNotFoundError) {
        const other = await completedFile(ctx, auth, session.id);
        if (other) return other;
        throw notFound(UPLOAD_MSG.uploadNotFound);
      }
      throw err;
    }
  } else {
    head = await ctx.store.head(session.s3Key);
    if (!head) throw badRequest(UPLOAD_MSG.fileMissing);
  }
  if (head.size !== input.fileSize) {
    await rejectUpload(ctx, auth, session, `stored ${head.size} bytes, expected ${input.fileSize}`, meta, true);
    throw badRequest(UPLOAD_MSG.sizeMismatch);
  }
  // Streamed through the hash: the event loop keeps serving, memory stays flat.
  const sha256Hash = await ctx.store.sha256(session.s3Key);

  let nodeId: string;
  try {
    nodeId = await ctx.db.transaction().execute(async (trx) => {
      const matter: MatterRow = await lockVisibleMatter(trx, user, session.matterId);
      const current = await lockUploadSession(trx, session.id);
      if (current?.status === 'completed' && current.nodeId) return current.nodeId;
      if (!current || current.status !== 'pending') throw notFound(UPLOAD_MSG.uploadNotFound);
      requireMatterWritable(matter, UPLOAD_READ_ONLY);
      const parentId = await resolveParentFolder(trx, matter, session.parentId);
      await requireNameFree(trx, matter.id, parentId, session.fileName);
      const node = await insertFileNode(trx, {
        organizationId: user.organizationId,
        matterId: matter.id,
        parentId,
        name: session.fileName,
        fileSize: head.size,
        mimeType: session.fileType,
        sha256Hash,
        storagePath: session.s3Key,
        uploadId: session.uploadId,
        uploadStatus: 'completed',
        uploadProgress: 100,
        createdBy: user.id,
      });
      await finishUploadSession(trx, session.id, 'completed', node.id);
      await appendAudit(trx, {
        organizationId: user.organizationId,
        actor: auditActor(user),
        action: 'UPLOAD_FILE',
        targetTable: 'nodes',
        targetId: node.id,
        details: {
          matterId: matter.id,
          matterName: matter.matterName,
          fileName: node.name,
          parentId,
          fileSize: head.size,
          mimeType: node.mimeType,
          sha256Hash,
          multipart: session.kind === 'multipart',
          ...(parts ? { parts } : {}),
        },
        ipAddress: meta.ip,
      });
      return node.id;
    });
  } catch (err) {
    const nameClash = (err as { code?: string; constraint?: string })?.code === '23505';
    if (err instanceof AppError || nameClash) {
      // Refused at the last step (hold applied, folder deleted, name taken meanwhile): nothing may stay behind.
      await rejectUpload(ctx, auth, session, err instanceof AppError ? err.message : 'name taken', meta, true);
      if (nameClash) throw conflict(NODE_MSG.nameExists(session.fileName), { field: 'name' });
    }
    throw err;
  }
  return { file: await nodeDto(ctx.db, user.organizationId, nodeId) };
}

/** Ends the user's multipart upload and removes its parts. Allowed under legal hold: it only cleans up. */
export async function abortUpload(ctx: AppContext, auth: AuthContext, input: { s3Key: string; uploadId: string }, meta: RequestMeta): Promise<{ success: true }> {
  requireMemberRole(auth.user);
  const session = await findUserUpload(ctx.db, who(auth), input.s3Key, input.uploadId);
  if (!session || session.kind !== 'multipart' || session.status === 'completed') throw notFound(UPLOAD_MSG.uploadNotFound);
  if (session.status !== 'pending') return { success: true };
  try {
    await ctx.store.abortMultipart({ key: session.s3Key, uploadId: input.uploadId });
  } catch (err) {
    // The bucket's lifecycle rule removes what the store cannot abort.
    if (!(err instanceof BlobNotSupportedError)) throw err;
  }
  await ctx.db.transaction().execute(async (trx) => {
    const row = await finishUploadSession(trx, session.id, 'aborted');
    if (!row) return;
    await appendAudit(trx, {
      organizationId: session.organizationId,
      actor: auditActor(auth.user),
      action: 'UPLOAD_ABORTED',
      targetTable: 'upload_sessions',
      targetId: session.id,
      details: { matterId: session.matterId, fileName: session.fileName, fileSize: session.fileSize === null ? null : Number(session.fileSize) },
      ipAddress: meta.ip,
    });
  });
  return { success: true };
}

/** Parts already stored, for resuming after a reload; `listable: false` when the store cannot list them. */
export async function listUploadParts(ctx: AppContext, auth: AuthContext, input: { s3Key: string; uploadId: string }): Promise<UploadPartsResponse> {
  requirePermission(auth.user, 'canUpload');
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
