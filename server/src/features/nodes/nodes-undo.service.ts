/**
 * Undo of a rename or a move: the item takes its former name or folder back, as the change would have been made
 * (matter lock first, hold, vault and retention refused), while it is still at the version the change left.
 */
import type { Executor } from '../../platform/db/database.js';
import { auditFor } from '../../shared/audit.js';
import type { RequestMeta } from '../../shared/context.js';
import { requireMatterWriter, type MatterRow } from '../matters/index.js';
import type { AuthContext } from '../sessions/index.js';
import { undoUnavailable, type UndoEntry } from '../undo/index.js';
import { findNode, isSelfOrDescendant, updateNode, type NodeRow } from './nodes.repository.js';
import { lockNodeForChange, requireNameFree, withNameGuard } from './nodes-changes.service.js';

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
      await requireNameFree(trx, { id: node.matterId, organizationId: node.organizationId }, node.parentId, name, node.id);
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
      await requireNameFree(trx, matter, parentId, node.name, node.id);
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
