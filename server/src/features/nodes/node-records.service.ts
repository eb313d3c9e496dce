/**
 * The node reads and the one node change other features run inside their own transactions, named for what they
 * do. The nodes feature is the one writer of the nodes table.
 */
import type { Executor } from '../../platform/db/database.js';
import { pointVersionsAtVaultCopy } from './node-versions.repository.js';
import {
  findNode as findNodeRow,
  keyServesLiveFile as liveFileAtKey,
  pointNodeAtVaultCopy,
  referencedKeys,
  type NodeWithCreator,
} from './nodes.repository.js';

/** One node of the organization with its creator's profile id, or undefined. */
export function findNode(db: Executor, organizationId: string, nodeId: string): Promise<NodeWithCreator | undefined> {
  return findNodeRow(db, organizationId, nodeId);
}

/** Whether a signed link to the object may still serve it: a file outside the recycle bin points at it. */
export function keyServesLiveFile(db: Executor, key: string): Promise<boolean> {
  return liveFileAtKey(db, key);
}

/** Of the given storage keys, those some node or version still points at (an object still in use is never deleted). */

export function keysStillReferenced(db: Executor, keys: string[]): Promise<Set<string>> {
  return referencedKeys(db, keys);
}

/**
 * A file recorded in the vault: its node points at the vault copy from now on, only while it still points at
 * the working copy the vault copy was made from.
 */
export async function moveNodeToVaultCopy(
  db: Executor,
  organizationId: string,
  nodeId: string,
  workingKey: string,
  vaultKey: string,
): Promise<void> {
  await pointNodeAtVaultCopy(db, organizationId, nodeId, workingKey, vaultKey);
  // The versions recorded with that object (the current one, and any restored from it) follow it to the vault.
  await pointVersionsAtVaultCopy(db, organizationId, nodeId, workingKey, vaultKey);
}
