import { sql, type RawBuilder } from 'kysely';
import type { DocumentFileType, DocumentSearchQuery } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { visibleMatters } from '../matters/index.js';
import type { UserRow } from '../users/index.js';
import type { QueryPart } from './document-query.js';

type Searcher = Pick<UserRow, 'organizationId' | 'permissions' | 'id' | 'role'>;

/** Marks the matched words in a snippet: control characters no extracted text keeps (they are cut from it). */
export const MATCH_START = '\u0002';
export const MATCH_END = '\u0003';

/** One query part as a tsquery in the organization's language (each value a bound parameter). */
function partQuery(language: string, p: QueryPart): RawBuilder<unknown> {
  const cfg = sql`${language}::regconfig`;
  if (p.kind === 'prefix') {
    const prefix = sql`to_tsquery(${cfg}, ${`${p.prefix}:*`})`;
    return p.words.length ? sql`(plainto_tsquery(${cfg}, ${p.words.join(' ')}) && ${prefix})` : prefix;
  }
  const q =
    p.kind === 'phrase' ? sql`phraseto_tsquery(${cfg}, search_words(${p.text}))` : sql`plainto_tsquery(${cfg}, search_words(${p.text}))`;
  return p.negated ? sql`(!! ${q})` : q;
}

const joinAnd = (qs: RawBuilder<unknown>[]) => (qs.length ? sql.join(qs, sql` && `) : sql`''::tsquery`);

/**
 * The query as the database reads it (a tsquery's text) and how many of its words must occur: 0 when every word
 * was a stop word ('the', 'and') or the query only excludes.
 */
export async function compileQuery(db: Executor, language: string, parts: QueryPart[]): Promise<{ query: string; required: number }> {
  const positive = joinAnd(parts.filter((p) => p.kind === 'prefix' || !p.negated).map((p) => partQuery(language, p)));
  const negative = parts.filter((p) => p.kind !== 'prefix' && p.negated).map((p) => partQuery(language, p));
  const { rows } = await sql<{ query: string; required: number }>`
    select (${joinAnd([sql`(${positive})`, ...negative])})::text as query, numnode(${positive}) as required`.execute(db);
  return rows[0]!;
}

const FILE_TYPES: Record<DocumentFileType, { mimes: string[]; names: string }> = {
  pdf: { mimes: ['application/pdf'], names: '\\.pdf$' },
  word: {
    mimes: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/msword', 'application/rtf'],
    names: '\\.(docx?|rtf)$',
  },
  email: { mimes: ['message/rfc822', 'application/vnd.ms-outlook'], names: '\\.(eml|msg)$' },
  image: {
    mimes: ['image/png', 'image/jpeg', 'image/tiff', 'image/gif', 'image/bmp', 'image/webp'],
    names: '\\.(png|jpe?g|tiff?|gif|bmp|webp)$',
  },
  text: { mimes: ['text/plain', 'text/markdown'], names: '\\.(txt|md|text)$' },
  html: { mimes: ['text/html', 'application/xhtml+xml'], names: '\\.(html?|xhtml)$' },
  spreadsheet: { mimes: ['text/csv', 'application/vnd.ms-excel'], names: '\\.(csv|tsv)$' },
};

type Filters = Omit<DocumentSearchQuery, 'q' | 'page' | 'limit'>;

/**
 * The versions the searcher may see that match the query and filters (not yet ordered or limited); `byName`: only
 * those whose names match (read from the names' own index: a name match is a match). The version's own row is read
 * only when a filter asks about it (type, uploader, day).
 */
function matches(db: Executor, user: Searcher, query: string, f: Filters, byName = false) {
  const q = sql`${query}::tsquery`;
  let rows = db
    .selectFrom('fileTexts as t')
    .innerJoin('nodes as n', (j) =>
      j.onRef('n.id', '=', 't.nodeId').on('n.organizationId', '=', user.organizationId).on('n.binEntryId', 'is', null),
    )
    .where('t.organizationId', '=', user.organizationId)
    .where(byName ? sql<boolean>`ts_filter(t.tsv, '{a}') @@ ${q}` : sql<boolean>`t.tsv @@ ${q}`)
    .where('t.matterId', 'in', visibleMatters(db, user).select('matters.id'));
  if (f.versions === 'current') rows = rows.whereRef('t.versionNumber', '=', 'n.currentVersion');
  if (f.matterId !== undefined) rows = rows.where('t.matterId', '=', f.matterId);
  if (f.clientName !== undefined) {
    const client = f.clientName.toLowerCase();
    rows = rows.where('t.matterId', 'in', (eb) =>
      eb
        .selectFrom('matters')
        .select('matters.id')
        .where('matters.organizationId', '=', user.organizationId)
        .where(sql<boolean>`lower(matters.client_name) = ${client}`),
    );
  }
  if (f.fileType === undefined && f.uploadedBy === undefined && f.dateFrom === undefined && f.dateTo === undefined) return rows;
  return rows.where((eb) => {
    let version = eb
      .selectFrom('nodeVersions as v')
      .select(sql<number>`1`.as('one'))
      .whereRef('v.id', '=', 't.versionId')
      .where('v.organizationId', '=', user.organizationId);
    if (f.fileType !== undefined) {
      const t = FILE_TYPES[f.fileType];
      version = version.where(sql<boolean>`(lower(coalesce(v.mime_type, '')) = any(${t.mimes}::text[]) or n.name ~* ${t.names})`);
    }
    if (f.uploadedBy !== undefined) {
      version = version.where('v.createdBy', 'in', (sub) =>
        sub
          .selectFrom('users')
          .select('users.id')
          .where('users.organizationId', '=', user.organizationId)
          .where('users.publicId', '=', f.uploadedBy!),
      );
    }
    if (f.dateFrom !== undefined) version = version.where('v.createdAt', '>=', new Date(`${f.dateFrom}T00:00:00Z`));
    if (f.dateTo !== undefined) version = version.where('v.createdAt', '<', new Date(Date.parse(`${f.dateTo}T00:00:00Z`) + 86_400_000));
    return eb.exists(version);
  });
}

/**
 * How many matches are ranked. Ranking reads each match's words, so ranking all of a word found in half a million
 * documents would take seconds: past this many the page ranks the files whose names match (all of them, up to the
 * window, from the names' own index) and the first matches the text index yields. The total then reads as more
 * than DOCUMENT_SEARCH_LIMITS.countMax, and the person narrows the search.
 */
const RANK_WINDOW = 500;

/**
 * One page of matching versions, best first (name matches, weight A, above text matches, then by density, then
 * newest), and how many versions match, counted up to `cap` (one more than the cap says there are more).
 *
 * One statement reads the matches once: the first cap + 1 the text index yields (the searcher's own, after the
 * permission and the filters) are counted, and the first RANK_WINDOW of them ranked beside the name matches. The
 * page's rows are chosen among those, so no page is filtered after it was chosen.
 */
export async function matchingPage(
  db: Executor,
  user: Searcher,
  query: string,
  f: Filters,
  page: { limit: number; offset: number },
  cap: number,
): Promise<{ versionIds: string[]; counted: number }> {
  const q = sql`${query}::tsquery`;
  const window = Math.max(RANK_WINDOW, page.offset + page.limit);
  const columns = ['t.versionId', 't.tsv'] as const;
  // When each candidate was stored breaks ties in rank: read for the ranked candidates only.
  const stored = (c: string) =>
    sql`join node_versions v on v.id = ${sql.ref(`${c}.version_id`)} and v.organization_id = ${user.organizationId}`;
  const matched = matches(db, user, query, f)
    .select(columns)
    .limit(Math.max(cap + 1, window));
  const named = matches(db, user, query, f, true).select(columns).limit(window);
  const { rows } = await sql<{ counted: string; versionIds: string[] | null }>`
    with matched as materialized (${matched}),
    candidates as (
      select c.version_id, v.created_at, ts_rank_cd(c.tsv, ${q}) as rank from (select * from matched limit ${window}) c ${stored('c')}
      union
      select c.version_id, v.created_at, ts_rank_cd(c.tsv, ${q}) from (${named}) c ${stored('c')}
    ),
    page as (
      select c.version_id, c.rank, c.created_at from candidates c
       order by c.rank desc, c.created_at desc, c.version_id
       limit ${page.limit} offset ${page.offset}
    )
    select (select count(*) from matched) as counted,
           (select json_agg(p.version_id order by p.rank desc, p.created_at desc, p.version_id) from page p) as "versionIds"`.execute(db);
  const row = rows[0]!;
  return { versionIds: row.versionIds ?? [], counted: Math.min(Number(row.counted), cap + 1) };
}

/**
 * For the rest of the transaction, queries run in one process: a page of matches is small, and starting parallel
 * workers (which also hash every matter of the organization) cost most of a rare word's search.
 */
export async function withoutParallelWorkers(trx: Executor): Promise<void> {
  await sql`set local max_parallel_workers_per_gather = 0`.execute(trx);
}

export type DocumentHitRow = {
  versionId: string;
  nodeId: string;
  name: string;
  parentId: string | null;
  versionNumber: number;
  currentVersion: number | null;
  mimeType: string | null;
  fileSize: string;
  matterId: string;
  matterName: string;
  matterNumber: string | null;
  clientName: string | null;
  status: 'Open' | 'Vaulted';
  uploaderId: string | null;
  uploaderName: string | null;
  uploadedAt: string;
  nameMatched: boolean;
  /** The first page holding the words (from 1), and how many pages the text has. */
  pageNumber: number | null;
  pageCount: number;
  snippet: string | null;
};

/**
 * What the page's hits show: the file and matter, the uploader, whether the name matched, and where in the text
 * the words occur: the first page that holds them and a snippet of it with the words marked. Pages are checked on
 * these rows only, never on every match.
 */
export async function hitDetails(db: Executor, organizationId: string, query: string, versionIds: string[]): Promise<DocumentHitRow[]> {
  if (versionIds.length === 0) return [];
  const q = sql`${query}::tsquery`;
  const ids = sql.join(versionIds.map((id) => sql`${id}::uuid`));
  const options = `StartSel=${MATCH_START}, StopSel=${MATCH_END}, MaxWords=30, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "`;
  const { rows } = await sql<DocumentHitRow>`
    select t.version_id as "versionId", t.node_id as "nodeId", n.name, n.parent_id as "parentId", t.version_number as "versionNumber",
           n.current_version as "currentVersion", v.mime_type as "mimeType", v.file_size as "fileSize",
           m.id as "matterId", m.matter_name as "matterName", m.matter_number as "matterNumber", m.client_name as "clientName",
           m.status, u.public_id as "uploaderId", u.full_name as "uploaderName",
           to_char(v.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as "uploadedAt",
           ts_filter(t.tsv, '{a}') @@ ${q} as "nameMatched",
           hit.n::int as "pageNumber",
           coalesce(array_length(string_to_array(t.body, chr(12)), 1), 0) as "pageCount",
           case
             when hit.txt is not null then ts_headline(t.language::regconfig, search_words(hit.txt), ${q}, ${options})
             when t.body is not null and ts_filter(t.tsv, '{b}') @@ ${q}
               then ts_headline(t.language::regconfig, search_words(left(t.body, 100000)), ${q}, ${options})
           end as snippet
      from file_texts t
      join nodes n on n.id = t.node_id and n.organization_id = t.organization_id
      join node_versions v on v.id = t.version_id and v.organization_id = t.organization_id
      join matters m on m.id = t.matter_id and m.organization_id = t.organization_id
      left join users u on u.id = v.created_by and u.organization_id = t.organization_id
      left join lateral (
        select p.txt, p.n from unnest(string_to_array(t.body, chr(12))) with ordinality p(txt, n)
         where to_tsvector(t.language::regconfig, search_words(p.txt)) @@ ${q}
         order by p.n limit 1
      ) hit on true
     where t.organization_id = ${organizationId} and t.version_id in (${ids})`.execute(db);
  return rows;
}
