/**
 * Reading a matter's tree: one node as the API answers it, the matter with its tree, and a file's download link.
 * Changes of the tree are in nodes-changes.service.ts, their undo in nodes-undo.service.ts.
 */
import type { MatterDetailQuery, NodeDto, NodeTreeDto } from '@strongroom/contracts';
import { FILES_IN_NONE, FILES_IN_ROOT, matterDetailResponse, NODE_MSG, VAULT_MSG } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { MAX_PRESIGN_SECONDS } from '../../platform/storage/blob-store.js';
import { requireReadPermission } from '../../shared/access.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { badRequest, conflict, forbidden, notFound } from '../../shared/errors.js';
import { jsonWithArrayText } from '../../shared/json-text.js';
import { getVisibleMatter, toMatterDto } from '../matters/index.js';
import type { AuthContext } from '../sessions/index.js';
import { guestGrantAccess } from '../team/index.js';
import { findVersion } from './node-versions.repository.js';
import { findNode, listMatterNodeDtos, pathNames, type NodeListRow, type NodeRow, type TreeFiles } from './nodes.repository.js';

/**
 * Download links live 5 minutes with the local store, which refuses a link at once when its file is deleted.
 * An S3 link cannot be revoked: it lives 60 seconds, enough to start a download (a started download goes on).
 */
const DOWNLOAD_URL_SECONDS = Math.min(5 * 60, MAX_PRESIGN_SECONDS);
const S3_DOWNLOAD_URL_SECONDS = 60;

function toNodeDto(n: NodeRow, path: string, creator: { creatorId: string | null; creatorName: string | null }): NodeDto {
  return {
    id: n.id,
    matterId: n.matterId,
    organizationId: n.organizationId,
    parentId: n.parentId,
    name: n.name,
    nodeType: n.nodeType,
    path,
    fileSize: n.fileSize === null ? null : Number(n.fileSize),
    mimeType: n.mimeType,
    sha256Hash: n.sha256Hash,
    storagePath: n.storagePath,
    uploadId: n.uploadId,
    uploadStatus: n.uploadStatus,
    uploadProgress: n.uploadProgress,
    createdBy: creator.creatorId,
    createdByName: creator.creatorName,
    createdAt: n.createdAt.toISOString(),
    updatedAt: n.updatedAt.toISOString(),
    currentVersion: n.nodeType === 'file' ? n.currentVersion : null,
  };
}

/** One node as the API answers it, path and creator looked up. */
export async function nodeDto(db: Executor, organizationId: string, nodeId: string): Promise<NodeDto> {
  const node = await findNode(db, organizationId, nodeId);
  if (!node) throw notFound(NODE_MSG.itemNotFound);
  return toNodeDto(node, '/' + (await pathNames(db, node.id)).join('/'), node);
}

/**
 * Names in the order people expect (case and accents aside, 'File 2' before 'File 10'). One collator for every
 * comparison: localeCompare with options builds a new one each time, which made a 10,000-node tree take seconds.
 */
const nameOrder = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });

type Named = { nodeType: 'file' | 'folder'; name: string };
const byFolderThenName = (a: Named, b: Named) =>
  a.nodeType === b.nodeType ? nameOrder.compare(a.name, b.name) : a.nodeType === 'folder' ? -1 : 1;

/**
 * The matter's tree as JSON text: root entries with their children, folders first, then files, by name, each
 * node with its path. The database answers each node's fields in their API form; here they are only nested
 * and written once, so a matter of 10,000 nodes is not parsed, mapped and checked field by field on the way.
 */
export async function matterTreeJson(db: Executor, organizationId: string, matterId: string, files?: TreeFiles): Promise<string> {
  const rows = await listMatterNodeDtos(db, organizationId, matterId, files);
  const byParent = new Map<string | null, NodeListRow[]>();
  for (const row of rows) {
    const list = byParent.get(row.parentId) ?? [];
    list.push(row);
    byParent.set(row.parentId, list);
  }
  const build = (parentId: string | null, parentPath: string): NodeTreeDto[] =>
    (byParent.get(parentId) ?? []).sort(byFolderThenName).map((row) => {
      const path = `${parentPath}/${row.name}`;
      return { ...row, path, children: row.nodeType === 'folder' ? build(row.id, path) : [] };
    });
  return JSON.stringify(build(null, ''));
}

/** A matter with its tree, for the matter's page, as JSON text: the matter must be one the user may see. */
export async function getMatterDetail(ctx: AppContext, auth: AuthContext, query: MatterDetailQuery): Promise<string> {
  const { matterId, filesIn } = query;
  // Guests too, for a matter shared with them (getVisibleMatter checks the grant).
  const matter = await getVisibleMatter(ctx.db, auth.user, matterId);
  const { user } = auth;
  // A guest is told their grant's access, so the page offers downloads exactly when the server allows them.
  const [guestAccess, nodes] = await Promise.all([
    user.role === 'guest' ? guestGrantAccess(ctx.db, user.organizationId, matter.id, user.id) : null,
    matterTreeJson(ctx.db, matter.organizationId, matter.id, treeFiles(filesIn)),
  ]);
  return jsonWithArrayText(matterDetailHead, { matter: toMatterDto(matter), ...(guestAccess ? { guestAccess } : {}) }, 'nodes', nodes);
}

const matterDetailHead = matterDetailResponse.omit({ nodes: true });

function treeFiles(filesIn: MatterDetailQuery['filesIn']): TreeFiles {
  if (filesIn === undefined) return { all: true };
  if (filesIn === FILES_IN_NONE) return { none: true };
  return { in: filesIn === FILES_IN_ROOT ? null : filesIn };
}

/** Hours a restore from deep cold storage takes at most (S3 standard retrieval: GLACIER 3-5 h, DEEP_ARCHIVE 12 h). */
const RESTORE_HOURS: Record<string, number> = { GLACIER: 5, DEEP_ARCHIVE: 12 };
/** Days a restored copy stays readable. */
const RESTORE_DAYS = 2;

/**
 * A file in the vault is read from its vault object: gone once its retention ended (404), and in a storage
 * class that needs a restore (GLACIER, DEEP_ARCHIVE) a restore is started and the answer (409) says by when.
 */
export async function requireVaultedFileReadable(ctx: AppContext, key: string): Promise<void> {
  const info = await ctx.store.vaultInfo(key);
  if (!info) throw notFound(VAULT_MSG.fileDestroyed);
  if (!info.restore || info.restore.readyUntil) return;
  const started = !info.restore.ongoing;
  if (started) await ctx.store.requestRestore(key, RESTORE_DAYS);
  const readyBy = new Date(Date.now() + (RESTORE_HOURS[info.storageClass ?? ''] ?? 12) * 3_600_000).toISOString();
  throw conflict(VAULT_MSG.restoreStarted({ readyBy, started }), { reason: 'RESTORE_PENDING', readyBy });
}

/**
 * A short-lived download link for a file (canRetrieve), audited as DOWNLOAD_FILE: its current version, or the
 * version asked for. Reading is allowed under hold and in the vault.
 */
type StoredObject = { key: string; fileSize: string | number | null; sha256Hash: string | null; mimeType: string | null };

/**
 * The stored object a read of a file serves: the current version's, or that of the version asked for (404 when
 * the file never had it). In a vaulted matter every version's object must be readable where it is (a vault
 * object in a cold class is restored first).
 */
export async function storedObjectOf(
  ctx: AppContext,
  node: { id: string; organizationId: string; fileSize: string | null; sha256Hash: string | null; mimeType: string | null },
  storagePath: string,
  vaulted: boolean,
  versionNumber?: number,
): Promise<StoredObject> {
  let object: StoredObject = { key: storagePath, fileSize: node.fileSize, sha256Hash: node.sha256Hash, mimeType: node.mimeType };
  if (versionNumber !== undefined) {
    const version = await findVersion(ctx.db, node.organizationId, node.id, versionNumber);
    if (!version) throw notFound(NODE_MSG.versionNotFound);
    object = { key: version.storagePath, fileSize: version.fileSize, sha256Hash: version.sha256Hash, mimeType: version.mimeType };
  }
  if (vaulted) await requireVaultedFileReadable(ctx, object.key);
  return object;
}

/** What a download or preview of a file records in its audit entry: the matter, the file and the version read. */
export function fileReadDetails(
  matter: { id: string; matterName: string; isVaulted: boolean },
  node: { name: string; currentVersion: number | null },
  object: StoredObject,
  versionNumber?: number,
) {
  return {
    matterId: matter.id,
    matterName: matter.matterName,
    fileName: node.name,
    fileSize: Number(object.fileSize),
    sha256Hash: object.sha256Hash,
    vaulted: matter.isVaulted,
    ...(versionNumber !== undefined ? { version: versionNumber } : node.currentVersion ? { version: node.currentVersion } : {}),
  };
}

export async function downloadUrl(
  ctx: AppContext,
  auth: AuthContext,
  nodeId: string,
  meta: RequestMeta,
  versionNumber?: number,
): Promise<{ url: string; expiresAt: string }> {
  const { user } = auth;
  // Members need canRetrieve. A guest's download is decided by the grant the administrator made for that matter,
  // whatever their canRetrieve says: 'download' lets them, 'view' answers 403 with why; a file of a matter not
  // shared with them answers 404, as a file that does not exist.
  if (user.role !== 'guest') requireReadPermission(user, 'canRetrieve');
  const node = await findNode(ctx.db, user.organizationId, nodeId);
  if (!node) throw notFound(NODE_MSG.itemNotFound);
  if (user.role === 'guest') {
    const access = await guestGrantAccess(ctx.db, user.organizationId, node.matterId, user.id);
    if (access === null) throw notFound(NODE_MSG.itemNotFound);
    if (access === 'view') throw forbidden(NODE_MSG.guestViewOnly);
  }
  const matter = await getVisibleMatter(ctx.db, user, node.matterId);
  if (node.nodeType !== 'file' || !node.storagePath) throw badRequest(NODE_MSG.downloadFilesOnly);
  // A vaulted matter's file: canRetrieve (above) and canViewVaulted (getVisibleMatter) both held.
  const object = await storedObjectOf(ctx, node, node.storagePath, matter.isVaulted, versionNumber);
  const signed = await ctx.store.presignGet({
    key: object.key,
    expiresInSeconds: ctx.store.kind === 's3' ? S3_DOWNLOAD_URL_SECONDS : DOWNLOAD_URL_SECONDS,
    fileName: node.name,
    contentType: object.mimeType ?? undefined,
  });
  await ctx.db
    .transaction()
    .execute((trx) =>
      auditFor(user, meta)(trx, 'DOWNLOAD_FILE', { table: 'nodes', id: node.id }, fileReadDetails(matter, node, object, versionNumber)),
    );
  return { url: signed.url, expiresAt: signed.expiresAt.toISOString() };
}
