import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';
import { containsPattern, partStartRegex, prefixPattern } from '../../shared/like-patterns.js';
import { visibleMatters } from '../matters/index.js';
import type { UserRow } from '../users/index.js';

/**
 * Who is searching: their organization, permissions and, for a guest, the matters shared with them decide the scope.
 * matterId: only that matter's files and folders are searched (the caller has checked the matter is visible).
 */
type Searcher = Pick<UserRow, 'organizationId' | 'permissions' | 'id' | 'role'> & { matterId?: string };

/**
 * Below this many characters a text matches only values that start with it: "contains" two letters matches most
 * names and no trigram index can serve it (trigrams need three characters), while a prefix is served by an index.
 */
const CONTAINS_MIN = 3;

/**
 * What the user typed, with the LIKE patterns built from it (`%`, `_` and `\` in the text stay literal); `match`
 * is the pattern a value must match: anywhere from CONTAINS_MIN characters on, at the start below that.
 */
type SearchTerm = { text: string; lower: string; short: boolean; match: string; prefix: string };

export function searchTerm(text: string): SearchTerm {
  const lower = text.toLowerCase();
  const short = text.length < CONTAINS_MIN;
  return { text, lower, short, match: short ? prefixPattern(text) : containsPattern(text), prefix: prefixPattern(lower) };
}

export type SearchHit = { kind: 'matter' | 'node'; matterId: string; nodeId: string | null };

/** 0: the whole value equals the text, 1: it starts with it, 2: it contains it somewhere (ignoring case). */
function rankOf(column: ReturnType<typeof sql.ref>, t: SearchTerm) {
  return sql<number>`case when lower(${column}) = ${t.lower} then 0 when lower(${column}) like ${t.prefix} then 1 else 2 end`;
}

const MATTER_FIELDS = ['matters.matter_name', 'matters.matter_number', 'matters.client_name', 'matters.responsible_lawyer'] as const;

/**
 * A matter's searched fields (name, number, client, lawyer, description) lower-cased in one text, joined by the
 * unit separator (a control character no search text holds, so no match spans two fields). One trigram index
 * serves it (matters_search_trgm, migration 0020); this expression must stay the index's, character for character.
 */
const MATTER_TEXT = sql<string>`lower(matters.matter_name || chr(31) || coalesce(matters.matter_number, '') || chr(31) || coalesce(matters.client_name, '') || chr(31) || coalesce(matters.responsible_lawyer, '') || chr(31) || coalesce(matters.description, ''))`;
const FIELD_SEPARATOR = '\u001f';

/** Whether a matter matches: a field contains the text, or (a short text) a field starts with it. */
export function matterMatches(t: SearchTerm) {
  return t.short
    ? sql<boolean>`${MATTER_TEXT} ~ ${partStartRegex(t.lower, FIELD_SEPARATOR)}`
    : sql<boolean>`${MATTER_TEXT} like ${containsPattern(t.lower)}`;
}

/**
 * The matters the searcher may see whose name, number, client, lawyer or description matches the text; none within
 * one matter (a search there finds only its files and folders, never the matter itself).
 */
function matterHits(db: Executor, user: Searcher, t: SearchTerm) {
  const refs = MATTER_FIELDS.map((f) => sql.ref(f));
  return visibleMatters(db, user)
    .where(matterMatches(t))
    .$if(user.matterId !== undefined, (q) => q.where(sql<boolean>`false`))
    .select([
      sql<'matter' | 'node'>`'matter'`.as('kind'),
      'matters.id as matterId',
      sql<string | null>`null::uuid`.as('nodeId'),
      // A description only ever contains the text: a long text equal to a query is no better a match.
      sql<number>`least(${sql.join(refs.map((r) => rankOf(r, t)))})`.as('rank'),
      sql<number>`greatest(${sql.join(refs.map((r) => sql`similarity(${r}, ${t.text})`))})`.as('score'),
      sql<string>`lower(matters.matter_name)`.as('sortName'),
    ]);
}

/**
 * Past this many matching files and folders a search is broad: ranking every match would cost time in proportion
 * to the matches (100,000 for "board" in a million names). A broad search ranks instead the first names that start
 * with the text in name order (the exact match first), read from the (organization, lower(name)) index, and, from
 * three characters, the first names found that contain it (the trigram index, in no particular order). Below it
 * every match is ranked.
 */
export const BROAD_MATCHES = 1000;
/** How many names of each kind a broad search ranks (at least the page and one more). */
const NEAREST = 500;

/** The files and folders inside the matters the searcher may see (none in a recycle bin). */
function visibleNodes(db: Executor, user: Searcher) {
  const all = db.selectFrom('nodes').where('nodes.organizationId', '=', user.organizationId).where('nodes.binEntryId', 'is', null);
  // A search within one matter reads that matter's nodes only.
  const q = user.matterId === undefined ? all : all.where('nodes.matterId', '=', user.matterId);
  // Someone who sees every matter of the organization (not a guest, and canViewVaulted) sees every node in it:
  // the organization is the whole rule, and no list of matters is read to check it.
  if (user.role !== 'guest' && user.permissions.canViewVaulted) return q;
  return q.where('nodes.matterId', 'in', visibleMatters(db, user).select('matters.id'));
}

/** The names that start with the text: a range of the (organization, lower(name) text_pattern_ops) index. */
function startingNodes(db: Executor, user: Searcher, t: SearchTerm) {
  return visibleNodes(db, user).where(sql<boolean>`lower(nodes.name) like ${t.prefix}`);
}

/**
 * A name that contains the text. A text of several words asks the trigram index for each word of three characters
 * or more, and checks the whole text only on the rows found (on an expression the index does not cover): the
 * trigrams of the gap between two words (' es', 'e e') are in most names, and reading their lists made a two-word
 * search several times slower than its two words apart.
 */
function nameContains(t: SearchTerm) {
  const words = t.text.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= CONTAINS_MIN);
  if (words.length === 0 || (words.length === 1 && words[0] === t.text)) return sql<boolean>`nodes.name ilike ${t.match}`;
  const each = words.map((w) => sql`nodes.name ilike ${containsPattern(w)}`);
  return sql<boolean>`${sql.join(each, sql` and `)} and (nodes.name || '') ilike ${t.match}`;
}

/** The files and folders whose name matches the text (a short text: at the start), that the searcher may see. */
function nodeMatches(db: Executor, user: Searcher, t: SearchTerm) {
  return t.short ? startingNodes(db, user, t) : visibleNodes(db, user).where(nameContains(t));
}

/**
 * The files and folders that match, found once: their ids, up to `cap` (reading stops there). Fewer than the
 * cap are every match; the cap reached makes the search broad (see BROAD_MATCHES), and then these are the
 * first found that contain the text.
 */
export async function matchingNodeIds(db: Executor, user: Searcher, t: SearchTerm, cap: number): Promise<string[]> {
  const rows = await nodeMatches(db, user, t).select('nodes.id').limit(cap).execute();
  return rows.map((r) => r.id);
}

/** The given nodes (found matching by matchingNodeIds), read by primary key. */
function nodesById(db: Executor, user: Searcher, ids: string[]) {
  return db
    .selectFrom('nodes')
    .where('nodes.organizationId', '=', user.organizationId)
    .where(sql<boolean>`nodes.id = any(${ids}::uuid[])`);
}

/** A node as a hit, with its rank and score. */
function asHits(q: ReturnType<typeof visibleNodes>, t: SearchTerm) {
  const name = sql.ref('nodes.name');
  return q.select([
    sql<'matter' | 'node'>`'node'`.as('kind'),
    'nodes.matterId as matterId',
    'nodes.id as nodeId',
    rankOf(name, t).as('rank'),
    sql<number>`similarity(nodes.name, ${t.text})`.as('score'),
    sql<string>`lower(nodes.name)`.as('sortName'),
  ]);
}

/**
 * The matching nodes as hits: every match found (`found`, from matchingNodeIds); for a broad search only the
 * `nearest` names that start with the text, in name order, and the first `nearest` found that contain it.
 */
function nodeHits(db: Executor, user: Searcher, t: SearchTerm, found: string[], nearest: number | undefined) {
  const contained = asHits(nodesById(db, user, nearest === undefined ? found : found.slice(0, nearest)), t);
  if (nearest === undefined) return db.selectFrom(contained.as('n')).selectAll();
  // The names that start with the text, read in the prefix index's order until the limit (exact match first).
  const starting = asHits(startingNodes(db, user, t), t)
    .orderBy(sql`lower(nodes.name) using ~<~`)
    .limit(nearest);
  if (t.short) return db.selectFrom(starting.as('n')).selectAll();
  // UNION (not ALL): a name found both ways counts once.
  return db
    .selectFrom(starting.as('p'))
    .selectAll()
    .union(db.selectFrom(contained.as('c')).selectAll());
}

/**
 * One page of hits, ranked: exact matches, then prefixes, then by trigram similarity; a matter before its nodes
 * on a tie, then by name and id so pages never overlap. Visibility is part of the query: nothing is filtered
 * after the page is cut (the query, not yet run). `broad`: rank only the nearest names (see BROAD_MATCHES).
 */
export function searchHitsQuery(
  db: Executor,
  user: Searcher,
  t: SearchTerm,
  page: { limit: number; offset: number },
  found: string[],
  broad: boolean,
) {
  const nearest = broad ? Math.max(NEAREST, page.offset + page.limit) : undefined;
  return db
    .selectFrom(
      matterHits(db, user, t)
        .unionAll(nodeHits(db, user, t, found, nearest))
        .as('hits'),
    )
    .select(['hits.kind', 'hits.matterId', 'hits.nodeId'])
    .orderBy('hits.rank', 'asc')
    .orderBy('hits.score', 'desc')
    .orderBy('hits.kind', 'asc')
    .orderBy('hits.sortName', 'asc')
    .orderBy(sql`coalesce(${sql.ref('hits.nodeId')}, ${sql.ref('hits.matterId')})`, 'asc')
    .limit(page.limit)
    .offset(page.offset);
}

/**
 * One page of hits (see searchHitsQuery): the matching nodes are found once, up to BROAD_MATCHES or as deep as
 * the page reaches, and ranked from there.
 */
export async function searchHits(
  db: Executor,
  user: Searcher,
  t: SearchTerm,
  page: { limit: number; offset: number },
): Promise<SearchHit[]> {
  const cap = Math.max(BROAD_MATCHES, page.offset + page.limit);
  const found = await matchingNodeIds(db, user, t, cap);
  return searchHitsQuery(db, user, t, page, found, found.length >= cap).execute();
}

/** The page's matters, read through the same visibility rule, with whether the matter itself matched. */
export function findSearchMatters(db: Executor, user: Searcher, t: SearchTerm, matterIds: string[]) {
  if (matterIds.length === 0) return Promise.resolve([]);
  return visibleMatters(db, user)
    .where('matters.id', 'in', matterIds)
    .select([
      'matters.id',
      'matters.matterName',
      'matters.matterNumber',
      'matters.clientName',
      'matters.responsibleLawyer',
      'matters.status',
      'matters.legalHold',
      matterMatches(t).as('matched'),
    ])
    .execute();
}

export function findSearchNodes(db: Executor, organizationId: string, nodeIds: string[]) {
  if (nodeIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('nodes')
    .select(['id', 'name', 'nodeType', 'fileSize', 'parentId'])
    .where('organizationId', '=', organizationId)
    .where('id', 'in', nodeIds)
    .execute();
}

export type AncestorRow = { nodeId: string; id: string; name: string; depth: number };

/** The folders above each node, nearest first (depth 1 is the node's own folder). */
export async function searchAncestors(db: Executor, organizationId: string, nodeIds: string[]): Promise<AncestorRow[]> {
  if (nodeIds.length === 0) return [];
  const ids = sql.join(nodeIds.map((id) => sql`${id}::uuid`));
  const { rows } = await sql<AncestorRow>`
    with recursive up as (
      select id as node_id, parent_id, 0 as depth from nodes where organization_id = ${organizationId} and id in (${ids})
      union all
      select up.node_id, n.parent_id, up.depth + 1
        from up join nodes n on n.id = up.parent_id and n.organization_id = ${organizationId}
    )
    select up.node_id as "nodeId", n.id, n.name, up.depth + 1 as depth
      from up join nodes n on n.id = up.parent_id
     order by up.node_id, depth`.execute(db);
  return rows;
}
