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
import type { Executor } from '../../platform/db/database.js';
import {
  BlobInvalidPartError,
  BlobNotSupportedError,
  BlobObjectExistsError,
  BlobUploadNotFoundError,
  MAX_PRESIGN_SECONDS,
  MAX_SINGLE_PUT_SIZE,
  multipartEtag,
  plannedPartLength,
  unquoteEtag,
  type BlobHead,
} from '../../platform/storage/blob-store.js';
import { requireMemberRole, requirePermission } from '../../shared/access.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { AppError, badRequest, conflict, notFound } from '../../shared/errors.js';
import {
  getVisibleMatter,
  lockVisibleMatter,
  requireMatterWritable,
  requireMatterWriter,
  requireVisible,
  type MatterRow,
} from '../matters/index.js';
import { failpoint } from '../../platform/failpoints.js';
import { enqueueObjectDeletion, findNode, insertFileNode, nodeDto, requireNameFree, resolveParentFolder } from '../nodes/index.js';
import type { AuthContext } from '../sessions/index.js';
import {
  abortUploadSession,
  claimUpload,
  findUploadById,
  findUserUpload,
  findUserUploadWithMatterState,
  finishClaimed,
  insertUploadSession,
  lockUploadSession,
  organizationQuota,
  releaseClaim,
  renewClaim,
  storageInUse,
  type UploadSessionRow,
} from './uploads.repository.js';

/** Upload URLs live the longest the store allows: 15 minutes. */
const UPLOAD_URL_SECONDS = MAX_PRESIGN_SECONDS;
/** How long a single PUT may take to be registered, and a multipart upload to be finished. */
const STANDARD_SESSION_MS = 24 * 3600_000;
const MULTIPART_SESSION_MS = UPLOAD_LIMITS.incompleteUploadDays * 24 * 3600_000;

const UPLOAD_READ_ONLY = { legalHold: UPLOAD_MSG.legalHold, vaulted: UPLOAD_MSG.vaulted };

function objectKey(organizationId: string, matterId: string): string {
  return `org/${organizationId}/matters/${matterId}/${randomUUID()}`;
}

/** The MIME type to store, after the type and size rules; 400 with the published texts (UPLOAD_MSG) otherwise. */
function checkFile(
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

function effectiveQuota(ctx: AppContext, own: string | null): number | undefined {
  return own !== null ? Number(own) : ctx.config.storageQuotaBytes;
}

/**
 * 413 when `bytes` more would take the organization over its storage quota (stored files plus the sizes
 * uploads in flight declared). The organization's row stays locked until the caller's transaction ends, so two
 * uploads checked at the same time are checked one after the other and cannot both take the last free bytes.
 */
async function requireQuota(
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
  const target = await checkTarget(ctx, auth, input.matterId, input.parentId, input.fileName);
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
  const target = await checkTarget(ctx, auth, input.matterId, input.parentId, input.fileName);
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

/** The stored size a completed upload may have: under the multipart threshold for a single PUT. */
function storedLimit(ctx: AppContext, kind: UploadSessionRow['kind']): number {
  const max = Math.min(ctx.config.uploadMaxBytes, MAX_SINGLE_PUT_SIZE);
  return kind === 'standard' ? Math.min(max, UPLOAD_LIMITS.multipartThreshold - 1) : ctx.config.uploadMaxBytes;
}

const leaseMs = (ctx: AppContext) => ctx.config.uploadCompletionLeaseSeconds * 1000;

/** A completion's hold on an upload (status 'completing' with this claim id). */
type Claim = { id: string; session: UploadSessionRow };

/**
 * Marks the held upload failed and removes what it stored: the deletion is enqueued in the same transaction (it
 * survives a crash) and also tried at once. Nothing happens when the claim was lost: the upload is then another
 * completion's, and its bytes are not ours to remove.
 */
async function rejectUpload(ctx: AppContext, auth: AuthContext, claim: Claim, reason: string, meta: RequestMeta): Promise<void> {
  const session = claim.session;
  const failed = await ctx.db.transaction().execute(async (trx) => {
    const row = await finishClaimed(trx, session.id, claim.id, 'failed');
    if (!row) return false;
    await enqueueObjectDeletion(ctx, trx, session.organizationId, [session.s3Key], 'upload-rejected');
    await auditFor(auth.user, meta)(
      trx,
      'UPLOAD_FAILED',
      { table: 'upload_sessions', id: session.id },
      { matterId: session.matterId, fileName: session.fileName, reason, multipart: session.kind === 'multipart' },
    );
    return true;
  });
  if (failed) await removeStored(ctx, session);
}

/** Removes an ended upload's parts and object from the store at once; the durable job and the cleanup job retry. */
async function removeStored(ctx: AppContext, session: Pick<UploadSessionRow, 'kind' | 's3Key' | 'uploadId'>): Promise<void> {
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

/** The ETag the store gives an object assembled from these parts, to recognise an assembly already done. */
function expectedEtag(input: MultipartCompleteRequest): string | null {
  if (!input.parts?.length) return null;
  const sorted = [...input.parts].sort((a, b) => a.PartNumber - b.PartNumber);
  if (sorted.some((p) => !/^"?[0-9a-fA-F]{32}"?$/.test(p.ETag))) return null;
  return multipartEtag(sorted.map((p) => p.ETag));
}

/**
 * The answer for an upload that is already complete: its file, when this request describes it (the same size,
 * and for a multipart upload the same parts, so the same bytes); a request for other data is refused, so a
 * client is never told that bytes it did not send are its file.
 */
async function answerCompleted(
  ctx: AppContext,
  auth: AuthContext,
  session: UploadSessionRow,
  input: MultipartCompleteRequest,
): Promise<{ file: NodeDto }> {
  const node = session.nodeId ? await findNode(ctx.db, auth.user.organizationId, session.nodeId) : undefined;
  if (!node) throw notFound(UPLOAD_MSG.uploadNotFound);
  if (Number(node.fileSize) !== input.fileSize)
    throw conflict(UPLOAD_MSG.completedWithOtherParts, { reason: 'UPLOAD_COMPLETED_OTHERWISE' });
  if (session.kind === 'multipart') {
    const head = await ctx.store.head(session.s3Key);
    if (!head || head.etag !== expectedEtag(input))
      throw conflict(UPLOAD_MSG.completedWithOtherParts, { reason: 'UPLOAD_COMPLETED_OTHERWISE' });
  }
  return { file: await nodeDto(ctx.db, auth.user.organizationId, node.id) };
}

/** Why an upload could not be taken for completion, as the caller sees it. */
async function answerUnclaimable(
  ctx: AppContext,
  auth: AuthContext,
  sessionId: string,
  input: MultipartCompleteRequest,
): Promise<{ file: NodeDto }> {
  const now = await findUploadById(ctx.db, sessionId);
  if (now?.status === 'completed') return answerCompleted(ctx, auth, now, input);
  if (now?.status === 'completing' || (now?.status === 'pending' && now.expiresAt.getTime() > Date.now())) {
    throw conflict(UPLOAD_MSG.completionInProgress, { reason: 'UPLOAD_COMPLETING' });
  }
  throw notFound(UPLOAD_MSG.uploadNotFound);
}

/** Renews the claim's lease while the completion works (joining and hashing gigabytes takes a while). */
function keepClaim(ctx: AppContext, claim: Claim): () => void {
  const timer = setInterval(
    () => {
      renewClaim(ctx.db, claim.session.id, claim.id).catch((err: unknown) =>
        ctx.log.warn({ err }, 'renewing an upload completion lease failed'),
      );
    },
    Math.max(500, Math.floor(leaseMs(ctx) / 3)),
  );
  timer.unref();
  return () => clearInterval(timer);
}

class ClaimLostError extends Error {}

/**
 * Completes an upload: one completion at a time holds it ('completing', a lease renewed while it works), so
 * only one ever joins the parts, the object is stored once, and the size and sha256 recorded are those of the
 * stored bytes. A concurrent completion gets 409 (or the finished file, when it asked for the same data); an
 * abort meanwhile gets 409; after a crash a retry takes the upload over once the lease has run out.
 */
export async function completeUpload(
  ctx: AppContext,
  auth: AuthContext,
  input: MultipartCompleteRequest,
  meta: RequestMeta,
): Promise<{ file: NodeDto }> {
  const { user } = auth;
  requireMatterWriter(user, 'canUpload');
  const uploadId = input.uploadId ?? null;
  const found = await findUserUpload(ctx.db, who(auth), input.s3Key, uploadId);
  if (!found) throw notFound(UPLOAD_MSG.uploadNotFound);
  const mime = checkFile(ctx, input.fileName, input.fileType, input.fileSize);
  if (
    found.matterId !== input.matterId ||
    found.parentId !== (input.parentId ?? null) ||
    found.fileName !== input.fileName ||
    found.fileType !== mime
  ) {
    throw badRequest(UPLOAD_MSG.uploadMismatch);
  }
  if (found.status === 'completed') return answerCompleted(ctx, auth, found, input);
  const claimed = await claimUpload(ctx.db, found.id, randomUUID(), leaseMs(ctx));
  if (!claimed) return answerUnclaimable(ctx, auth, found.id, input);
  const claim: Claim = { id: claimed.claimId!, session: claimed };
  const stop = keepClaim(ctx, claim);
  try {
    return await completeClaimed(ctx, auth, claim, input, meta);
  } catch (err) {
    if (err instanceof ClaimLostError) throw conflict(UPLOAD_MSG.completionInProgress, { reason: 'UPLOAD_COMPLETING' });
    throw err;
  } finally {
    stop();
    // Whatever stopped this completion short (wrong parts, a missing file, a store error): the upload is
    // pending again, so a corrected retry may complete it. Once finished or taken over, nothing changes.
    await releaseClaim(ctx.db, claim.session.id, claim.id).catch((err: unknown) =>
      ctx.log.warn({ err }, 'releasing an upload claim failed; its lease runs out'),
    );
  }
}

async function completeClaimed(
  ctx: AppContext,
  auth: AuthContext,
  claim: Claim,
  input: MultipartCompleteRequest,
  meta: RequestMeta,
): Promise<{ file: NodeDto }> {
  const { user } = auth;
  const session = claim.session;
  if (session.fileSize !== null && Number(session.fileSize) !== input.fileSize) {
    await rejectUpload(ctx, auth, claim, 'size differs from the size given at the start', meta);
    throw badRequest(UPLOAD_MSG.sizeMismatch);
  }

  let head: BlobHead | null;
  let parts = 0;
  if (session.kind === 'multipart') {
    const list = [...(input.parts ?? [])]
      .map((p) => ({ partNumber: p.PartNumber, etag: p.ETag }))
      .sort((a, b) => a.partNumber - b.partNumber);
    if (list.some((p, i) => i > 0 && p.partNumber === list[i - 1]!.partNumber)) throw badRequest(UPLOAD_MSG.partsMismatch);
    parts = list.length;
    try {
      head = await ctx.store.completeMultipart({
        key: session.s3Key,
        uploadId: session.uploadId!,
        parts: list,
        partSize: UPLOAD_LIMITS.chunkSize,
      });
    } catch (err) {
      // Missing or wrong parts: the upload stays open, so the client can send them and complete again.
      if (err instanceof BlobInvalidPartError) throw badRequest(UPLOAD_MSG.partsMismatch);
      if (err instanceof BlobObjectExistsError)
        throw conflict(UPLOAD_MSG.completedWithOtherParts, { reason: 'UPLOAD_COMPLETED_OTHERWISE' });
      if (!(err instanceof BlobUploadNotFoundError)) throw err;
      // The store's upload is gone. A completion that stopped after its assembly (a crash) leaves the object:
      // the same parts finish its work, other parts are refused. Nothing stored: the parts are lost.
      const stored = await ctx.store.head(session.s3Key);
      if (!stored) {
        await rejectUpload(ctx, auth, claim, 'the stored parts are gone', meta);
        throw notFound(UPLOAD_MSG.uploadNotFound);
      }
      if (stored.etag !== expectedEtag(input)) throw conflict(UPLOAD_MSG.completedWithOtherParts, { reason: 'UPLOAD_COMPLETED_OTHERWISE' });
      head = stored;
    }
  } else {
    head = await ctx.store.head(session.s3Key);
    if (!head) throw badRequest(UPLOAD_MSG.fileMissing);
  }
  await failpoint(ctx, 'upload.after-join', { s3Key: session.s3Key });
  if (head.size !== input.fileSize) {
    await rejectUpload(ctx, auth, claim, `stored ${head.size} bytes, expected ${input.fileSize}`, meta);
    throw badRequest(UPLOAD_MSG.sizeMismatch);
  }
  // A URL without a bound length (no size given at the start, or S3) is checked here, on the stored bytes.
  const limit = storedLimit(ctx, session.kind);
  if (head.size > limit) {
    await rejectUpload(ctx, auth, claim, `stored ${head.size} bytes, over the limit of ${limit}`, meta);
    throw badRequest(
      session.kind === 'standard' && head.size >= UPLOAD_LIMITS.multipartThreshold
        ? UPLOAD_MSG.multipartRequired(formatByteLimit(UPLOAD_LIMITS.multipartThreshold))
        : UPLOAD_MSG.fileTooLarge(formatByteLimit(limit)),
    );
  }
  // Streamed through the hash: the event loop keeps serving, memory stays flat. Only the claim holder
  // assembles, and the store never replaces an object, so these are the bytes that stay stored.
  const sha256Hash = await ctx.store.sha256(session.s3Key);

  let nodeId: string;
  try {
    nodeId = await ctx.db.transaction().execute(async (trx) => {
      const matter: MatterRow = await lockVisibleMatter(trx, user, session.matterId);
      const current = await lockUploadSession(trx, session.id);
      if (!current || current.status !== 'completing' || current.claimId !== claim.id) throw new ClaimLostError();
      requireMatterWritable(matter, UPLOAD_READ_ONLY);
      const parentId = await resolveParentFolder(trx, matter, session.parentId);
      await requireNameFree(trx, matter.id, parentId, session.fileName);
      await requireQuota(ctx, trx, user.organizationId, head.size, session.id);
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
      if (!(await finishClaimed(trx, session.id, claim.id, 'completed', node.id))) throw new ClaimLostError();
      await auditFor(user, meta)(
        trx,
        'UPLOAD_FILE',
        { table: 'nodes', id: node.id },
        {
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
      );
      return node.id;
    });
  } catch (err) {
    if (err instanceof ClaimLostError) throw err;
    const nameClash = (err as { code?: string; constraint?: string })?.code === '23505';
    if (err instanceof AppError || nameClash) {
      // Refused at the last step (hold applied, folder deleted, name taken, quota): nothing may stay behind.
      await rejectUpload(ctx, auth, claim, err instanceof AppError ? err.message : 'name taken', meta);
      if (nameClash) throw conflict(NODE_MSG.nameExists(session.fileName), { reason: 'NAME_TAKEN', field: 'name' });
    }
    throw err;
  }
  return { file: await nodeDto(ctx.db, user.organizationId, nodeId) };
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
  requireMemberRole(auth.user);
  const session = await findUserUpload(ctx.db, who(auth), input.s3Key, input.uploadId);
  if (!session || session.kind !== 'multipart') throw notFound(UPLOAD_MSG.uploadNotFound);
  const aborted = await ctx.db.transaction().execute(async (trx) => {
    const row = await abortUploadSession(trx, session.id, leaseMs(ctx));
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
    const now = await findUploadById(ctx.db, session.id);
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
