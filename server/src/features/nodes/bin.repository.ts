/**
 * The recycle bin's rows: bin_entries (one per deleted item) and the mark (nodes.bin_entry_id) on every node of
 * the deleted subtree. Every query is scoped by organization_id.
 */
import { sql, type Selectable } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import type { BinEntriesTable } from '../../platform/db/schema.js';

export type BinEntryRow = Selectable<BinEntriesTable>;

/**
 * The one statement that marks a live node and the live nodes below it as binned under `entryId`, answering the
 * marked rows (the query, not yet run). Nodes binned earlier under another entry keep their own entry.
 */
export function binSubtreeQuery(organizationId: string, nodeId: string, entryId: string) {
  return sql<{ id: string; node_type: 'file' | 'folder'; file_size: string | null }>`
    with recursive sub as (
      select id from nodes where id = ${nodeId} and organization_id = ${organizationId} and bin_entry_id is null
      union all
      select n.id from nodes n join sub on n.parent_id = sub.id where n.bin_entry_id is null
    )
    update nodes set bin_entry_id = ${entryId}, updated_at = now()
    where id in (select id from sub) and organization_id = ${organizationId}
    returning id, node_type, file_size`;
}

/** Marks a node and its live subtree as binned under `entryId`; answers what was marked. */
export async function binSubtree(
  db: Executor,
  organizationId: string,
  nodeId: string,
  entryId: string,
): Promise<Array<{ id: string; nodeType: 'file' | 'folder'; fileSize: string | null }>> {
  const { rows } = await binSubtreeQuery(organizationId, nodeId, entryId).execute(db.withoutPlugins());
  return rows.map((r) => ({ id: r.id, nodeType: r.node_type, fileSize: r.file_size }));
}

export type NewBinEntry = Pick<
  BinEntryRow,
  'organizationId' | 'matterId' | 'nodeId' | 'originalParentId' | 'originalPath' | 'deletedBy' | 'purgeAfter' | 'fileCount'
> & { id: string; totalBytes: number };

export async function insertBinEntry(db: Executor, values: NewBinEntry): Promise<BinEntryRow> {
  return db.insertInto('binEntries').values(values).returningAll().executeTakeFirstOrThrow();
}

/** Sets the counts of an entry once its subtree is marked. */
export async function setBinEntryTotals(db: Executor, organizationId: string, id: string, fileCount: number, totalBytes: number) {
  await db
    .updateTable('binEntries')
    .set({ fileCount, totalBytes })
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .execute();
}

/** Days a deleted item stays in the organization's bin. */
export async function binRetentionDays(db: Executor, organizationId: string): Promise<number> {
  const row = await db.selectFrom('organizations').select('binRetentionDays').where('id', '=', organizationId).executeTakeFirstOrThrow();
  return row.binRetentionDays;
}

/** The matter's bin, newest first, with the item's name and type and who deleted it. */
export function listBinEntries(db: Executor, organizationId: string, matterId: string) {
  return db
    .selectFrom('binEntries as b')
    .innerJoin('nodes as n', (j) =>
      j.onRef('n.id', '=', 'b.nodeId').onRef('n.binEntryId', '=', 'b.id').onRef('n.organizationId', '=', 'b.organizationId'),
    )
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'b.deletedBy').onRef('u.organizationId', '=', 'b.organizationId'))
    .select([
      'b.id',
      'b.nodeId',
      'n.name',
      'n.nodeType',
      'b.originalPath',
      'b.fileCount',
      'b.totalBytes',
      'b.deletedAt',
      'b.purgeAfter',
      'u.publicId as deletedByPublicId',
      'u.fullName as deletedByName',
    ])
    .where('b.organizationId', '=', organizationId)
    .where('b.matterId', '=', matterId)
    .orderBy('b.deletedAt', 'desc')
    .orderBy('b.id')
    .execute();
}

export function findBinEntry(db: Executor, organizationId: string, id: string): Promise<BinEntryRow | undefined> {
  return db.selectFrom('binEntries').selectAll().where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

/** The entry, locked for the rest of the transaction: a restore and a purge of one entry never interleave. */
export function lockBinEntry(db: Executor, organizationId: string, id: string): Promise<BinEntryRow | undefined> {
  return db
    .selectFrom('binEntries')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * Takes an entry out of the bin: its nodes lose the mark, the top node goes into `parentId`, and the entry is
 * deleted. Answers the number of nodes restored.
 */
export async function restoreBinEntry(db: Executor, entry: BinEntryRow, parentId: string | null): Promise<number> {
  await db
    .updateTable('nodes')
    .set({ parentId, updatedAt: new Date() })
    .where('organizationId', '=', entry.organizationId)
    .where('id', '=', entry.nodeId)
    .execute();
  const restored = await db
    .updateTable('nodes')
    .set({ binEntryId: null, updatedAt: new Date() })
    .where('organizationId', '=', entry.organizationId)
    .where('binEntryId', '=', entry.id)
    .executeTakeFirst();
  await db.deleteFrom('binEntries').where('organizationId', '=', entry.organizationId).where('id', '=', entry.id).execute();
  return Number(restored.numUpdatedRows);
}

/** Ids of the entries past their purge date, oldest first (the purge job takes them one by one). */
export async function dueBinEntries(
  db: Executor,
  now: Date,
  limit: number,
  organizationId?: string,
): Promise<Array<{ id: string; organizationId: string; matterId: string }>> {
  let q = db.selectFrom('binEntries').select(['id', 'organizationId', 'matterId']).where('purgeAfter', '<=', now);
  if (organizationId) q = q.where('organizationId', '=', organizationId);
  return q.orderBy('purgeAfter').orderBy('id').limit(limit).execute();
}

/** The name and type of an entry's top node (binned, so the live lookups do not see it). */
export function binnedNodeName(db: Executor, organizationId: string, nodeId: string) {
  return db
    .selectFrom('nodes')
    .select(['name', 'nodeType'])
    .where('organizationId', '=', organizationId)
    .where('id', '=', nodeId)
    .executeTakeFirstOrThrow();
}

/** Every stored object the versions of an entry's files point at (the current version's among them). */
export async function binEntryVersionKeys(db: Executor, entry: BinEntryRow): Promise<string[]> {
  const rows = await db
    .selectFrom('nodeVersions')
    .select('storagePath')
    .distinct()
    .where('organizationId', '=', entry.organizationId)
    .where(
      'nodeId',
      'in',
      db.selectFrom('nodes').select('id').where('organizationId', '=', entry.organizationId).where('binEntryId', '=', entry.id),
    )
    .execute();
  return rows.map((r) => r.storagePath);
}

/**
 * Deletes an entry's nodes and the entry itself, answering the deleted nodes' stored objects. Nodes of other
 * entries whose folder is deleted here (deleted earlier, from inside it) are moved to the matter's root first, so
 * that a later restore puts them there.
 */
export async function purgeBinEntry(
  db: Executor,
  entry: BinEntryRow,
): Promise<Array<{ id: string; nodeType: 'file' | 'folder'; storagePath: string | null; fileSize: string | null }>> {
  const own = db.selectFrom('nodes').select('id').where('organizationId', '=', entry.organizationId).where('binEntryId', '=', entry.id);
  await db
    .updateTable('nodes')
    .set({ parentId: null })
    .where('organizationId', '=', entry.organizationId)
    .where('parentId', 'in', own)
    .where((eb) => eb.or([eb('binEntryId', 'is', null), eb('binEntryId', '!=', entry.id)]))
    .execute();
  const rows = await db
    .deleteFrom('nodes')
    .where('organizationId', '=', entry.organizationId)
    .where('binEntryId', '=', entry.id)
    .returning(['id', 'nodeType', 'storagePath', 'fileSize'])
    .execute();
  await db.deleteFrom('binEntries').where('organizationId', '=', entry.organizationId).where('id', '=', entry.id).execute();
  return rows;
}
