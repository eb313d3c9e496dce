/**
 * The recycle bin of a matter. Deleting an item moves it and everything below it to the bin (the rows stay,
 * marked); the item can be restored by anyone who could delete it until the daily bin-purge job deletes it for
 * good, with its stored objects, once its days in the bin are over.
 */
import { randomUUID } from 'node:crypto';
import type { BinListResponse, DeleteNodeResponse, NodeResponse, RestoreBinRequest } from '@strongroom/contracts';
import { NODE_MSG } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { notFound } from '../../shared/errors.js';
import { getVisibleMatter, lockVisibleMatter, requireMatterWritable, requireMatterWriter, type MatterRow } from '../matters/index.js';
import type { AuthContext } from '../sessions/index.js';
import { recordUndo, undoUnavailable, type UndoEntry } from '../undo/index.js';
import {
  binnedNodeName,
  binRetentionDays,
  binSubtree,
  findBinEntry,
  insertBinEntry,
  listBinEntries,
  lockBinEntry,
  restoreBinEntry,
  setBinEntryTotals,
  type BinEntryRow,
} from './bin.repository.js';
import { lockNodeForChange, requireNameFree, withNameGuard } from './nodes-changes.service.js';
import { findNode, pathNames } from './nodes.repository.js';
import { nodeDto } from './nodes.service.js';

const DAY_MS = 86_400_000;

/**
 * Deletes a node: it and its subtree go to the matter's recycle bin in one transaction with the audit entry and
 * the undo entry. Nothing stored is removed now; the bin-purge job removes the rows and objects later.
 */
export async function deleteNode(_ctx: AppContext, auth: AuthContext, nodeId: string, meta: RequestMeta): Promise<DeleteNodeResponse> {
  const { user } = auth;
  // A person who may change nothing is told the matter is read-only; one lacking only canDelete, that they lack it.
  requireMatterWriter(user, 'canDelete');
  return auth.stepUp.run(async (trx) => {
    const { matter, node } = await lockNodeForChange(trx, auth, nodeId);
    const path = '/' + (await pathNames(trx, node.id)).join('/');
    const days = await binRetentionDays(trx, user.organizationId);
    const deletedAt = new Date();
    const entry = await insertBinEntry(trx, {
      id: randomUUID(),
      organizationId: user.organizationId,
      matterId: matter.id,
      nodeId: node.id,
      originalParentId: node.parentId,
      originalPath: path.slice(0, path.lastIndexOf('/')) || '/',
      deletedBy: user.id,
      purgeAfter: new Date(deletedAt.getTime() + days * DAY_MS),
      fileCount: 0,
      totalBytes: 0,
    });
    const rows = await binSubtree(trx, user.organizationId, node.id, entry.id);
    const files = rows.filter((r) => r.nodeType === 'file');
    const bytes = files.reduce((sum, r) => sum + Number(r.fileSize ?? 0), 0);
    await setBinEntryTotals(trx, user.organizationId, entry.id, files.length, bytes);
    await auditFor(user, meta)(
      trx,
      'DELETE_NODE',
      { table: 'nodes', id: node.id },
      {
        matterId: matter.id,
        name: node.name,
        nodeType: node.nodeType,
        path,
        binEntryId: entry.id,
        purgeAfter: entry.purgeAfter.toISOString(),
        deletedNodes: rows.length,
        deletedFiles: files.length,
        deletedBytes: bytes,
        fileIds: files.map((r) => r.id).slice(0, 1000),
      },
    );
    const offer = await recordUndo(trx, auth, { kind: 'node.delete', targetId: entry.id, version: node.version + 1, before: {} });
    return { success: true, deletedCount: rows.length, binEntryId: entry.id, purgeAfter: entry.purgeAfter.toISOString(), ...offer };
  });
}

/** The matter's recycle bin, newest first: for whoever may see the matter's files. */
export async function listBin(ctx: AppContext, auth: AuthContext, matterId: string): Promise<BinListResponse> {
  const matter = await getVisibleMatter(ctx.db, auth.user, matterId);
  const rows = await listBinEntries(ctx.db, auth.user.organizationId, matter.id);
  return {
    items: rows.map((r) => ({
      binEntryId: r.id,
      nodeId: r.nodeId,
      name: r.name,
      nodeType: r.nodeType,
      originalPath: r.originalPath,
      fileCount: r.fileCount,
      totalBytes: Number(r.totalBytes),
      deletedAt: r.deletedAt.toISOString(),
      deletedBy: r.deletedByPublicId,
      deletedByName: r.deletedByName,
      purgeAfter: r.purgeAfter.toISOString(),
    })),
  };
}

/**
 * Locks the entry's matter (refused under hold, in the vault and past retention, as a delete is) and then the
 * entry; a second restore of the same entry waits for the matter's lock and then finds the entry gone.
 */
async function lockEntryForRestore(
  trx: Executor,
  auth: AuthContext,
  binEntryId: string,
  gone: () => Error,
): Promise<{ matter: MatterRow; entry: BinEntryRow }> {
  const { user } = auth;
  requireMatterWriter(user, 'canDelete');
  const found = await findBinEntry(trx, user.organizationId, binEntryId);
  if (!found) throw gone();
  const matter = await lockVisibleMatter(trx, user, found.matterId);
  requireMatterWritable(matter, { legalHold: NODE_MSG.legalHold, vaulted: NODE_MSG.vaulted });
  const entry = await lockBinEntry(trx, user.organizationId, binEntryId);
  if (!entry) throw gone();
  return { matter, entry };
}

/**
 * Puts an entry's item back: into the folder it was in, or the matter's root when that folder is itself in the
 * bin or gone; refused with 409 when a live item of the same name is there now.
 */
async function putBack(
  trx: Executor,
  matter: MatterRow,
  entry: BinEntryRow,
): Promise<{ name: string; nodeType: string; parentId: string | null }> {
  const parent = entry.originalParentId ? await findNode(trx, matter.organizationId, entry.originalParentId) : undefined;
  const parentId = parent && parent.matterId === matter.id && parent.nodeType === 'folder' ? parent.id : null;
  const top = await binnedNodeName(trx, matter.organizationId, entry.nodeId);
  await withNameGuard(
    () => top.name,
    async () => {
      await requireNameFree(trx, matter, parentId, top.name);
      await restoreBinEntry(trx, entry, parentId);
    },
  );
  return { name: top.name, nodeType: top.nodeType, parentId };
}

/** POST /_api/nodes/bin/restore: canDelete, the matter writable; audited RESTORE_NODE. */
export async function restoreFromBin(
  ctx: AppContext,
  auth: AuthContext,
  input: RestoreBinRequest,
  meta: RequestMeta,
): Promise<NodeResponse> {
  const { user } = auth;
  const nodeId = await ctx.db.transaction().execute(async (trx) => {
    const { matter, entry } = await lockEntryForRestore(trx, auth, input.binEntryId, () => notFound(NODE_MSG.binEntryNotFound));
    const back = await putBack(trx, matter, entry);
    await auditFor(user, meta)(
      trx,
      'RESTORE_NODE',
      { table: 'nodes', id: entry.nodeId },
      { matterId: matter.id, binEntryId: entry.id, name: back.name, nodeType: back.nodeType, toParentId: back.parentId },
    );
    return entry.nodeId;
  });
  return { node: await nodeDto(ctx.db, user.organizationId, nodeId) };
}

/** Undo of a delete: the item comes back from the bin as a restore would bring it back. */
export async function undoDeleteNode(
  trx: Executor,
  auth: AuthContext,
  entry: UndoEntry,
  meta: RequestMeta,
): Promise<{ targetId: string; matterId: string }> {
  const locked = await lockEntryForRestore(trx, auth, entry.targetId, () => undoUnavailable('GONE'));
  const back = await putBack(trx, locked.matter, locked.entry);
  await auditFor(auth.user, meta)(
    trx,
    'UNDO_DELETE_NODE',
    { table: 'nodes', id: locked.entry.nodeId },
    { matterId: locked.matter.id, undoId: entry.id, binEntryId: locked.entry.id, name: back.name, nodeType: back.nodeType },
  );
  return { targetId: locked.entry.nodeId, matterId: locked.matter.id };
}
