/**
 * Changes of a matter's tree: creating a folder, renaming, moving and deleting an item. Every change takes the
 * matter's lock first, is refused under legal hold and in the vault, and is one transaction with its audit entry
 * (and, for a rename or a move, its undo entry). Deleting moves an item to the recycle bin (bin.service.ts).
 */
import type { CreateFolderRequest, MoveNodeRequest, NodeChangeResponse, NodeDto, RenameNodeRequest } from '@strongroom/contracts';
import { NODE_MSG } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { badRequest, conflict, notFound } from '../../shared/errors.js';
import { isUniqueViolation } from '../../shared/unique-violation.js';
import { lockVisibleMatter, requireMatterWritable, requireMatterWriter, type MatterRow } from '../matters/index.js';
import type { AuthContext } from '../sessions/index.js';
import { recordUndo, type UndoOffer } from '../undo/index.js';
import { insertFirstVersion } from './node-versions.repository.js';
import {
  findNode,
  insertNode,
  isSelfOrDescendant,
  lockNode,
  nameTaken,
  updateNode,
  type NewNode,
  type NodeRow,
  type MatterRef,
} from './nodes.repository.js';
import { nodeDto } from './nodes.service.js';

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
  matter: MatterRef,
  parentId: string | null,
  name: string,
  exceptNodeId?: string,
): Promise<void> {
  if (await nameTaken(trx, matter, parentId, name, exceptNodeId))
    throw conflict(NODE_MSG.nameExists(name), { reason: 'NAME_TAKEN', field: 'name' });
}

/** Runs a tree change; a name clash that slipped past the check (a race) still answers 409. */
export async function withNameGuard<T>(name: () => string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isUniqueViolation(err, 'nodes_name_unique')) throw conflict(NODE_MSG.nameExists(name()), { reason: 'NAME_TAKEN', field: 'name' });
    throw err;
  }
}

/** Inserts a file node with its version 1; the caller holds the matter lock and checked the parent and the name. */
export async function insertFileNode(trx: Executor, values: Omit<NewNode, 'nodeType'>): Promise<NodeRow> {
  const node = await insertNode(trx, { ...values, nodeType: 'file', currentVersion: 1 });
  await insertFirstVersion(trx, node);
  return node;
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
        await requireNameFree(trx, matter, parentId, name);
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
export async function lockNodeForChange(trx: Executor, auth: AuthContext, nodeId: string): Promise<{ matter: MatterRow; node: NodeRow }> {
  const { user } = auth;
  const found = await findNode(trx, user.organizationId, nodeId);
  if (!found) throw notFound(NODE_MSG.itemNotFound);
  const matter = await lockVisibleMatter(trx, user, found.matterId);
  const node = await lockNode(trx, user.organizationId, nodeId);
  if (!node) throw notFound(NODE_MSG.itemNotFound);
  requireMatterWritable(matter, { legalHold: NODE_MSG.legalHold, vaulted: NODE_MSG.vaulted });
  return { matter, node };
}

/**
 * Renames a folder or a file in its folder. A file's stored object, sha256 and size stay as they are: the object
 * key is not the name, and downloads take the name from the row.
 */
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
        if (node.name === newName) return node;
        await requireNameFree(trx, { id: node.matterId, organizationId: node.organizationId }, node.parentId, newName, node.id);
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
        await requireNameFree(trx, matter, parentId, node.name, node.id);
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
