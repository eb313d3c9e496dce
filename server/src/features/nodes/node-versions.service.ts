/**
 * A file's versions: the list, restoring an earlier one, and the version an upload adds (uploads call it inside
 * their completion). Stored objects are write-once: a new version is a new object, and restoring makes a new
 * version that points at the old version's object, so nothing stored is ever overwritten.
 */
import type { NodeResponse, NodeVersionsResponse, RestoreVersionRequest } from '@strongroom/contracts';
import { NODE_MSG } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { badRequest, notFound } from '../../shared/errors.js';
import { getVisibleMatter, requireMatterWriter } from '../matters/index.js';
import type { AuthContext } from '../sessions/index.js';
import { guestGrantAccess } from '../team/index.js';
import { lockNodeForChange } from './nodes-changes.service.js';
import {
  addVersionRow,
  findVersion,
  findVersionByKey,
  listVersions,
  type NewVersion,
  type NodeVersionRow,
} from './node-versions.repository.js';
import { findNode, lockNode, type NodeRow } from './nodes.repository.js';
import { nodeDto } from './nodes.service.js';

/** A file's versions, newest first, for anyone who may see the file (a matter not visible to them: 404). */
export async function listNodeVersions(ctx: AppContext, auth: AuthContext, nodeId: string): Promise<NodeVersionsResponse> {
  const { user } = auth;
  const node = await findNode(ctx.db, user.organizationId, nodeId);
  if (!node) throw notFound(NODE_MSG.itemNotFound);
  // A guest sees the files of the matters shared with them; any other file answers as one that does not exist.
  if (user.role === 'guest' && (await guestGrantAccess(ctx.db, user.organizationId, node.matterId, user.id)) === null)
    throw notFound(NODE_MSG.itemNotFound);
  await getVisibleMatter(ctx.db, user, node.matterId);
  if (node.nodeType !== 'file') throw badRequest(NODE_MSG.versionsFilesOnly);
  const rows = await listVersions(ctx.db, user.organizationId, node.id);
  return {
    versions: rows.map((v) => ({
      versionNumber: v.versionNumber,
      fileSize: Number(v.fileSize),
      sha256Hash: v.sha256Hash,
      mimeType: v.mimeType,
      createdBy: v.creatorId,
      createdByName: v.creatorName,
      createdAt: v.createdAt.toISOString(),
      restoredFromVersion: v.restoredFromVersion,
      isCurrent: v.versionNumber === node.currentVersion,
    })),
  };
}

/**
 * Adds an uploaded version to an existing file, inside the caller's transaction, which holds the matter's lock:
 * the file's row is locked here, so two uploads completed at once become two versions, one after the other.
 * Answers undefined when the file is gone or is no longer a file (the caller then stores a new file).
 */
export async function addUploadedVersion(
  trx: Executor,
  organizationId: string,
  nodeId: string,
  version: Omit<NewVersion, 'restoredFromVersion'>,
): Promise<{ node: NodeRow; versionNumber: number } | undefined> {
  const node = await lockNode(trx, organizationId, nodeId);
  if (!node || node.nodeType !== 'file') return undefined;
  return addVersionRow(trx, node, { ...version, restoredFromVersion: null });
}

/** The version an upload stored (by its object key), to answer a repeated completion with what it stored. */
export function uploadedVersionOf(
  db: Executor,
  organizationId: string,
  nodeId: string,
  s3Key: string,
): Promise<NodeVersionRow | undefined> {
  return findVersionByKey(db, organizationId, nodeId, s3Key);
}

/**
 * Makes an earlier version current again as a new version (canUpload: it changes what the file holds). Refused
 * under legal hold, in the vault and after retention ended, as every change of a matter's files.
 */
export async function restoreVersion(
  ctx: AppContext,
  auth: AuthContext,
  input: RestoreVersionRequest,
  meta: RequestMeta,
): Promise<NodeResponse> {
  const { user } = auth;
  requireMatterWriter(user, 'canUpload');
  await ctx.db.transaction().execute(async (trx) => {
    const { matter, node } = await lockNodeForChange(trx, auth, input.nodeId);
    if (node.nodeType !== 'file') throw badRequest(NODE_MSG.versionsFilesOnly);
    const old = await findVersion(trx, user.organizationId, node.id, input.versionNumber);
    if (!old) throw notFound(NODE_MSG.versionNotFound);
    if (old.versionNumber === node.currentVersion) throw badRequest(NODE_MSG.alreadyCurrentVersion);
    const added = await addVersionRow(trx, node, {
      fileSize: Number(old.fileSize),
      mimeType: old.mimeType,
      sha256Hash: old.sha256Hash,
      storagePath: old.storagePath,
      createdBy: user.id,
      restoredFromVersion: old.versionNumber,
    });
    await auditFor(user, meta)(
      trx,
      'RESTORE_VERSION',
      { table: 'nodes', id: node.id },
      {
        matterId: matter.id,
        matterName: matter.matterName,
        fileName: node.name,
        restoredFromVersion: old.versionNumber,
        version: added.versionNumber,
        fileSize: Number(old.fileSize),
        sha256Hash: old.sha256Hash,
      },
    );
  });
  return { node: await nodeDto(ctx.db, user.organizationId, input.nodeId) };
}
