/**
 * The node reads and the one node change other features run inside their own transactions, named for what they
 * do. The nodes feature is the one writer of the nodes table.
 */
import type { Executor } from '../../platform/db/database.js';
import { pointVersionAtVaultCopy } from './node-versions.repository.js';
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
 * A version of a file recorded in the vault: its record points at the vault copy from now on, and so does the
 * file's node when it is the current version; each only while it still points at the working copy the vault copy
 * was made from.
 */
export async function moveVersionToVaultCopy(
  db: Executor,
  organizationId: string,
  version: { nodeId: string; versionNumber: number; current: boolean },
  workingKey: string,
  vaultKey: string,
): Promise<void> {
  await pointVersionAtVaultCopy(db, organizationId, version.nodeId, version.versionNumber, workingKey, vaultKey);
  if (version.current) await pointNodeAtVaultCopy(db, organizationId, version.nodeId, workingKey, vaultKey);
}
