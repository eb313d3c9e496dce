import type {
  CreateFolderRequest,
  MatterDetailResponse,
  MoveNodeRequest,
  NodeChangeResponse,
  NodeDto,
  NodeTreeDto,
  RenameNodeRequest,
} from '@strongroom/contracts';
import { NODE_MSG, VAULT_MSG } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { MAX_PRESIGN_SECONDS } from '../../platform/storage/blob-store.js';
import { requireReadPermission } from '../../shared/access.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { badRequest, conflict, notFound } from '../../shared/errors.js';
import { isUniqueViolation } from '../../shared/unique-violation.js';
import {
  getVisibleMatter,
  lockVisibleMatter,
  requireMatterWritable,
  requireMatterWriter,
  toMatterDto,
  type MatterRow,
} from '../matters/index.js';
import type { AuthContext } from '../sessions/index.js';
import { recordUndo, undoUnavailable, type UndoEntry, type UndoOffer } from '../undo/undo.service.js';
import { enqueueObjectDeletion } from './nodes.jobs.js';
import {
  deleteSubtree,
  findNode,
  insertNode,
  isSelfOrDescendant,
  listMatterNodes,
  lockNode,
  nameTaken,
  pathNames,
  updateNode,
  type NewNode,
  type NodeRow,
  type NodeWithCreator,
} from './nodes.repository.js';

/**
 * Download links live 5 minutes with the local store, which refuses a link at once when its file is deleted.
 * An S3 link cannot be revoked: it lives 60 seconds, enough to start a download (a started download goes on).
 */
const DOWNLOAD_URL_SECONDS = Math.min(5 * 60, MAX_PRESIGN_SECONDS);
const S3_DOWNLOAD_URL_SECONDS = 60;

function toNodeDto(n: NodeRow, path: string, creatorId: string | null): NodeDto {
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
    createdBy: creatorId,
    createdAt: n.createdAt.toISOString(),
    updatedAt: n.updatedAt.toISOString(),
  };
}

/** One node as the API answers it, path and creator looked up. */
export async function nodeDto(db: Executor, organizationId: string, nodeId: string): Promise<NodeDto> {
  const node = await findNode(db, organizationId, nodeId);
  if (!node) throw notFound(NODE_MSG.itemNotFound);
  return toNodeDto(node, '/' + (await pathNames(db, node.id)).join('/'), node.creatorId);
}

const byFolderThenName = (a: NodeRow, b: NodeRow) =>
  a.nodeType === b.nodeType
    ? a.name.localeCompare(b.name, undefined, { sensitivity: 'base', numeric: true })
    : a.nodeType === 'folder'
      ? -1
      : 1;

/** The matter's nodes as a tree: root entries with their children, folders first, then files, by name. */
async function matterTree(db: Executor, matter: MatterRow): Promise<NodeTreeDto[]> {
  const rows = await listMatterNodes(db, matter.organizationId, matter.id);
  const byParent = new Map<string | null, NodeWithCreator[]>();
  for (const row of rows) {
    const list = byParent.get(row.parentId) ?? [];
    list.push(row);
    byParent.set(row.parentId, list);
  }
  const build = (parentId: string | null, parentPath: string): NodeTreeDto[] =>
    (byParent.get(parentId) ?? []).sort(byFolderThenName).map((row) => {
      const path = `${parentPath}/${row.name}`;
      return { ...toNodeDto(row, path, row.creatorId), children: row.nodeType === 'folder' ? build(row.id, path) : [] };
    });
  return build(null, '');
}

/** A matter with its tree, for the matter's page: the matter must be one the user may see. */
export async function getMatterDetail(ctx: AppContext, auth: AuthContext, matterId: string): Promise<MatterDetailResponse> {
  // Guests too, for a matter shared with them (getVisibleMatter checks the grant).
  const matter = await getVisibleMatter(ctx.db, auth.user, matterId);
  return { matter: toMatterDto(matter), nodes: await matterTree(ctx.db, matter) };
}

/** The folder a new node goes into: null for the root, else a folder of the same matter. */
export async function resolveParentFolder(trx: Executor, matter: MatterRow, parentId: string | null | undefined): Promise<string | null> {
  if (!parentId) return null;
  const parent = await findNode(trx, matter.organizationId, parentId);
  if (!parent || parent.matterId !== matter.id) throw notFound(NODE_MSG.itemNotFound);
  if (parent.nodeType !== 'folder') throw badRequest(NODE_MSG.targetNotFolder);
  return parent.id;
}

/** 409 when the folder already has an item of that name (case-insensitive). */
export async function requireNameFree(
  trx: Executor,
  matterId: string,
  parentId: string | null,
  name: string,
  exceptNodeId?: string,
): Promise<void> {
  if (await nameTaken(trx, matterId, parentId, name, exceptNodeId))
    throw conflict(NODE_MSG.nameExists(name), { reason: 'NAME_TAKEN', field: 'name' });
}

/** Runs a tree change; a name clash that slipped past the check (a race) still answers 409. */
async function withNameGuard<T>(name: () => string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isUniqueViolation(err, 'nodes_name_unique')) throw conflict(NODE_MSG.nameExists(name()), { reason: 'NAME_TAKEN', field: 'name' });
    throw err;
  }
}

/** Inserts a file node; the caller holds the matter lock and checked the parent and the name. */
export function insertFileNode(trx: Executor, values: Omit<NewNode, 'nodeType'>): Promise<NodeRow> {
  return insertNode(trx, { ...values, nodeType: 'file' });
}

export async function createFolder(
  ctx: AppContext,
  auth: AuthContext,
  input: CreateFolderRequest,
  meta: RequestMeta,
): Promise<{ node: NodeDto }> {
  const { user } = auth;
  requireMatterWriter(user, 'canUpload');
  const name = input.folderName;
  const node = await withNameGuard(
    () => name,
    () =>
      ctx.db.transaction().execute(async (trx) => {
        const matter = await lockVisibleMatter(trx, user, input.matterId);
        requireMatterWritable(matter, { legalHold: NODE_MSG.folderCreateLegalHold, vaulted: NODE_MSG.folderCreateVaulted });
        const parentId = await resolveParentFolder(trx, matter, input.parentId);
        await requireNameFree(trx, matter.id, parentId, name);
        const row = await insertNode(trx, {
          organizationId: user.organizationId,
          matterId: matter.id,
          parentId,
          name,
          nodeType: 'folder',
          fileSize: null,
          mimeType: null,
          sha256Hash: null,
          storagePath: null,
          uploadId: null,
          uploadStatus: null,
          uploadProgress: null,
          createdBy: user.id,
        });
        await auditFor(user, meta)(
          trx,
          'CREATE_FOLDER',
          { table: 'nodes', id: row.id },
          { matterId: matter.id, matterName: matter.matterName, name, parentId },
        );
        return row;
      }),
  );
  return { node: await nodeDto(ctx.db, user.organizationId, node.id) };
}

/**
 * Locks the matter of a node, then the node. Every tree change of a matter takes the matter's lock first, so
 * two changes of one matter never interleave.
 */
async function lockNodeForChange(trx: Executor, auth: AuthContext, nodeId: string): Promise<{ matter: MatterRow; node: NodeRow }> {
  const { user } = auth;
  const found = await findNode(trx, user.organizationId, nodeId);
  if (!found) throw notFound(NODE_MSG.itemNotFound);
  const matter = await lockVisibleMatter(trx, user, found.matterId);
  const node = await lockNode(trx, user.organizationId, nodeId);
  if (!node) throw notFound(NODE_MSG.itemNotFound);
  requireMatterWritable(matter, { legalHold: NODE_MSG.legalHold, vaulted: NODE_MSG.vaulted });
  return { matter, node };
}

/** Folders only, as in the detail dialog's menu: a file keeps the name it was filed under, part of its record. */
export async function renameNode(
  ctx: AppContext,
  auth: AuthContext,
  input: RenameNodeRequest,
  meta: RequestMeta,
): Promise<NodeChangeResponse> {
  const { user } = auth;
  requireMatterWriter(user, 'canRename');
  const newName = input.newName;
  let offer: UndoOffer | undefined;
  await withNameGuard(
    () => newName,
    () =>
      ctx.db.transaction().execute(async (trx) => {
        const { matter, node } = await lockNodeForChange(trx, auth, input.nodeId);
        if (node.nodeType !== 'folder') throw badRequest(NODE_MSG.renameFoldersOnly);
        if (node.name === newName) return node;
        await requireNameFree(trx, node.matterId, node.parentId, newName, node.id);
        const updated = await updateNode(trx, node, { name: newName });
        await auditFor(user, meta)(
          trx,
          'RENAME_NODE',
          { table: 'nodes', id: node.id },
          { matterId: matter.id, nodeType: node.nodeType, from: node.name, to: newName },
        );
        offer = await recordUndo(trx, auth, {
          kind: 'node.rename',
          targetId: node.id,
          version: updated.version,
          before: { name: node.name },
        });
        return updated;
      }),
  );
  return { node: await nodeDto(ctx.db, user.organizationId, input.nodeId), ...offer };
}

/** Moving needs canRename: it changes where an item is found, as a rename changes what it is called. */
export async function moveNode(ctx: AppContext, auth: AuthContext, input: MoveNodeRequest, meta: RequestMeta): Promise<NodeChangeResponse> {
  const { user } = auth;
  requireMatterWriter(user, 'canRename');
  let movedName = '';
  let offer: UndoOffer | undefined;
  await withNameGuard(
    () => movedName,
    () =>
      ctx.db.transaction().execute(async (trx) => {
        const { matter, node } = await lockNodeForChange(trx, auth, input.nodeId);
        movedName = node.name;
        const target = input.newParentId;
        if (target === node.id) throw badRequest(NODE_MSG.moveIntoItself);
        const parentId = await resolveParentFolder(trx, matter, target);
        if (parentId === node.parentId) throw badRequest(NODE_MSG.moveSameParent);
        // Under the matter's lock the tree cannot change between this check and the update.
        if (parentId && node.nodeType === 'folder' && (await isSelfOrDescendant(trx, node.id, parentId)))
          throw badRequest(NODE_MSG.moveIntoItself);
        await requireNameFree(trx, matter.id, parentId, node.name, node.id);
        const updated = await updateNode(trx, node, { parentId });
        await auditFor(user, meta)(
          trx,
          'MOVE_NODE',
          { table: 'nodes', id: node.id },
          { matterId: matter.id, name: node.name, nodeType: node.nodeType, fromParentId: node.parentId, toParentId: parentId },
        );
        offer = await recordUndo(trx, auth, {
          kind: 'node.move',
          targetId: node.id,
          version: updated.version,
          before: { parentId: node.parentId },
        });
        return updated;
      }),
  );
  return { node: await nodeDto(ctx.db, user.organizationId, input.nodeId), ...offer };
}

/**
 * Takes the node of an undo entry as a rename or move would (matter lock first, hold, vault and retention
 * refused), still holding the permission, and still at the version the change left it at.
 */
async function lockNodeForUndo(trx: Executor, auth: AuthContext, entry: UndoEntry): Promise<{ matter: MatterRow; node: NodeRow }> {
  requireMatterWriter(auth.user, 'canRename');
  if (!(await findNode(trx, auth.user.organizationId, entry.targetId))) throw undoUnavailable('GONE');
  const locked = await lockNodeForChange(trx, auth, entry.targetId);
  if (locked.node.version !== entry.version) throw undoUnavailable('CHANGED');
  return locked;
}

/** Undo of a rename: the folder takes its former name back, if that name is still free in its folder. */
export async function undoRenameNode(
  trx: Executor,
  auth: AuthContext,
  entry: UndoEntry,
  meta: RequestMeta,
): Promise<{ targetId: string; matterId: string }> {
  const { user } = auth;
  const { matter, node } = await lockNodeForUndo(trx, auth, entry);
  const name = String((entry.before as { name: string }).name);
  await withNameGuard(
    () => name,
    async () => {
      await requireNameFree(trx, node.matterId, node.parentId, name, node.id);
      await updateNode(trx, node, { name });
    },
  );
  await auditFor(user, meta)(
    trx,
    'UNDO_RENAME_NODE',
    { table: 'nodes', id: node.id },
    { matterId: matter.id, undoId: entry.id, nodeType: node.nodeType, from: node.name, to: name },
  );
  return { targetId: node.id, matterId: matter.id };
}

/**
 * Undo of a move: the item goes back to its former folder, if that folder still exists in the matter, is not
 * the item itself or below it now, and has no other item of the same name.
 */
export async function undoMoveNode(
  trx: Executor,
  auth: AuthContext,
  entry: UndoEntry,
  meta: RequestMeta,
): Promise<{ targetId: string; matterId: string }> {
  const { user } = auth;
  const { matter, node } = await lockNodeForUndo(trx, auth, entry);
  const formerParent = (entry.before as { parentId: string | null }).parentId;
  let parentId: string | null = null;
  if (formerParent) {
    const parent = await findNode(trx, user.organizationId, formerParent);
    if (!parent || parent.matterId !== matter.id || parent.nodeType !== 'folder') throw undoUnavailable('GONE');
    if (node.nodeType === 'folder' && (await isSelfOrDescendant(trx, node.id, parent.id))) throw undoUnavailable('CHANGED');
    parentId = parent.id;
  }
  await withNameGuard(
    () => node.name,
    async () => {
      await requireNameFree(trx, matter.id, parentId, node.name, node.id);
      await updateNode(trx, node, { parentId });
    },
  );
  await auditFor(user, meta)(
    trx,
    'UNDO_MOVE_NODE',
    { table: 'nodes', id: node.id },
    { matterId: matter.id, undoId: entry.id, name: node.name, nodeType: node.nodeType, fromParentId: node.parentId, toParentId: parentId },
  );
  return { targetId: node.id, matterId: matter.id };
}

/**
 * Deletes a node and its subtree: the rows go in one transaction, which also enqueues the deletion of the
 * stored objects; the job runs after the commit. So a crash leaves at worst an object without a row (removed
 * when the job runs), never a row without its object.
 */
export async function deleteNode(
  ctx: AppContext,
  auth: AuthContext,
  nodeId: string,
  meta: RequestMeta,
): Promise<{ success: true; deletedCount: number }> {
  const { user } = auth;
  // A person who may change nothing is told the matter is read-only; one lacking only canDelete, that they lack it.
  requireMatterWriter(user, 'canDelete');
  const deleted = await ctx.db.transaction().execute(async (trx) => {
    const { matter, node } = await lockNodeForChange(trx, auth, nodeId);
    const path = '/' + (await pathNames(trx, node.id)).join('/');
    const rows = await deleteSubtree(trx, user.organizationId, node.id);
    const keys = rows.flatMap((r) => (r.storagePath ? [r.storagePath] : []));
    if (keys.length > 0) await enqueueObjectDeletion(ctx, trx, user.organizationId, keys, 'node-deleted');
    await auditFor(user, meta)(
      trx,
      'DELETE_NODE',
      { table: 'nodes', id: node.id },
      {
        matterId: matter.id,
        name: node.name,
        nodeType: node.nodeType,
        path,
        deletedNodes: rows.length,
        deletedFiles: rows.filter((r) => r.nodeType === 'file').length,
        deletedBytes: rows.reduce((sum, r) => sum + Number(r.fileSize ?? 0), 0),
        fileIds: rows
          .filter((r) => r.nodeType === 'file')
          .map((r) => r.id)
          .slice(0, 1000),
      },
    );
    return rows.length;
  });
  return { success: true, deletedCount: deleted };
}

/** Hours a restore from deep cold storage takes at most (S3 standard retrieval: GLACIER 3-5 h, DEEP_ARCHIVE 12 h). */
const RESTORE_HOURS: Record<string, number> = { GLACIER: 5, DEEP_ARCHIVE: 12 };
/** Days a restored copy stays readable. */
const RESTORE_DAYS = 2;

/**
 * A file in the vault is read from its vault object: gone once its retention ended (404), and in a storage
 * class that needs a restore (GLACIER, DEEP_ARCHIVE) a restore is started and the answer (409) says by when.
 */
async function requireVaultedFileReadable(ctx: AppContext, key: string): Promise<void> {
  const info = await ctx.store.vaultInfo(key);
  if (!info) throw notFound(VAULT_MSG.fileDestroyed);
  if (!info.restore || info.restore.readyUntil) return;
  const started = !info.restore.ongoing;
  if (started) await ctx.store.requestRestore(key, RESTORE_DAYS);
  const readyBy = new Date(Date.now() + (RESTORE_HOURS[info.storageClass ?? ''] ?? 12) * 3_600_000).toISOString();
  throw conflict(VAULT_MSG.restoreStarted({ readyBy, started }), { reason: 'RESTORE_PENDING', readyBy });
}

/** A short-lived download link for a file (canRetrieve), audited as DOWNLOAD_FILE. Reading is allowed under hold and in the vault. */
export async function downloadUrl(
  ctx: AppContext,
  auth: AuthContext,
  nodeId: string,
  meta: RequestMeta,
): Promise<{ url: string; expiresAt: string }> {
  const { user } = auth;
  // Guests too, when they hold canRetrieve, for files of a matter shared with them (getVisibleMatter checks the grant).
  requireReadPermission(user, 'canRetrieve');
  const node = await findNode(ctx.db, user.organizationId, nodeId);
  if (!node) throw notFound(NODE_MSG.itemNotFound);
  const matter = await getVisibleMatter(ctx.db, user, node.matterId);
  if (node.nodeType !== 'file' || !node.storagePath) throw badRequest(NODE_MSG.downloadFilesOnly);
  // A vaulted matter's file: canRetrieve (above) and canViewVaulted (getVisibleMatter) both held.
  if (matter.isVaulted) await requireVaultedFileReadable(ctx, node.storagePath);
  const signed = await ctx.store.presignGet({
    key: node.storagePath,
    expiresInSeconds: ctx.store.kind === 's3' ? S3_DOWNLOAD_URL_SECONDS : DOWNLOAD_URL_SECONDS,
    fileName: node.name,
    contentType: node.mimeType ?? undefined,
  });
  await ctx.db.transaction().execute((trx) =>
    auditFor(user, meta)(
      trx,
      'DOWNLOAD_FILE',
      { table: 'nodes', id: node.id },
      {
        matterId: matter.id,
        matterName: matter.matterName,
        fileName: node.name,
        fileSize: Number(node.fileSize),
        sha256Hash: node.sha256Hash,
        vaulted: matter.isVaulted,
      },
    ),
  );
  return { url: signed.url, expiresAt: signed.expiresAt.toISOString() };
}
