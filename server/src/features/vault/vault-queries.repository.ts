/**
 * The vault's reads (list, detail, audit tab, report) and the rows of the continuous verification and of
 * retention end. Every query is scoped by organization_id; the two background scans that look across
 * organizations (objects due for verification, matters whose retention ended) answer the organization of each
 * row so that every later statement is scoped again.
 */
import { sql, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { VaultSortField } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import type { DB, VaultObjectsTable } from '../../platform/db/schema.js';
import { containsPattern } from '../../shared/like-patterns.js';

export type VaultObjectRow = Selectable<VaultObjectsTable>;

export type VaultListFilters = { organizationId: string; search?: string; legalHold?: boolean };
type VaultListOrder = { sortBy: VaultSortField; direction: 'asc' | 'desc' };

function vaulted(db: Executor, f: VaultListFilters) {
  let q = db.selectFrom('matters').where('organizationId', '=', f.organizationId).where('isVaulted', '=', true);
  if (f.search) {
    // Lower-cased text compared with LIKE: the same matches as ILIKE, several times cheaper per row, and each arm
    // can use its partial trigram index.
    const pattern = sql<string>`lower(${containsPattern(f.search)})`;
    q = q.where((eb) => eb.or([eb(eb.fn('lower', ['matterName']), 'like', pattern), eb(eb.fn('lower', ['clientName']), 'like', pattern)]));
  }
  if (f.legalHold !== undefined) q = q.where('legalHold', '=', f.legalHold);
  return q;
}

type Page = { limit: number; offset: number };

/**
 * A page of the organization's vaulted matters (the query, not yet run). Names sort ignoring case; a matter
 * without a client or with permanent retention sorts as PostgreSQL places nulls: last ascending, first
 * descending. id breaks ties, so pages never overlap or skip. The page's ids are found first (from the sort's
 * partial index, without reading the rows it skips), then only those 20 rows are read.
 */
function listVaultedMattersQuery(db: Executor, f: VaultListFilters, order: VaultListOrder, page: Page) {
  const dir = order.direction;
  const sorted = <Q extends SelectQueryBuilder<DB, 'matters', object>>(q: Q): Q => {
    switch (order.sortBy) {
      case 'matterName':
        return q.orderBy((eb) => eb.fn('lower', ['matterName']), dir).orderBy('id', dir) as Q;
      case 'clientName':
        return q.orderBy((eb) => eb.fn('lower', ['clientName']), dir).orderBy('id', dir) as Q;
      case 'vaultedAt':
        return q.orderBy('vaultedAt', dir).orderBy('id', dir) as Q;
      case 'retentionExpiresAt':
        return q.orderBy('retentionExpiresAt', dir).orderBy('id', dir) as Q;
    }
  };
  const ids = sorted(vaulted(db, f).select('id')).limit(page.limit).offset(page.offset);
  return sorted(db.selectFrom('matters').selectAll().where('organizationId', '=', f.organizationId).where('id', 'in', ids));
}

/** How many vaulted matters the filters match (the query, not yet run). */
function countVaultedMattersQuery(db: Executor, f: VaultListFilters) {
  return vaulted(db, f).select(sql<number>`count(*)::int`.as('n'));
}

export function listVaultedMatters(db: Executor, f: VaultListFilters, order: VaultListOrder, page: Page) {
  return listVaultedMattersQuery(db, f, order, page).execute();
}

export async function countVaultedMatters(db: Executor, f: VaultListFilters): Promise<number> {
  return (await countVaultedMattersQuery(db, f).executeTakeFirstOrThrow()).n;
}

export type VaultFacts = {
  transferState: 'pending' | 'transferring' | 'completed' | 'failed' | null;
  fileCount: number;
  totalBytes: number;
  lastCheckedAt: Date | null;
  objectsChecked: number;
  failures: number;
};

/** The vault facts of some matters of one organization: their transfer's state and their objects in the vault. */
export async function vaultFacts(db: Executor, organizationId: string, matterIds: string[]): Promise<Map<string, VaultFacts>> {
  const facts = new Map<string, VaultFacts>();
  if (matterIds.length === 0) return facts;
  const [transfers, objects] = await Promise.all([
    db
      .selectFrom('vaultTransfers')
      .select(['matterId', 'state'])
      .where('organizationId', '=', organizationId)
      .where('matterId', 'in', matterIds)
      .execute(),
    db
      .selectFrom('vaultObjects')
      .where('organizationId', '=', organizationId)
      .where('matterId', 'in', matterIds)
      .where('state', '=', 'vaulted')
      .groupBy('matterId')
      .select([
        'matterId',
        // A file with several versions is one file (its versions are objects of their own).
        sql<number>`count(distinct node_id)::int`.as('fileCount'),
        sql<string>`coalesce(sum(size), 0)::text`.as('totalBytes'),
        sql<Date | null>`max(last_verified_at)`.as('lastCheckedAt'),
        sql<number>`count(last_verified_at)::int`.as('objectsChecked'),
        sql<number>`(count(*) filter (where last_verification_ok = false))::int`.as('failures'),
      ])
      .execute(),
  ]);
  for (const id of matterIds) {
    facts.set(id, { transferState: null, fileCount: 0, totalBytes: 0, lastCheckedAt: null, objectsChecked: 0, failures: 0 });
  }
  for (const t of transfers) facts.get(t.matterId)!.transferState = t.state;
  for (const o of objects) {
    Object.assign(facts.get(o.matterId)!, {
      fileCount: o.fileCount,
      totalBytes: Number(o.totalBytes),
      lastCheckedAt: o.lastCheckedAt === null ? null : new Date(o.lastCheckedAt),
      objectsChecked: o.objectsChecked,
      failures: o.failures,
    });
  }
  return facts;
}

/** The matter's audit entries: about the matter, about any of its nodes, or naming it in their details. */
function matterAudit(db: Executor, organizationId: string, matterId: string) {
  return db
    .selectFrom('auditLogs as a')
    .where('a.organizationId', '=', organizationId)
    .where((eb) =>
      eb.or([
        eb.and([eb('a.targetTable', '=', 'matters'), eb('a.targetId', '=', matterId)]),
        eb.and([
          eb('a.targetTable', '=', 'nodes'),
          eb(
            'a.targetId',
            'in',
            eb
              .selectFrom('nodes')
              .select(sql<string>`id::text`.as('id'))
              .where('organizationId', '=', organizationId)
              .where('matterId', '=', matterId),
          ),
        ]),
        eb.and([sql<boolean>`a.details ? 'matterId'`, eb(sql`a.details->>'matterId'`, '=', matterId)]),
      ]),
    );
}

export type VaultAuditRow = {
  id: string;
  action: string;
  actorName: string | null;
  actorEmail: string | null;
  createdAt: Date;
  details: Record<string, unknown> | null;
};

/** A page of the matter's audit entries, newest first; the actor's current name and address when known. */
export async function listMatterAudit(
  db: Executor,
  organizationId: string,
  matterId: string,
  page: { limit: number; offset: number } | null,
): Promise<VaultAuditRow[]> {
  let q = matterAudit(db, organizationId, matterId)
    .leftJoin('users as u', (j) => j.onRef('u.id', '=', 'a.actorId').on('u.organizationId', '=', organizationId))
    .select((eb) => [
      'a.id',
      'a.action',
      eb.fn.coalesce('u.fullName', 'a.actorName').as('actorName'),
      eb.fn.coalesce('u.email', 'a.actorEmail').as('actorEmail'),
      'a.createdAt',
      'a.details',
    ])
    .orderBy('a.createdAt', 'desc')
    .orderBy('a.seq', 'desc');
  if (page) q = q.limit(page.limit).offset(page.offset);
  return (await q.execute()) as VaultAuditRow[];
}

export async function countMatterAudit(db: Executor, organizationId: string, matterId: string): Promise<number> {
  const row = await matterAudit(db, organizationId, matterId)
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return row.n;
}

// ---------------------------------------------------------------- the report

export function organizationName(db: Executor, organizationId: string) {
  return db.selectFrom('organizations').select('name').where('id', '=', organizationId).executeTakeFirst();
}

export function findTransfer(db: Executor, organizationId: string, matterId: string) {
  return db
    .selectFrom('vaultTransfers')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('matterId', '=', matterId)
    .executeTakeFirst();
}

/** Every object of the matter ever put in the vault (destroyed ones too), by path. */
export function matterObjects(db: Executor, organizationId: string, matterId: string): Promise<VaultObjectRow[]> {
  return db
    .selectFrom('vaultObjects')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('matterId', '=', matterId)
    .orderBy('path')
    .orderBy('versionNumber')
    .orderBy('id')
    .execute();
}

/** The latest verification result of each object of the matter. */
export async function latestVerifications(
  db: Executor,
  organizationId: string,
  matterId: string,
): Promise<Map<string, { checkedAt: Date; ok: boolean; problem: string | null }>> {
  const rows = await db
    .selectFrom('vaultVerifications')
    .distinctOn('vaultObjectId')
    .select(['vaultObjectId', 'checkedAt', 'ok', 'problem'])
    .where('organizationId', '=', organizationId)
    .where('matterId', '=', matterId)
    .orderBy('vaultObjectId')
    .orderBy('checkedAt', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return new Map(rows.map((r) => [r.vaultObjectId, { checkedAt: r.checkedAt, ok: r.ok, problem: r.problem }]));
}

/** The matter's certificates (vault, destruction), oldest first. */
export function matterCertificates(db: Executor, organizationId: string, matterId: string) {
  return db
    .selectFrom('vaultCertificates')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('matterId', '=', matterId)
    .orderBy('issuedAt')
    .orderBy('id')
    .execute();
}

// ---------------------------------------------------------------- continuous verification

/**
 * Objects in the vault due for verification, verified longest ago first (never verified first): those not
 * verified since `dueBefore`. At most `limit` rows; the caller keeps to its byte budget. A scan across
 * organizations (a background job); each row names its organization.
 */
export function dueForVerification(db: Executor, dueBefore: Date, limit: number, organizationId?: string): Promise<VaultObjectRow[]> {
  return db
    .selectFrom('vaultObjects')
    .selectAll()
    .where('state', '=', 'vaulted')
    .$if(organizationId !== undefined, (q) => q.where('organizationId', '=', organizationId!))
    .where((eb) => eb.or([eb('lastVerifiedAt', 'is', null), eb('lastVerifiedAt', '<', dueBefore)]))
    .orderBy(sql`last_verified_at asc nulls first`)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** The object's row as it is now (its hold may have been flipped since the scan). */
export function findVaultObject(db: Executor, organizationId: string, id: string) {
  return db.selectFrom('vaultObjects').selectAll().where('organizationId', '=', organizationId).where('id', '=', id).executeTakeFirst();
}

/** Records one check of an object: a vault_verifications row and the object's latest result. */
export async function recordVerification(
  db: Executor,
  object: Pick<VaultObjectRow, 'id' | 'organizationId' | 'matterId'>,
  result: { checkedAt: Date; ok: boolean; problem: string | null },
): Promise<void> {
  await db
    .insertInto('vaultVerifications')
    .values({
      organizationId: object.organizationId,
      matterId: object.matterId,
      vaultObjectId: object.id,
      checkedAt: result.checkedAt,
      ok: result.ok,
      problem: result.problem,
    })
    .execute();
  await db
    .updateTable('vaultObjects')
    .set({ lastVerifiedAt: result.checkedAt, lastVerificationOk: result.ok })
    .where('organizationId', '=', object.organizationId)
    .where('id', '=', object.id)
    .execute();
}

/** The matter's name and number, for the failure's audit entry and mail. */
export function matterLabel(db: Executor, organizationId: string, matterId: string) {
  return db
    .selectFrom('matters')
    .select(['id', 'matterName', 'matterNumber'])
    .where('organizationId', '=', organizationId)
    .where('id', '=', matterId)
    .executeTakeFirst();
}

/** The addresses of the organization's active administrators. */
export async function adminEmails(db: Executor, organizationId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('email')
    .where('organizationId', '=', organizationId)
    .where('role', '=', 'admin')
    .where('isActive', '=', true)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.email);
}

// ---------------------------------------------------------------- retention end

/**
 * Vaulted matters whose retention has ended, that are not under legal hold, whose transfer completed, whose
 * destruction was approved for this retention end and that have no destruction certificate yet: the matters
 * retention end still has to finish.
 */
export function mattersDueForDestruction(db: Executor, now: Date, limit: number, organizationId?: string) {
  return (
    db
      .selectFrom('matters as m')
      .innerJoin('vaultTransfers as t', (j) => j.onRef('t.matterId', '=', 'm.id').onRef('t.organizationId', '=', 'm.organizationId'))
      .select(['m.id', 'm.organizationId'])
      .$if(organizationId !== undefined, (q) => q.where('m.organizationId', '=', organizationId!))
      .where('m.isVaulted', '=', true)
      .where('m.legalHold', '=', false)
      .where('m.retentionExpiresAt', 'is not', null)
      .where('m.retentionExpiresAt', '<=', now)
      .where('t.state', '=', 'completed')
      // Approved in the disposition review for this very retention end (checked again under the matter's lock).
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('dispositionReviews as r')
            .select('r.id')
            .whereRef('r.matterId', '=', 'm.id')
            .whereRef('r.organizationId', '=', 'm.organizationId')
            .whereRef('r.retentionExpiresAt', '=', 'm.retentionExpiresAt')
            .where('r.status', '=', 'approved'),
        ),
      )
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('vaultCertificates as c')
              .select('c.id')
              .whereRef('c.matterId', '=', 'm.id')
              .whereRef('c.organizationId', '=', 'm.organizationId')
              .where('c.kind', '=', 'destruction'),
          ),
        ),
      )
      .orderBy('m.retentionExpiresAt')
      .orderBy('m.id')
      .limit(limit)
      .execute()
  );
}

/** The head of the organization's audit chain now (null before its first entry). */
export async function auditChainHead(db: Executor, organizationId: string): Promise<{ sequence: number; hash: string } | null> {
  const head = await db
    .selectFrom('auditChainHeads')
    .select(['lastSeq', 'lastHash'])
    .where('chainKey', '=', organizationId)
    .executeTakeFirst();
  return head ? { sequence: Number(head.lastSeq), hash: head.lastHash } : null;
}

/** Marks an object destroyed (once: a second call changes nothing). */
export async function markDestroyed(db: Executor, organizationId: string, id: string, at: Date): Promise<void> {
  await db
    .updateTable('vaultObjects')
    .set({ state: 'destroyed', destroyedAt: at })
    .where('organizationId', '=', organizationId)
    .where('id', '=', id)
    .where('state', '=', 'vaulted')
    .execute();
}

/** Inserts the matter's destruction certificate; false when it has one already (a re-run after a crash). */
export async function insertDestructionCertificate(
  db: Executor,
  values: { organizationId: string; matterId: string; objectKey: string; sha256: string; issuedAt: Date; body: string },
): Promise<boolean> {
  const rows = await db
    .insertInto('vaultCertificates')
    .values({ ...values, kind: 'destruction' })
    .onConflict((oc) => oc.column('matterId').where('kind', '=', 'destruction').doNothing())
    .returning('id')
    .execute();
  return rows.length > 0;
}
