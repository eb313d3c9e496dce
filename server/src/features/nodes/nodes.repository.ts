import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { NodesTable } from '../../platform/db/schema.js';

export type NodeRow = Selectable<NodesTable>;
/** A node with its creator's profile id (uuid) and name. */
export type NodeWithCreator = NodeRow & { creatorId: string | null; creatorName: string | null };

/** The root of a matter counts as a folder; the unique index compares parents through this stand-in. */
const ROOT = '00000000-0000-0000-0000-000000000000';

function withCreator(db: Executor) {
  return db
    .selectFrom('nodes')
    .leftJoin('users', 'users.id', 'nodes.createdBy')
    .selectAll('nodes')
    .select(['users.publicId as creatorId', 'users.fullName as creatorName']);
}

export function listMatterNodes(db: Executor, organizationId: string, matterId: string): Promise<NodeWithCreator[]> {
  return withCreator(db).where('nodes.organizationId', '=', organizationId).where('nodes.matterId', '=', matterId).execute();
}

export function findNode(db: Executor, organizationId: string, nodeId: string): Promise<NodeWithCreator | undefined> {
  return withCreator(db).where('nodes.organizationId', '=', organizationId).where('nodes.id', '=', nodeId).executeTakeFirst();
}

export function lockNode(db: Executor, organizationId: string, nodeId: string): Promise<NodeRow | undefined> {
  return db
    .selectFrom('nodes')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('id', '=', nodeId)
    .forUpdate()
    .executeTakeFirst();
}

/** The names from the matter's root down to the node itself (the query, not yet run). */
export function pathNamesQuery(nodeId: string) {
  return sql<{ name: string }>`
    with recursive up as (
      select id, parent_id, name, 0 as depth from nodes where id = ${nodeId}
      union all
      select n.id, n.parent_id, n.name, up.depth + 1 from nodes n join up on n.id = up.parent_id
    )
    select name from up order by depth desc`;
}

/** Names from the matter's root down to the node itself. */
export async function pathNames(db: Executor, nodeId: string): Promise<string[]> {
  const { rows } = await pathNamesQuery(nodeId).execute(db);
  return rows.map((r) => r.name);
}

/** Whether `candidateId` is `nodeId` itself or lies below it, walking up from the candidate (the query, not yet run). */
export function selfOrDescendantQuery(nodeId: string, candidateId: string) {
  return sql<{ found: boolean }>`
    with recursive up as (
      select id, parent_id from nodes where id = ${candidateId}
      union all
      select n.id, n.parent_id from nodes n join up on n.id = up.parent_id
    )
    select exists (select 1 from up where id = ${nodeId}) as found`;
}

/** True when `candidateId` is `nodeId` itself or lies somewhere below it (walks up from the candidate). */
export async function isSelfOrDescendant(db: Executor, nodeId: string, candidateId: string): Promise<boolean> {
  const { rows } = await selfOrDescendantQuery(nodeId, candidateId).execute(db);
  return rows[0]?.found === true;
}

/** Whether a folder already holds a node of that name, ignoring case (optionally not counting one node). */
export async function nameTaken(
  db: Executor,
  matterId: string,
  parentId: string | null,
  name: string,
  exceptNodeId?: string,
): Promise<boolean> {
  let q = db
    .selectFrom('nodes')
    .select('id')
    .where('matterId', '=', matterId)
    .where(sql<boolean>`coalesce(parent_id, ${ROOT}::uuid) = ${parentId ?? ROOT}::uuid`)
    .where((eb) => eb(eb.fn('lower', ['name']), '=', sql<string>`lower(${name})`));
  if (exceptNodeId) q = q.where('id', '!=', exceptNodeId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** The item of that name in the folder (case-insensitive), if any. */
export function itemNamed(db: Executor, matterId: string, parentId: string | null, name: string) {
  return db
    .selectFrom('nodes')
    .select(['id', 'nodeType'])
    .where('matterId', '=', matterId)
    .where(sql<boolean>`coalesce(parent_id, ${ROOT}::uuid) = ${parentId ?? ROOT}::uuid`)
    .where((eb) => eb(eb.fn('lower', ['name']), '=', sql<string>`lower(${name})`))
    .executeTakeFirst();
}

export type NewNode = Pick<
  NodeRow,
  | 'organizationId'
  | 'matterId'
  | 'parentId'
  | 'name'
  | 'nodeType'
  | 'mimeType'
  | 'sha256Hash'
  | 'storagePath'
  | 'uploadId'
  | 'uploadStatus'
  | 'uploadProgress'
  | 'createdBy'
> & { fileSize: number | null };

export function insertNode(db: Executor, values: NewNode & { currentVersion?: number | null }): Promise<NodeRow> {
  return db.insertInto('nodes').values(values).returningAll().executeTakeFirstOrThrow();
}

export function updateNode(db: Executor, node: NodeRow, changes: Partial<Pick<NodeRow, 'name' | 'parentId'>>): Promise<NodeRow> {
  return db
    .updateTable('nodes')
    .set({ ...changes, updatedAt: new Date() })
    .where('id', '=', node.id)
    .where('organizationId', '=', node.organizationId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The one statement that deletes a node and its subtree, answering the deleted rows (the query, not yet run). */
export function deleteSubtreeQuery(organizationId: string, nodeId: string) {
  return sql<{ id: string; node_type: 'file' | 'folder'; storage_path: string | null; file_size: string | null }>`
    with recursive sub as (
      select id from nodes where id = ${nodeId} and organization_id = ${organizationId}
      union all
      select n.id from nodes n join sub on n.parent_id = sub.id
    )
    delete from nodes where id in (select id from sub) and organization_id = ${organizationId}
    returning id, node_type, storage_path, file_size`;
}

/**
 * Deletes a node and everything below it in one statement (the parent foreign key is checked at its end) and
 * answers what was deleted.
 */
export async function deleteSubtree(
  db: Executor,
  organizationId: string,
  nodeId: string,
): Promise<Array<{ id: string; nodeType: 'file' | 'folder'; storagePath: string | null; fileSize: string | null }>> {
  const { rows } = await deleteSubtreeQuery(organizationId, nodeId).execute(db.withoutPlugins());
  return rows.map((r) => ({ id: r.id, nodeType: r.node_type, storagePath: r.storage_path, fileSize: r.file_size }));
}

/** Keys among `keys` that a node, or any version of a file, still points at. */
export async function referencedKeys(db: Executor, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .selectFrom('nodes')
    .select('storagePath')
    .where('storagePath', 'in', keys)
    .union(db.selectFrom('nodeVersions').select('storagePath').where('storagePath', 'in', keys))
    .execute();
  return new Set(rows.map((r) => r.storagePath!));
}

/**
 * Points a file node at its vault copy, only while it still points at the working copy it was copied from (a
 * node whose storage moved on since stays as it is).
 */
export async function pointNodeAtVaultCopy(
  db: Executor,
  organizationId: string,
  nodeId: string,
  workingKey: string,
  vaultKey: string,
): Promise<void> {
  await db
    .updateTable('nodes')
    .set({ storagePath: vaultKey, updatedAt: new Date() })
    .where('organizationId', '=', organizationId)
    .where('id', '=', nodeId)
    .where('storagePath', '=', workingKey)
    .execute();
}
