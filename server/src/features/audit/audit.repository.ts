/**
 * The audit log's reads: a page of an organization's entries, their count, keyset batches for the CSV export, a
 * chain in sequence order for the integrity check, and the signed chain heads; and the range of entries archival
 * locks and marks archived (shared/audit.ts appends new entries; nothing else writes them). Every query is scoped by
 * organization_id; the daily signing answers the organizations to sign and every later statement is scoped again.
 */
import { sql, type Expression, type ExpressionBuilder, type Selectable, type SqlBool } from 'kysely';
import type { AuditSortField } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import type { DB } from '../../platform/db/schema.js';
import { containsPattern } from '../../shared/like-patterns.js';
import { SEARCH_TEXT_EXPRESSION } from './audit-search.repository.js';

/** An entry as the audit views read it (its search text is for the search only). */
export type AuditLogRow = Omit<Selectable<DB['auditLogs']>, 'searchText'>;
const ENTRY_COLUMNS = [
  'id',
  'organizationId',
  'chainKey',
  'seq',
  'actorId',
  'actorName',
  'actorEmail',
  'action',
  'targetTable',
  'targetId',
  'details',
  'ipAddress',
  'createdAt',
  'archived',
  'prevHash',
  'hash',
  'archiveBatchId',
] as const satisfies ReadonlyArray<keyof AuditLogRow>;

export type AuditFilters = {
  organizationId: string;
  /** A person who is not an administrator: their own entries plus the shared kinds. */
  visibleTo?: { userId: number; sharedActions: readonly string[] };
  startDate?: string;
  endDate?: string;
  actions?: string[];
  actorIds?: number[];
  ipAddress?: string;
  search?: string;
  /** Search the stored audit_logs.search_text (once backfilled) rather than computing it for each entry read. */
  storedSearchText?: boolean;
  /** Only entries up to this id (the export's snapshot: entries written while it streams are left out). */
  upToId?: string;
};
export type AuditOrder = { sortBy: AuditSortField; direction: 'asc' | 'desc' };

/**
 * The text a search looks in: stored in search_text (one `like` per candidate, trigram index
 * audit_logs_search_text_trgm), or until its backfill is complete computed from the fields (the same text, as the
 * trigram index audit_logs_search_trgm has it).
 */
const searchText = (stored: boolean | undefined) => (stored ? sql<string>`search_text` : SEARCH_TEXT_EXPRESSION);
/** Entries without a target sort as an empty table name, as the index audit_logs_org_target_table has it. */
const TARGET_TABLE_KEY = sql<string>`coalesce(target_table, '')`;

function filtered(db: Executor, f: AuditFilters) {
  let q = db.selectFrom('auditLogs').where('organizationId', '=', f.organizationId);
  if (f.visibleTo) {
    const v = f.visibleTo;
    q = q.where((eb) => eb.or([eb('actorId', '=', v.userId), eb('action', 'in', [...v.sharedActions])]));
  }
  if (f.startDate) q = q.where('createdAt', '>=', new Date(f.startDate));
  if (f.endDate) q = q.where('createdAt', '<=', new Date(f.endDate));
  if (f.actions?.length) q = q.where('action', 'in', f.actions);
  if (f.actorIds?.length) q = q.where('actorId', 'in', f.actorIds);
  if (f.ipAddress) q = q.where('ipAddress', '=', f.ipAddress);
  if (f.search) q = q.where(searchText(f.storedSearchText), 'like', sql<string>`lower(${containsPattern(f.search)})`);
  if (f.upToId) q = q.where('id', '<=', f.upToId);
  return q;
}

/** The sort keys of an order, most significant first; created_at and id break ties so pages never overlap. */
function sortKeys(order: AuditOrder): Array<Expression<unknown>> {
  const keys: Array<Expression<unknown>> = [];
  if (order.sortBy === 'action') keys.push(sql.ref('action'));
  if (order.sortBy === 'target_table') keys.push(TARGET_TABLE_KEY);
  keys.push(sql.ref('created_at'), sql.ref('id'));
  return keys;
}

/** A page of entries in the order asked for (offset paging: the page numbers the list shows). */
export function listAuditEntries(
  db: Executor,
  f: AuditFilters,
  order: AuditOrder,
  page: { limit: number; offset: number },
): Promise<AuditLogRow[]> {
  let q = filtered(db, f).select(ENTRY_COLUMNS);
  for (const key of sortKeys(order)) q = q.orderBy(key, order.direction);
  return q.limit(page.limit).offset(page.offset).execute();
}

/** How many entries match, counting at most `cap` (answers cap + 1 when there are more). */
export async function countAuditEntries(db: Executor, f: AuditFilters, cap: number): Promise<number> {
  const row = await db
    .selectFrom(
      filtered(db, f)
        .select(sql`1`.as('one'))
        .limit(cap + 1)
        .as('matching'),
    )
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The position of an entry in an order: the values of its sort keys. */
export type AuditCursor = { action: string; targetTable: string; createdAt: Date; id: string };

/** The next batch of the export after `after` (keyset: each batch is an index range scan, however deep). */
export function auditEntriesAfter(
  db: Executor,
  f: AuditFilters,
  order: AuditOrder,
  after: AuditCursor | null,
  limit: number,
): Promise<AuditLogRow[]> {
  let q = filtered(db, f).select(ENTRY_COLUMNS);
  if (after) {
    const values: unknown[] = [];
    if (order.sortBy === 'action') values.push(after.action);
    if (order.sortBy === 'target_table') values.push(after.targetTable);
    values.push(after.createdAt, after.id);
    const keys = sortKeys(order);
    const op = order.direction === 'desc' ? sql`<` : sql`>`;
    q = q.where(
      () =>
        sql<SqlBool>`(${sql.join(keys)}) ${op} (${sql.join(values.map((v, i) => (i === values.length - 1 ? sql`${v}::bigint` : sql`${v}`)))})`,
    );
  }
  for (const key of sortKeys(order)) q = q.orderBy(key, order.direction);
  return q.limit(limit).execute();
}

/** The newest entry id of the organization (null before its first entry). */
export async function newestEntryId(db: Executor, organizationId: string): Promise<string | null> {
  const row = await db
    .selectFrom('auditLogs')
    .select((eb) => eb.fn.max('id').as('id'))
    .where('organizationId', '=', organizationId)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** The head of an organization's chain as the writer keeps it (null before its first entry). */
export async function chainHead(db: Executor, organizationId: string): Promise<{ seq: number; hash: string } | null> {
  const row = await db
    .selectFrom('auditChainHeads')
    .select(['lastSeq', 'lastHash'])
    .where('chainKey', '=', organizationId)
    .executeTakeFirst();
  return row ? { seq: Number(row.lastSeq), hash: row.lastHash } : null;
}

/**
 * A batch of the organization's chain in sequence order, after `afterSeq`. The columns are named in the rows' own
 * spelling here, so that the integrity check's hundreds of thousands of rows skip the per-row renaming of keys.
 */
export async function chainBatch(db: Executor, organizationId: string, afterSeq: number, limit: number): Promise<AuditLogRow[]> {
  const result = await sql<AuditLogRow>`
    select id, organization_id as "organizationId", chain_key as "chainKey", seq, actor_id as "actorId",
           actor_name as "actorName", actor_email as "actorEmail", action, target_table as "targetTable",
           target_id as "targetId", details, ip_address as "ipAddress", created_at as "createdAt", archived,
           prev_hash as "prevHash", hash, archive_batch_id as "archiveBatchId"
      from audit_logs
     where chain_key = ${organizationId} and seq > ${String(afterSeq)}
     order by seq
     limit ${limit}`.execute(db.withoutPlugins());
  return result.rows;
}

/** The entry at a position of the organization's chain. */
export function chainEntryAt(db: Executor, organizationId: string, seq: number): Promise<AuditLogRow | undefined> {
  return db
    .selectFrom('auditLogs')
    .select(ENTRY_COLUMNS)
    .where('organizationId', '=', organizationId)
    .where('chainKey', '=', organizationId)
    .where('seq', '=', String(seq))
    .executeTakeFirst();
}

export type SignedHeadRow = Selectable<DB['auditSignedHeads']>;

/** Records a signed head; answers false when that position of the chain was signed already. */
export async function insertSignedHead(db: Executor, row: Omit<SignedHeadRow, 'id'>): Promise<boolean> {
  const inserted = await db
    .insertInto('auditSignedHeads')
    .values(row)
    .onConflict((oc) => oc.columns(['chainKey', 'seq']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The organization's newest signed head (null before the first). */
export function latestSignedHead(db: Executor, organizationId: string): Promise<SignedHeadRow | undefined> {
  return db
    .selectFrom('auditSignedHeads')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('chainKey', '=', organizationId)
    .orderBy('seq', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/**
 * The positions of the organization's chain whose entries were written within [start, end] (either open), up to
 * `upToSeq`: the first and the last, or null when none was. The export takes every entry between the two.
 */
export async function chainRangeByDate(
  db: Executor,
  organizationId: string,
  range: { start?: Date; end?: Date },
  upToSeq: number,
): Promise<{ firstSeq: number; lastSeq: number } | null> {
  let first = db
    .selectFrom('auditLogs')
    .select((eb) => eb.fn.min('seq').as('seq'))
    .where('organizationId', '=', organizationId)
    .where('chainKey', '=', organizationId)
    .where('seq', '<=', String(upToSeq));
  let last = db
    .selectFrom('auditLogs')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('organizationId', '=', organizationId)
    .where('chainKey', '=', organizationId)
    .where('seq', '<=', String(upToSeq));
  if (range.start) {
    first = first.where('createdAt', '>=', range.start);
    last = last.where('createdAt', '>=', range.start);
  }
  if (range.end) {
    first = first.where('createdAt', '<=', range.end);
    last = last.where('createdAt', '<=', range.end);
  }
  const [a, b] = await Promise.all([first.executeTakeFirst(), last.executeTakeFirst()]);
  if (a?.seq == null || b?.seq == null) return null;
  return { firstSeq: Number(a.seq), lastSeq: Number(b.seq) };
}

/** The organization's signed-head records with positions in [fromSeq, toSeq], newest first, at most `limit`. */
export function signedHeadsBetween(
  db: Executor,
  organizationId: string,
  fromSeq: number,
  toSeq: number,
  limit: number,
): Promise<SignedHeadRow[]> {
  return db
    .selectFrom('auditSignedHeads')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('chainKey', '=', organizationId)
    .where('seq', '>=', String(fromSeq))
    .where('seq', '<=', String(toSeq))
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
}

/** Every organization that has an audit chain, in id order. */
export async function organizationsWithChains(db: Executor): Promise<string[]> {
  const rows = await db
    .selectFrom('organizations as o')
    .select('o.id')
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('auditChainHeads as h')
          .select('h.chainKey')
          .whereRef('h.chainKey', '=', sql`o.id::text`),
      ),
    )
    .orderBy('o.id')
    .execute();
  return rows.map((r) => r.id);
}

/**
 * For the metrics, in seconds: since the newest signed head of any organization, and since the oldest entry that
 * no signed head covers yet (the entry after each organization's last signed position), null when there is none.
 */
export async function signingAges(db: Executor): Promise<{ newestSigned: number | null; oldestUnsigned: number | null }> {
  const result = await sql<{ newestSigned: string | null; oldestUnsigned: string | null }>`
    select
      (select extract(epoch from now() - max(signed_at)) from audit_signed_heads) as "newestSigned",
      (select extract(epoch from now() - min(l.created_at))
         from audit_chain_heads h
         join organizations o on o.id::text = h.chain_key
         cross join lateral (select coalesce(max(s.seq), 0) as seq from audit_signed_heads s where s.chain_key = h.chain_key) s
         join audit_logs l on l.chain_key = h.chain_key and l.seq = s.seq + 1
        where h.last_seq > s.seq) as "oldestUnsigned"`.execute(db);
  const row = result.rows[0];
  const seconds = (v: string | null | undefined) => (v === null || v === undefined ? null : Math.max(0, Number(v)));
  return { newestSigned: seconds(row?.newestSigned), oldestUnsigned: seconds(row?.oldestUnsigned) };
}

/** Serializes the signing of one organization's chain head across every process (held to the transaction's end). */
export async function lockHeadSigning(trx: Executor, organizationId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${'audit-head:' + organizationId}))`.execute(trx);
}

/** Organizations whose chain has moved since its last signed head (or that have none): the daily signing's work. */
export async function organizationsToSign(db: Executor): Promise<string[]> {
  const rows = await db
    .selectFrom('auditChainHeads as h')
    .innerJoin('organizations as o', (j) => j.on(sql`o.id::text`, '=', sql.ref('h.chain_key')))
    .select('o.id')
    .where((eb: ExpressionBuilder<DB & { h: DB['auditChainHeads']; o: DB['organizations'] }, 'h' | 'o'>) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('auditSignedHeads as s')
            .select(sql`1`.as('one'))
            .whereRef('s.chainKey', '=', 'h.chainKey')
            .whereRef('s.seq', '=', 'h.lastSeq'),
        ),
      ),
    )
    .execute();
  return rows.map((r) => r.id);
}

// ---- Archival: the entries moved out of the database ------------------------------------------------------

/** The entries of seq from..to of the chain, locked for the archival's transaction. */
export async function lockRange(trx: Executor, organizationId: string, fromSeq: string, toSeq: string) {
  return trx
    .selectFrom('auditLogs')
    .select(['id', 'seq', 'archived', 'hash'])
    .where('organizationId', '=', organizationId)
    .where('chainKey', '=', organizationId)
    .where('seq', '>=', fromSeq)
    .where('seq', '<=', toSeq)
    .orderBy('seq')
    .forUpdate()
    .execute();
}

/** Marks the range archived in the batch and clears its details from the database. */
export async function markArchived(
  trx: Executor,
  organizationId: string,
  fromSeq: string,
  toSeq: string,
  batchId: string,
): Promise<number> {
  const r = await trx
    .updateTable('auditLogs')
    .set({ archived: true, archiveBatchId: batchId, details: '{}' })
    .where('organizationId', '=', organizationId)
    .where('chainKey', '=', organizationId)
    .where('seq', '>=', fromSeq)
    .where('seq', '<=', toSeq)
    .where('archived', '=', false)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}
