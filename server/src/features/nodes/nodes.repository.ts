import { sql, type Selectable } from 'kysely';
import type { NodeDto } from '@strongroom/contracts';
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
    .leftJoin('users', (j) => j.onRef('users.id', '=', 'nodes.createdBy').onRef('users.organizationId', '=', 'nodes.organizationId'))
    .selectAll('nodes')
    .select(['users.publicId as creatorId', 'users.fullName as creatorName']);
}

// Items in the recycle bin (bin_entry_id set) are not part of the matter's tree: every read of the tree, every
// lookup of an item to change or download, and the name check leave them out.

/** The matter's live nodes (none in the recycle bin). */
export function listMatterNodes(db: Executor, organizationId: string, matterId: string): Promise<NodeWithCreator[]> {
  return withCreator(db)
    .where('nodes.organizationId', '=', organizationId)
    .where('nodes.matterId', '=', matterId)
    .where('nodes.binEntryId', 'is', null)
    .execute();
}

/** A live node of a matter in its API form, dates already ISO text (no path, no children). */
export type NodeListRow = Omit<NodeDto, 'path'>;

/**
 * The matter's live nodes in their API form, read for the matter's tree: dates as ISO text in UTC to the
 * millisecond (as every other call answers them), the creator's profile id and name, the current version for
 * files only, and where the current version's text stands for document search. A tree of thousands of nodes needs no date parsing nor mapping of the rows to be answered.
 */
/** Which files a read of the tree takes: all, only those directly in one folder (null: the root), or none. */
export type TreeFiles = { all: true } | { in: string | null } | { none: true };

export async function listMatterNodeDtos(
  db: Executor,
  organizationId: string,
  matterId: string,
  files: TreeFiles = { all: true },
): Promise<NodeListRow[]> {
  // Every folder always; the files asked for (the unique name index finds one folder's files).
  const which =
    'all' in files
      ? sql``
      : 'none' in files
        ? sql`and n.node_type = 'folder'`
        : sql`and (n.node_type = 'folder' or (n.node_type = 'file' and coalesce(n.parent_id, ${ROOT}::uuid) = ${files.in ?? ROOT}::uuid))`;
  const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
  const { rows } = await sql<NodeListRow>`
    select n.id as "id", n.matter_id as "matterId", n.organization_id as "organizationId", n.parent_id as "parentId",
           n.name as "name", n.node_type as "nodeType", n.file_size::float8 as "fileSize", n.mime_type as "mimeType",
           n.sha256_hash as "sha256Hash", n.storage_path as "storagePath", n.upload_id as "uploadId",
           n.upload_status as "uploadStatus", n.upload_progress as "uploadProgress", u.public_id as "createdBy",
           u.full_name as "createdByName", ${iso('n.created_at')} as "createdAt", ${iso('n.updated_at')} as "updatedAt",
           case when n.node_type = 'file' then n.current_version end as "currentVersion",
           ft.state as "textState", ft.reason as "textReason"
    from nodes n
    left join users u on u.id = n.created_by and u.organization_id = n.organization_id
    left join file_texts ft on ft.node_id = n.id and ft.version_number = n.current_version
    where n.organization_id = ${organizationId} and n.matter_id = ${matterId} and n.bin_entry_id is null ${which}`.execute(db);
  return rows;
}

/** A live node (one in the recycle bin is not found). */
export function findNode(db: Executor, organizationId: string, nodeId: string): Promise<NodeWithCreator | undefined> {
  return withCreator(db)
    .where('nodes.organizationId', '=', organizationId)
    .where('nodes.id', '=', nodeId)
    .where('nodes.binEntryId', 'is', null)
    .executeTakeFirst();
}

/** A live node, locked for the rest of the transaction. */
export function lockNode(db: Executor, organizationId: string, nodeId: string): Promise<NodeRow | undefined> {
  return db
    .selectFrom('nodes')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('id', '=', nodeId)
    .where('binEntryId', 'is', null)
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

/** Whether a folder already holds a live node of that name, ignoring case (optionally not counting one node). */
/** A matter named by its organization and id, as every query of its tree names both. */
export type MatterRef = { id: string; organizationId: string };

export async function nameTaken(
  db: Executor,
  matter: MatterRef,
  parentId: string | null,
  name: string,
  exceptNodeId?: string,
): Promise<boolean> {
  let q = db
    .selectFrom('nodes')
    .select('id')
    .where('organizationId', '=', matter.organizationId)
    .where('matterId', '=', matter.id)
    .where('binEntryId', 'is', null)
    .where(sql<boolean>`coalesce(parent_id, ${ROOT}::uuid) = ${parentId ?? ROOT}::uuid`)
    .where((eb) => eb(eb.fn('lower', ['name']), '=', sql<string>`lower(${name})`));
  if (exceptNodeId) q = q.where('id', '!=', exceptNodeId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** The item of that name in the folder (case-insensitive), if any. */
export function itemNamed(db: Executor, matter: MatterRef, parentId: string | null, name: string) {
  return (
    db
      .selectFrom('nodes')
      .select(['id', 'nodeType'])
      .where('organizationId', '=', matter.organizationId)
      .where('matterId', '=', matter.id)
      // A binned file of that name is not the one a new version goes to: the name is free again.
      .where('binEntryId', 'is', null)
      .where(sql<boolean>`coalesce(parent_id, ${ROOT}::uuid) = ${parentId ?? ROOT}::uuid`)
      .where((eb) => eb(eb.fn('lower', ['name']), '=', sql<string>`lower(${name})`))
      .executeTakeFirst()
  );
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

/**
 * The organization a stored object belongs to, from its key: the product names every file's object under
 * `org/<organization>/…` (working copies) or `vault/<organization>/…` (vault copies). Null for any other key,
 * which no file points at.
 */
export function organizationOfKey(key: string): string | null {
  return /^(?:org|vault)\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\//.exec(key)?.[1] ?? null;
}

/**
 * Whether a file that is not in the recycle bin (or one of its versions) points at the object: what a signed
 * download or preview link serves. A binned file's links are dead at once, though its bytes stay until purged.
 */
export async function keyServesLiveFile(db: Executor, key: string): Promise<boolean> {
  const organizationId = organizationOfKey(key);
  if (organizationId === null) return false;
  const row = await db
    .selectFrom('nodes')
    .select('id')
    .where('organizationId', '=', organizationId)
    .where('storagePath', '=', key)
    .where('binEntryId', 'is', null)
    .union(
      db
        .selectFrom('nodeVersions')
        .innerJoin('nodes', (j) =>
          j.onRef('nodes.id', '=', 'nodeVersions.nodeId').onRef('nodes.organizationId', '=', 'nodeVersions.organizationId'),
        )
        .select('nodes.id')
        .where('nodeVersions.organizationId', '=', organizationId)
        .where('nodeVersions.storagePath', '=', key)
        .where('nodes.binEntryId', 'is', null),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/** Keys among `keys` that a node, or any version of a file, still points at. */
export async function referencedKeys(db: Executor, keys: string[]): Promise<Set<string>> {
  const organizations = [...new Set(keys.map(organizationOfKey))].filter((o): o is string => o !== null);
  if (organizations.length === 0) return new Set();
  const rows = await db
    .selectFrom('nodes')
    .select('storagePath')
    .where('organizationId', 'in', organizations)
    .where('storagePath', 'in', keys)
    .union(
      db.selectFrom('nodeVersions').select('storagePath').where('organizationId', 'in', organizations).where('storagePath', 'in', keys),
    )
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
