import { sql, type ExpressionBuilder, type Selectable } from 'kysely';
import type { MatterSortField, MatterStatus } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import type { DB, MattersTable } from '../../platform/db/schema.js';
import { containsPattern, prefixPattern } from '../../shared/like-patterns.js';
import { matterNumberYearPatterns } from '../../shared/matter-number.js';

export type MatterRow = Selectable<MattersTable>;

export function findMatter(db: Executor, organizationId: string, matterId: string) {
  return db.selectFrom('matters').selectAll().where('organizationId', '=', organizationId).where('id', '=', matterId).executeTakeFirst();
}

/**
 * Locks the matter's row for the rest of the transaction. Every change to a matter or to its tree takes this
 * lock first, so changes of one matter run one after another (no cycles from racing moves, no upload into a
 * matter that was just put under legal hold).
 */
export function lockMatterRow(db: Executor, organizationId: string, matterId: string) {
  return db
    .selectFrom('matters')
    .selectAll()
    .where('organizationId', '=', organizationId)
    .where('id', '=', matterId)
    .forUpdate()
    .executeTakeFirst();
}

export function insertMatter(
  db: Executor,
  values: Pick<
    MatterRow,
    'organizationId' | 'matterName' | 'matterNumber' | 'clientName' | 'description' | 'responsibleLawyer' | 'createdBy'
  >,
) {
  return db
    .insertInto('matters')
    .values({ ...values, updatedBy: values.createdBy, holdReason: null, retentionExpiresAt: null, vaultedAt: null })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export type MatterChanges = Partial<Pick<MatterRow, 'matterName' | 'matterNumber' | 'clientName' | 'description' | 'responsibleLawyer'>>;

/** Applies changes and bumps the version; the caller holds the row lock and has checked the version. */
export function updateMatterRow(db: Executor, matter: MatterRow, changes: MatterChanges, userId: number) {
  return db
    .updateTable('matters')
    .set({ ...changes, version: matter.version + 1, updatedBy: userId, updatedAt: new Date() })
    .where('id', '=', matter.id)
    .where('organizationId', '=', matter.organizationId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Sets the matter's legal hold and its reason, raising its version; the caller holds the row lock. */
export function setMatterHoldRow(
  db: Executor,
  matter: Pick<MatterRow, 'id' | 'organizationId' | 'version'>,
  values: { legalHold: boolean; holdReason: string | null; userId: number },
) {
  return db
    .updateTable('matters')
    .set({
      legalHold: values.legalHold,
      holdReason: values.holdReason,
      version: matter.version + 1,
      updatedBy: values.userId,
      updatedAt: new Date(),
    })
    .where('id', '=', matter.id)
    .where('organizationId', '=', matter.organizationId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Moves a vaulted matter's retention end, raising its version (the disposition review's extension). */
export function setMatterRetentionRow(
  db: Executor,
  matter: Pick<MatterRow, 'id' | 'organizationId' | 'version'>,
  values: { retentionExpiresAt: Date; userId: number },
) {
  return db
    .updateTable('matters')
    .set({ retentionExpiresAt: values.retentionExpiresAt, version: matter.version + 1, updatedBy: values.userId, updatedAt: new Date() })
    .where('id', '=', matter.id)
    .where('organizationId', '=', matter.organizationId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Marks the matter vaulted, with the legal hold applied (its reason kept when it has one), raising its version.
 * Only a matter that is not vaulted yet changes: of two starts at once, the second finds none and answers undefined.
 */
export function markMatterVaultedRow(
  db: Executor,
  matter: Pick<MatterRow, 'id' | 'organizationId' | 'version' | 'holdReason'>,
  values: { vaultedAt: Date; retentionExpiresAt: Date; holdReason: string; userId: number },
) {
  return db
    .updateTable('matters')
    .set({
      isVaulted: true,
      status: 'Vaulted',
      vaultedAt: values.vaultedAt,
      retentionExpiresAt: values.retentionExpiresAt,
      legalHold: true,
      holdReason: matter.holdReason ?? values.holdReason,
      version: matter.version + 1,
      updatedBy: values.userId,
      updatedAt: values.vaultedAt,
    })
    .where('id', '=', matter.id)
    .where('organizationId', '=', matter.organizationId)
    .where('isVaulted', '=', false)
    .returningAll()
    .executeTakeFirst();
}

export async function matterNumberTaken(
  db: Executor,
  organizationId: string,
  matterNumber: string,
  exceptMatterId?: string,
): Promise<boolean> {
  let q = db
    .selectFrom('matters')
    .select('id')
    .where('organizationId', '=', organizationId)
    .where((eb) => eb(eb.fn('lower', ['matterNumber']), '=', matterNumber.toLowerCase()));
  if (exceptMatterId) q = q.where('id', '!=', exceptMatterId);
  return (await q.executeTakeFirst()) !== undefined;
}

/**
 * The highest sequence among the organization's stored MAT-<year>-N numbers (typed by hand or generated; 0 when
 * there is none). Numbers are unique ignoring case, so the comparison ignores case too.
 */
function highestSequence(organizationId: string, year: number) {
  const pattern = matterNumberYearPatterns(year);
  return sql<number>`(
    select coalesce(max(substring(upper(matter_number) from ${pattern.sequence})::int), 0)
      from matters where organization_id = ${organizationId} and upper(matter_number) like ${pattern.like}
  )`;
}

/**
 * Takes the next number of the organization's counter for a year, in one statement: past both the counter and
 * the highest MAT-<year>-N already stored, so numbers typed by hand (a legacy import of hundreds of consecutive
 * numbers included) are stepped over at once. The counter row's lock serializes concurrent generated creations
 * of one organization; only a hand-typed number committed at the same moment can still take the same number.
 */
export function nextMatterCounterQuery(db: Executor, organizationId: string, year: number) {
  const highest = highestSequence(organizationId, year);
  return db
    .insertInto('matterNumberCounters')
    .values({ organizationId, year, lastValue: sql<number>`${highest} + 1` })
    .onConflict((oc) =>
      oc
        .columns(['organizationId', 'year'])
        .doUpdateSet({ lastValue: sql<number>`greatest(matter_number_counters.last_value, ${highest}) + 1` }),
    )
    .returning('lastValue');
}

export async function nextMatterCounter(db: Executor, organizationId: string, year: number): Promise<number> {
  const row = await nextMatterCounterQuery(db, organizationId, year).executeTakeFirstOrThrow();
  return row.lastValue;
}

/**
 * The counter value nextMatterCounter would hand out now, without taking it: past both the stored counter and the
 * highest number of that year, so it is free at the time of asking.
 */
export async function peekMatterCounter(db: Executor, organizationId: string, year: number): Promise<number> {
  const row = await db
    .selectNoFrom(
      sql<number>`greatest(
        coalesce((select last_value from matter_number_counters where organization_id = ${organizationId} and year = ${year}), 0),
        ${highestSequence(organizationId, year)}
      ) + 1`.as('next'),
    )
    .executeTakeFirstOrThrow();
  return Number(row.next);
}

export type MatterFilters = {
  organizationId: string;
  includeVaulted: boolean;
  /** A guest's user id: only the matters shared with that guest. */
  guestUserId?: number;
  search?: string;
  status?: MatterStatus;
  clientName?: string;
  /** The client name is a picked suggestion: the whole name matches, not a part of it. */
  clientNameExact?: boolean;
  responsibleLawyer?: string;
  /** The lawyer is a picked suggestion: the whole name matches, not a part of it. */
  responsibleLawyerExact?: boolean;
  createdFrom?: Date;
  createdBefore?: Date;
};

/** The ids of the matters shared with a guest (a subquery). */
function guestMatterIds(db: Executor, organizationId: string, userId: number) {
  return db
    .selectFrom('guestMatterGrants')
    .select('guestMatterGrants.matterId')
    .where('guestMatterGrants.organizationId', '=', organizationId)
    .where('guestMatterGrants.userId', '=', userId);
}

/** Whether the matter is shared with the guest. */
export async function hasGuestGrant(db: Executor, organizationId: string, matterId: string, userId: number): Promise<boolean> {
  const row = await guestMatterIds(db, organizationId, userId).where('guestMatterGrants.matterId', '=', matterId).executeTakeFirst();
  return row !== undefined;
}

/**
 * A client or lawyer filter, ignoring case: typed text matches anywhere in the name (its `%`, `_` and `\` taken
 * literally); a picked suggestion (exact) matches the whole name only.
 */
function nameFilter(column: 'clientName' | 'responsibleLawyer', text: string, exact = false) {
  return (eb: ExpressionBuilder<DB, 'matters'>) =>
    exact ? eb(eb.fn('lower', [column]), '=', text.toLowerCase()) : eb(column, 'ilike', containsPattern(text));
}

function filtered(db: Executor, f: MatterFilters) {
  let q = db.selectFrom('matters').where('organizationId', '=', f.organizationId);
  if (!f.includeVaulted) q = q.where('isVaulted', '=', false);
  if (f.guestUserId !== undefined) q = q.where('id', 'in', guestMatterIds(db, f.organizationId, f.guestUserId));
  // Text anywhere in the name, number, client or description, ignoring case: list_search_text holds the four
  // lower-cased, with a trigram index, so each candidate costs one plain `like`.
  if (f.search) q = q.where('listSearchText', 'like', sql<string>`lower(${containsPattern(f.search)})`);
  if (f.status) q = q.where('isVaulted', '=', f.status === 'Vaulted');
  if (f.clientName) q = q.where(nameFilter('clientName', f.clientName, f.clientNameExact));
  if (f.responsibleLawyer) q = q.where(nameFilter('responsibleLawyer', f.responsibleLawyer, f.responsibleLawyerExact));
  if (f.createdFrom) q = q.where('createdAt', '>=', f.createdFrom);
  if (f.createdBefore) q = q.where('createdAt', '<', f.createdBefore);
  return q;
}

/**
 * The matters a viewer may see, with no other filter (the query, not yet run): the same rule as the matters list,
 * for features that search inside those matters (search).
 */
export function visibleMattersQuery(db: Executor, f: Pick<MatterFilters, 'organizationId' | 'includeVaulted' | 'guestUserId'>) {
  return filtered(db, f);
}

export type MatterOrder = { sortBy: MatterSortField; direction: 'asc' | 'desc' };
export type MatterPage = { limit: number; offset: number };

/** A page of the matters list (the query, not yet run). */
export function listMattersQuery(db: Executor, f: MatterFilters, order: MatterOrder, page: MatterPage) {
  const dir = order.direction;
  let q = filtered(db, f).selectAll();
  switch (order.sortBy) {
    case 'matter_name':
      q = q.orderBy((eb) => eb.fn('lower', ['matterName']), dir);
      break;
    case 'client_name':
      q = q.orderBy((eb) => eb.fn('lower', ['clientName']), dir);
      break;
    case 'is_vaulted':
      q = q.orderBy('isVaulted', dir);
      break;
    case 'created_at':
      q = q.orderBy('createdAt', dir);
      break;
  }
  // id breaks ties, so pages never overlap or skip rows with equal sort values.
  return q.orderBy('id', dir).limit(page.limit).offset(page.offset);
}

export function listMatters(db: Executor, f: MatterFilters, order: MatterOrder, page: MatterPage): Promise<MatterRow[]> {
  return listMattersQuery(db, f, order, page).execute();
}

/**
 * How many matters the list's filters match, counting at most `cap + 1` (the query, not yet run): the count
 * stops reading once it has seen more than the cap, so a search matching most of a large firm's matters costs
 * as much as reading cap + 1 of them, not all of them.
 */
export function countMattersQuery(db: Executor, f: MatterFilters, cap: number) {
  return db
    .selectFrom(
      filtered(db, f)
        .select(sql`1`.as('one'))
        .limit(cap + 1)
        .as('matching'),
    )
    .select(sql<number>`count(*)::int`.as('n'));
}

/** How many matters match, up to `cap + 1` (cap + 1: more than cap match). */
export async function countMatters(db: Executor, f: MatterFilters, cap: number): Promise<number> {
  const row = await countMattersQuery(db, f, cap).executeTakeFirstOrThrow();
  return row.n;
}

/**
 * Names in a column with how many matters carry each (case folded), those starting with the query first,
 * then by count.
 */
export type SuggestionFilters = { organizationId: string; includeVaulted: boolean; guestUserId?: number; query?: string; limit: number };

/** The suggestions of one column (the query, not yet run). */
export function nameSuggestionsQuery(db: Executor, column: 'clientName' | 'responsibleLawyer', f: SuggestionFilters) {
  let q = db.selectFrom('matters').where('organizationId', '=', f.organizationId).where(column, 'is not', null).where(column, '!=', '');
  if (!f.includeVaulted) q = q.where('isVaulted', '=', false);
  if (f.guestUserId !== undefined) q = q.where('id', 'in', guestMatterIds(db, f.organizationId, f.guestUserId));
  const prefix = f.query ? prefixPattern(f.query.toLowerCase()) : '%';
  if (f.query) q = q.where(column, 'ilike', containsPattern(f.query));
  return q
    .select((eb) => [eb.fn.max(column).as('name'), sql<number>`count(*)::int`.as('matterCount')])
    .groupBy((eb) => eb.fn('lower', [column]))
    .orderBy((eb) => sql`bool_or(lower(${eb.ref(column)}) like ${prefix})`, 'desc')
    .orderBy(sql`count(*)`, 'desc')
    .orderBy((eb) => eb.fn('lower', [eb.fn.max(column)]), 'asc')
    .limit(f.limit);
}

export async function nameSuggestions(
  db: Executor,
  column: 'clientName' | 'responsibleLawyer',
  f: SuggestionFilters,
): Promise<Array<{ name: string; matterCount: number }>> {
  const rows = await nameSuggestionsQuery(db, column, f).execute();
  return rows.map((r) => ({ name: r.name as string, matterCount: r.matterCount }));
}

/** Display name of a user, for conflict answers. */
export async function userName(db: Executor, userId: number | null): Promise<string | null> {
  if (userId === null) return null;
  const row = await db.selectFrom('users').select('fullName').where('id', '=', userId).executeTakeFirst();
  return row?.fullName ?? null;
}
