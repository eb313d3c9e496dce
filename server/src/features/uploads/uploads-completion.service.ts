/**
 * Completing an upload: one completion at a time holds the upload, joins the parts, checks the stored size,
 * takes the sha256 of the stored bytes and only then inserts the file node, in one transaction with its audit
 * entry. A completion that does not match leaves no node and its object is removed.
 */
import { randomUUID } from 'node:crypto';
import type { MultipartCompleteRequest, NodeDto, UploadOnConflict } from '@strongroom/contracts';
import { formatByteLimit, NODE_MSG, UPLOAD_LIMITS, UPLOAD_MSG } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { failpoint } from '../../platform/failpoints.js';
import {
  BlobInvalidPartError,
  BlobObjectExistsError,
  BlobUploadNotFoundError,
  MAX_SINGLE_PUT_SIZE,
  multipartEtag,
  type AssembledHead,
} from '../../platform/storage/blob-store.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { AppError, badRequest, conflict, notFound } from '../../shared/errors.js';
import { lockVisibleMatter, requireMatterWritable, requireMatterWriter, type MatterRow } from '../matters/index.js';
import {
  addUploadedVersion,
  enqueueObjectDeletion,
  findNode,
  insertFileNode,
  nodeDto,
  resolveParentFolder,
  resolveUploadTarget,
  uploadedVersionOf,
} from '../nodes/index.js';
import { queueTextReading } from '../search/index.js';
import type { AuthContext } from '../sessions/index.js';
import {
  claimUpload,
  findUploadById,
  findUserUpload,
  finishClaimed,
  lockUploadSession,
  releaseClaim,
  renewClaim,
  type UploadSessionRow,
} from './uploads.repository.js';
import { checkFile, leaseMs, removeStored, requireQuota, UPLOAD_READ_ONLY, who } from './uploads.service.js';
import { countUploadCompleted } from '../../platform/metrics.js';

/** The stored size a completed upload may have: under the multipart threshold for a single PUT. */
function storedLimit(ctx: AppContext, kind: UploadSessionRow['kind']): number {
  const max = Math.min(ctx.config.uploadMaxBytes, MAX_SINGLE_PUT_SIZE);
  return kind === 'standard' ? Math.min(max, UPLOAD_LIMITS.multipartThreshold - 1) : ctx.config.uploadMaxBytes;
}

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
    const row = await finishClaimed(trx, session, claim.id, 'failed');
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
  // The size this upload stored: its version's (the file may have had newer versions since).
  const version = await uploadedVersionOf(ctx.db, auth.user.organizationId, node.id, session.s3Key);
  if (Number(version?.fileSize ?? node.fileSize) !== input.fileSize)
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
  const now = await findUploadById(ctx.db, { id: sessionId, organizationId: auth.user.organizationId });
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
      renewClaim(ctx.db, claim.session, claim.id).catch((err: unknown) =>
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
  const claimed = await claimUpload(ctx.db, found, randomUUID(), leaseMs(ctx));
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
    await releaseClaim(ctx.db, claim.session, claim.id).catch((err: unknown) =>
      ctx.log.warn({ err }, 'releasing an upload claim failed; its lease runs out'),
    );
  }
}

/** What completion learned of the stored bytes, and what the upload asked for when its name is taken. */
type Stored = { size: number; sha256Hash: string; parts: number; onConflict: UploadOnConflict | null | undefined };

/**
 * Inside the completion's transaction, under the matter's lock: the file is stored as a new file (its own name,
 * or the first free 'name (n).ext' for keep-both) or as the next version of the file of that name, and audited.
 */
async function storeCompleted(
  ctx: AppContext,
  trx: Executor,
  auth: AuthContext,
  claim: Claim,
  stored: Stored,
  meta: RequestMeta,
): Promise<string> {
  const { user } = auth;
  const session = claim.session;
  const matter: MatterRow = await lockVisibleMatter(trx, user, session.matterId);
  const current = await lockUploadSession(trx, session);
  if (!current || current.status !== 'completing' || current.claimId !== claim.id) throw new ClaimLostError();
  requireMatterWritable(matter, UPLOAD_READ_ONLY);
  const parentId = await resolveParentFolder(trx, matter, session.parentId);
  const target = await resolveUploadTarget(trx, matter, parentId, session.fileName, stored.onConflict);
  await requireQuota(ctx, trx, user.organizationId, stored.size, session.id);
  const file = { fileSize: stored.size, mimeType: session.fileType, sha256Hash: stored.sha256Hash, storagePath: session.s3Key };
  let node: { id: string; name: string; mimeType: string | null };
  let version = 1;
  const added =
    target.kind === 'newVersion'
      ? await addUploadedVersion(trx, user.organizationId, target.nodeId, { ...file, createdBy: user.id })
      : undefined;
  if (added) {
    node = added.node;
    version = added.versionNumber;
  } else {
    node = await insertFileNode(trx, {
      organizationId: user.organizationId,
      matterId: matter.id,
      parentId,
      name: target.kind === 'newFile' ? target.name : session.fileName,
      ...file,
      uploadId: session.uploadId,
      uploadStatus: 'completed',
      uploadProgress: 100,
      createdBy: user.id,
    });
  }
  if (!(await finishClaimed(trx, session, claim.id, 'completed', node.id))) throw new ClaimLostError();
  // The version's text is read for document search afterwards, by a job that exists exactly when this commits.
  await queueTextReading(ctx, trx);
  await auditFor(user, meta)(
    trx,
    'UPLOAD_FILE',
    { table: 'nodes', id: node.id },
    {
      matterId: matter.id,
      matterName: matter.matterName,
      fileName: node.name,
      parentId,
      fileSize: stored.size,
      mimeType: node.mimeType,
      sha256Hash: stored.sha256Hash,
      multipart: session.kind === 'multipart',
      version,
      ...(stored.parts ? { parts: stored.parts } : {}),
    },
  );
  return node.id;
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

  let head: AssembledHead | null;
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
  // Only the claim holder assembles, and the store never replaces an object, so these are the bytes that stay
  // stored. The local store hashed them as it wrote them (the digest of exactly the stored bytes); otherwise
  // (S3, a single PUT, an assembly finished before a crash) they are read back through the hash, streamed: the
  // event loop keeps serving, memory stays flat.
  const sha256Hash = head.sha256 ?? (await ctx.store.sha256(session.s3Key));

  let nodeId: string;
  try {
    nodeId = await ctx.db
      .transaction()
      .execute((trx) =>
        storeCompleted(
          ctx,
          trx,
          auth,
          claim,
          { size: head.size, sha256Hash, parts, onConflict: input.onConflict ?? session.onConflict },
          meta,
        ),
      );
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
  countUploadCompleted(head.size);
  return { file: await nodeDto(ctx.db, user.organizationId, nodeId) };
}
