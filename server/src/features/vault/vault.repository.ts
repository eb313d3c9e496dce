/**
 * The rows of vaulting and of the transfer into the vault: the transfer's state and progress, the files of the
 * matter, the vault objects recorded as each file is verified in the vault, and the vault certificate. The matter
 * and its nodes are changed through the matters and nodes features. Every query is scoped by organization_id.
 */
import { sql, type Selectable } from 'kysely';
import type { SignedCertificate } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import type { VaultCertificatesTable, VaultObjectsTable, VaultTransfersTable } from '../../platform/db/schema.js';

export type VaultTransferRow = Selectable<VaultTransfersTable>;

export function insertTransfer(
  db: Executor,
  values: { matterId: string; organizationId: string; retentionExpiresAt: Date; filesTotal: number; bytesTotal: number; startedAt: Date },
) {
  return db
    .insertInto('vaultTransfers')
    .values({ ...values, state: 'pending', lastError: null, completedAt: null })
    .execute();
}

/**
 * Files of the matter and the bytes the vault will hold for them, as vaulting counts them (the transfer's totals):
 * every version of each file goes into the vault, so the bytes are those of every version.
 */
export async function matterFileTotals(db: Executor, organizationId: string, matterId: string): Promise<{ files: number; bytes: number }> {
  const row = await db
    .selectFrom('nodes')
    .leftJoin('nodeVersions', (j) =>
      j.onRef('nodeVersions.nodeId', '=', 'nodes.id').onRef('nodeVersions.organizationId', '=', 'nodes.organizationId'),
    )
    .select([
      sql<number>`count(distinct nodes.id)::int`.as('files'),
      sql<string>`coalesce(sum(coalesce(node_versions.file_size, nodes.file_size)), 0)::text`.as('bytes'),
    ])
    .where('nodes.organizationId', '=', organizationId)
    .where('nodes.matterId', '=', matterId)
    .where('nodes.nodeType', '=', 'file')
    .where('nodes.storagePath', 'is not', null)
    // Items in the recycle bin are not vaulted: they stay in the bin, as they were deleted.
    .where('nodes.binEntryId', 'is', null)
    .executeTakeFirstOrThrow();
  return { files: row.files, bytes: Number(row.bytes) };
}

/** The transfer's row, locked for the rest of the transaction (the start and the end of each run take it). */
export function lockTransfer(db: Executor, organizationId: string, matterId: string) {
  return db
    .selectFrom('vaultTransfers')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('matterId', '=', matterId)
    .forUpdate()
    .executeTakeFirst();
}

export function updateTransfer(
  db: Executor,
  organizationId: string,
  matterId: string,
  changes: Partial<Pick<VaultTransferRow, 'state' | 'lastError' | 'completedAt' | 'filesTotal'>> & {
    bytesTotal?: number;
    addAttempt?: boolean;
  },
) {
  const { addAttempt, ...rest } = changes;
  return db
    .updateTable('vaultTransfers')
    .set((eb) => ({ ...rest, ...(addAttempt ? { attempts: eb('attempts', '+', 1) } : {}) }))
    .where('organizationId', '=', organizationId)
    .where('matterId', '=', matterId)
    .execute();
}

/** The matter as the transfer and its certificate need it. */
export function findMatterRow(db: Executor, organizationId: string, matterId: string) {
  return db.selectFrom('matters').selectAll().where('organizationId', '=', organizationId).where('id', '=', matterId).executeTakeFirst();
}

export async function organizationName(db: Executor, organizationId: string): Promise<string> {
  const row = await db.selectFrom('organizations').select('name').where('id', '=', organizationId).executeTakeFirstOrThrow();
  return row.name;
}

/** Every live node of the matter, none in the recycle bin (the tree gives each file its path). */
export function matterNodes(db: Executor, organizationId: string, matterId: string) {
  return db
    .selectFrom('nodes')
    .select(['id', 'parentId', 'name', 'nodeType', 'fileSize', 'sha256Hash', 'storagePath'])
    .where('organizationId', '=', organizationId)
    .where('matterId', '=', matterId)
    .where('binEntryId', 'is', null)
    .execute();
}

export type MatterNodeRow = Awaited<ReturnType<typeof matterNodes>>[number];

/**
 * Every version of the matter's live files (none in the recycle bin), oldest first for each file: what the vault
 * must hold.
 */
export function matterFileVersions(db: Executor, organizationId: string, matterId: string) {
  return db
    .selectFrom('nodeVersions')
    .innerJoin('nodes', (j) =>
      j.onRef('nodes.id', '=', 'nodeVersions.nodeId').onRef('nodes.organizationId', '=', 'nodeVersions.organizationId'),
    )
    .select([
      'nodeVersions.nodeId',
      'nodeVersions.versionNumber',
      'nodeVersions.fileSize',
      'nodeVersions.sha256Hash',
      'nodeVersions.storagePath',
      'nodes.currentVersion',
    ])
    .where('nodeVersions.organizationId', '=', organizationId)
    .where('nodeVersions.matterId', '=', matterId)
    .where('nodes.binEntryId', 'is', null)
    .orderBy('nodeVersions.nodeId')
    .orderBy('nodeVersions.versionNumber')
    .execute();
}

export type MatterFileVersionRow = Awaited<ReturnType<typeof matterFileVersions>>[number];

/** The versions of the matter's files that are in the vault already, as 'nodeId/versionNumber'. */
export async function vaultedVersionKeys(db: Executor, organizationId: string, matterId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('vaultObjects')
    .select(['nodeId', 'versionNumber'])
    .where('organizationId', '=', organizationId)
    .where('matterId', '=', matterId)
    .execute();
  return new Set(rows.map((r) => `${r.nodeId}/${r.versionNumber}`));
}

export type NewVaultObject = Pick<
  Selectable<VaultObjectsTable>,
  'organizationId' | 'matterId' | 'nodeId' | 'path' | 'objectKey' | 'versionId' | 'sha256' | 'storageClass' | 'retainUntil' | 'legalHold'
> & { size: number; versionNumber: number };

/**
 * Records one verified version of a file in the vault: its vault object and the transfer's progress (the caller
 * points the version at the vault copy in the same transaction). A file counts as done with its current version,
 * which is vaulted last; every version's bytes count. Answers false when the version was recorded already
 * (another run of the job got there first): nothing changes then.
 */
export async function recordVaultedFile(db: Executor, object: NewVaultObject, completesFile: boolean): Promise<boolean> {
  const inserted = await db
    .insertInto('vaultObjects')
    .values({ ...object, state: 'vaulted' })
    .onConflict((oc) => oc.columns(['nodeId', 'versionNumber']).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return false;
  await db
    .updateTable('vaultTransfers')
    .set((eb) => ({ filesDone: eb('filesDone', '+', completesFile ? 1 : 0), bytesDone: sql`bytes_done + ${object.size}` }))
    .where('organizationId', '=', object.organizationId)
    .where('matterId', '=', object.matterId)
    .execute();
  return true;
}

/** The matter's vault objects by path (the certificate lists them in this order). */
export function vaultObjectsOf(db: Executor, organizationId: string, matterId: string) {
  return db
    .selectFrom('vaultObjects')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('matterId', '=', matterId)
    .where('state', '=', 'vaulted')
    .orderBy('path')
    .orderBy('nodeId')
    .orderBy('versionNumber')
    .execute();
}

/** The matter's vault objects whose recorded legal hold is not `on`. */
export function objectsWithOtherHold(db: Executor, organizationId: string, matterId: string, on: boolean) {
  return db
    .selectFrom('vaultObjects')
    .select(['id', 'objectKey'])
    .where('organizationId', '=', organizationId)
    .where('matterId', '=', matterId)
    .where('state', '=', 'vaulted')
    .where('legalHold', '!=', on)
    .execute();
}

export function setObjectHold(db: Executor, organizationId: string, id: string, on: boolean) {
  return db.updateTable('vaultObjects').set({ legalHold: on }).where('organizationId', '=', organizationId).where('id', '=', id).execute();
}

export type VaultCertificateRow = Selectable<VaultCertificatesTable>;

export function findVaultCertificate(db: Executor, organizationId: string, matterId: string): Promise<VaultCertificateRow | undefined> {
  return db
    .selectFrom('vaultCertificates')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('matterId', '=', matterId)
    .where('kind', '=', 'vault')
    .executeTakeFirst();
}

/** Records the matter's vault certificate; answers false when it has one already (it is written once). */
export async function insertVaultCertificate(
  db: Executor,
  values: { organizationId: string; matterId: string; objectKey: string; sha256: string; issuedAt: Date; body: SignedCertificate },
): Promise<boolean> {
  const row = await db
    .insertInto('vaultCertificates')
    .values({ ...values, kind: 'vault', body: JSON.stringify(values.body) })
    .onConflict((oc) => oc.column('matterId').where('kind', '=', 'vault').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
