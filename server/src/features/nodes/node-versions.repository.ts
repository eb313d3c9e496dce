import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { NodeVersionsTable } from '../../platform/db/schema.js';
import type { NodeRow } from './nodes.repository.js';

export type NodeVersionRow = Selectable<NodeVersionsTable>;
export type NodeVersionWithCreator = NodeVersionRow & { creatorId: string | null; creatorName: string | null };

/** What a new version records; its number and the node's mirrored fields are set by addVersionRow. */
export type NewVersion = {
  fileSize: number;
  mimeType: string | null;
  sha256Hash: string | null;
  storagePath: string;
  createdBy: number | null;
  restoredFromVersion: number | null;
};

/** A file's versions with their uploaders, newest first. */
export function listVersions(db: Executor, organizationId: string, nodeId: string): Promise<NodeVersionWithCreator[]> {
  return db
    .selectFrom('nodeVersions')
    .leftJoin('users', (j) =>
      j.onRef('users.id', '=', 'nodeVersions.createdBy').onRef('users.organizationId', '=', 'nodeVersions.organizationId'),
    )
    .selectAll('nodeVersions')
    .select(['users.publicId as creatorId', 'users.fullName as creatorName'])
    .where('nodeVersions.organizationId', '=', organizationId)
    .where('nodeVersions.nodeId', '=', nodeId)
    .orderBy('nodeVersions.versionNumber', 'desc')
    .execute();
}

export function findVersion(
  db: Executor,
  organizationId: string,
  nodeId: string,
  versionNumber: number,
): Promise<NodeVersionRow | undefined> {
  return db
    .selectFrom('nodeVersions')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('nodeId', '=', nodeId)
    .where('versionNumber', '=', versionNumber)
    .executeTakeFirst();
}

/** Records a file's first version (a new file node). */
export async function insertFirstVersion(db: Executor, node: NodeRow): Promise<void> {
  await db
    .insertInto('nodeVersions')
    .values({
      organizationId: node.organizationId,
      matterId: node.matterId,
      nodeId: node.id,
      versionNumber: 1,
      fileSize: node.fileSize ?? 0,
      mimeType: node.mimeType,
      sha256Hash: node.sha256Hash,
      storagePath: node.storagePath!,
      createdBy: node.createdBy,
      restoredFromVersion: null,
    })
    .execute();
}

/**
 * Adds the next version to a file whose row the caller holds locked (so two additions at once are numbered one
 * after the other, never the same), and makes the node mirror it.
 */
export async function addVersionRow(db: Executor, node: NodeRow, version: NewVersion): Promise<{ node: NodeRow; versionNumber: number }> {
  const { rows } = await sql<{ last: number | null }>`
    select max(version_number) as last from node_versions where node_id = ${node.id}`.execute(db);
  const versionNumber = (rows[0]?.last ?? 0) + 1;
  await db
    .insertInto('nodeVersions')
    .values({ organizationId: node.organizationId, matterId: node.matterId, nodeId: node.id, versionNumber, ...version })
    .execute();
  const updated = await db
    .updateTable('nodes')
    .set({
      fileSize: version.fileSize,
      mimeType: version.mimeType,
      sha256Hash: version.sha256Hash,
      storagePath: version.storagePath,
      currentVersion: versionNumber,
      updatedAt: new Date(),
    })
    .where('id', '=', node.id)
    .where('organizationId', '=', node.organizationId)
    .returningAll()
    .executeTakeFirstOrThrow();
  return { node: updated, versionNumber };
}

/** A vaulted version's record points at its vault copy, only while it still points at the working copy. */
export async function pointVersionAtVaultCopy(
  db: Executor,
  organizationId: string,
  nodeId: string,
  versionNumber: number,
  workingKey: string,
  vaultKey: string,
) {
  await db
    .updateTable('nodeVersions')
    .set({ storagePath: vaultKey })
    .where('organizationId', '=', organizationId)
    .where('nodeId', '=', nodeId)
    .where('versionNumber', '=', versionNumber)
    .where('storagePath', '=', workingKey)
    .execute();
}

/** The version of a file recorded with that stored object, first by number (an upload's version). */
export function findVersionByKey(
  db: Executor,
  organizationId: string,
  nodeId: string,
  storagePath: string,
): Promise<NodeVersionRow | undefined> {
  return db
    .selectFrom('nodeVersions')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('nodeId', '=', nodeId)
    .where('storagePath', '=', storagePath)
    .orderBy('versionNumber')
    .executeTakeFirst();
}
