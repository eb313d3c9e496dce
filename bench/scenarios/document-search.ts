// Document search on PostgreSQL: GET /_api/search/documents over the text of a large number of files (default
// 1,000,000 of about 2 KB each in 10,000 matters of the signed-in organization, and 50,000 in another), and for
// reference the same queries without HTTP.
import pg from 'pg';
import { api, passMfaWall } from '../lib/api-client.js';
import { envInt, fmt, fmtInt, median, percentile } from '../lib/stats.js';
import { startStrongroom, type Strongroom } from '../lib/strongroom.js';
import type { Scenario } from '../lib/types.js';
import { DOCUMENT_SEARCH_LIMITS } from '@strongroom/contracts';
import { createOrganizationFromCli } from '../../server/src/features/setup/setup.service.js';
import { createSession, SESSION_COOKIE } from '../../server/src/features/sessions/index.js';
import { openPostgres, type Database, type DatabaseHandle } from '../../server/src/platform/db/database.js';
import { parseDocumentQuery } from '../../server/src/features/search/document-query.js';
import {
  compileQuery,
  hitDetails,
  matchingPage,
  withoutParallelWorkers,
} from '../../server/src/features/search/document-search.repository.js';

const DEFAULT_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';
const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
const arr = (xs: string[]) => `array[${xs.map(q).join(',')}]`;

// The words of the generated text. None starts with "agre" or is "clause", "fourteen", "quindecennial", "witness"
// or "statement": those are placed in chosen documents only, so each case matches a known share of them.
const WORDS = (
  'the of and to in a that is for by with as on be or any this such shall may not under from which all ' +
  'party parties tenant landlord lease premises rent term notice period payment company director shareholder ' +
  'share purchase price completion buyer seller warranty indemnity liability loss damage claim claims court ' +
  'judgment order hearing trial evidence counsel solicitor client matter file record document letter email ' +
  'schedule annex appendix deed contract obligation right rights interest property title land registry charge ' +
  'mortgage lender borrower loan facility interest rate default event termination breach remedy cure days ' +
  'months year years date effective written consent approval board meeting resolution minutes vote quorum ' +
  'employee employer salary bonus pension benefit confidential information disclosure data protection privacy ' +
  'insurance policy premium cover risk dispute arbitration mediation jurisdiction governing law england wales ' +
  'costs fees invoice account bank transfer tax duty stamp value added goods services supply delivery ' +
  'specification quality inspection acceptance defect repair maintenance insurance assignment subletting ' +
  'planning permission consent licence alteration reinstatement covenant guarantor guarantee security ' +
  'representation reasonable endeavours best efforts material adverse change force majeure successor ' +
  'affiliate subsidiary group holding merger acquisition target disclosure letter data room diligence report'
).split(' ');
const PARAGRAPHS = 2000;
const PARAGRAPH_WORDS = 32;

const DOCS = [
  'Engagement letter',
  'Share purchase agreement',
  'Board minutes',
  'Witness statement',
  'Disclosure list',
  'Completion memo',
  'Due diligence report',
  'Lease schedule',
  'Invoice',
  'Correspondence',
  'Draft particulars',
  'Expert report',
  'Settlement terms',
  'Title search',
  'Bank statement',
  'Court order',
  'Skeleton argument',
  'Email thread',
  'Power of attorney',
  'Board resolution',
];
const PARTIES = ['Baker', 'Carter', 'Dawson', 'Fletcher', 'Harper', 'Kendall', 'Lambert', 'Morgan', 'Osborne', 'Quinn', 'Sutton', 'Walsh'];
const SUFFIXES = ['Holdings', 'Ltd', 'Partners', 'Capital', 'Estates', 'Logistics', 'Energy', 'Retail', 'Trust', 'Marine'];

/** The pool of generated paragraphs (about 220 bytes each) the documents are made of. */
function paragraphSql(): string[] {
  return [
    'create table bench_paragraphs (p int primary key, txt text not null)',
    `insert into bench_paragraphs (p, txt)
     select p, initcap((${arr(WORDS)})[1 + abs(hashint4(p * 1000)::bigint) % ${WORDS.length}]) || ' ' || string_agg(
              (${arr(WORDS)})[1 + abs(hashint4(p * 1000 + k)::bigint) % ${WORDS.length}], ' ' order by k) || '.'
       from generate_series(0, ${PARAGRAPHS - 1}) p, generate_series(1, ${PARAGRAPH_WORDS}) k
      group by p`,
  ];
}

const matterId = (tag: string, m: string) => `md5('${tag}m' || ${m})::uuid`;
const nodeId = (tag: string, i: string) => `md5('${tag}n' || ${i})::uuid`;
const versionId = (tag: string, i: string) => `md5('${tag}v' || ${i})::uuid`;
const fileName = (i: string) =>
  `(${arr(DOCS)})[1 + (${i} * 7) % 20] || ' - ' || (${arr(PARTIES)})[1 + (${i} / 20) % 12] || ' ' || (${arr(SUFFIXES)})[1 + (${i} / 240) % 10] || ' - ' || ${i} || '.pdf'`;

/** Matters, then `files` file nodes (one version each) spread over them, all at the matter's root. */
function filesSql(matters: number, files: number, tag: string): string[] {
  return [
    `insert into matters (id, organization_id, matter_name, matter_number, client_name, responsible_lawyer, created_by, updated_by)
     select ${matterId(tag, 'j')}, $1::uuid, 'Matter ' || j || ' ' || (${arr(PARTIES)})[1 + j % 12], 'MAT-2026-' || lpad(j::text, 6, '0'),
            (${arr(PARTIES)})[1 + j % 12] || ' ' || (${arr(SUFFIXES)})[1 + j % 10], 'Ria Finder', $2::int, $2::int
       from generate_series(1, ${matters}) j`,
    `insert into nodes (id, organization_id, matter_id, parent_id, name, node_type, file_size, mime_type, sha256_hash, storage_path, current_version, created_by)
     select ${nodeId(tag, 'i')}, $1::uuid, ${matterId(tag, `(1 + i % ${matters})`)}, null, ${fileName('i')},
            'file', 20000 + i % 100000, 'application/pdf', md5(i::text) || md5(i::text), '${tag}/' || i, 1, $2::int
       from generate_series(1, ${files}) i`,
    `insert into node_versions (id, organization_id, matter_id, node_id, version_number, file_size, mime_type, sha256_hash, storage_path, created_by)
     select ${versionId(tag, 'i')}, $1::uuid, ${matterId(tag, `(1 + i % ${matters})`)}, ${nodeId(tag, 'i')}, 1,
            20000 + i % 100000, 'application/pdf', md5(i::text) || md5(i::text), '${tag}/' || i, $2::int
       from generate_series(1, ${files}) i`,
  ];
}

/**
 * The texts of files `from`..`to`: three pages (form feed between) of three paragraphs each, about 2 KB, with
 * sentences placed by the file's number: "agreement" in every second file (and "agreed" in every seventh),
 * "clause fourteen" as a phrase in 1 in 1,000, "clause" alone in 1 in 10 and "fourteen" alone in 1 in 20, and
 * "quindecennial" in 1 in 100,000 (on the third page).
 */
function textsSql(matters: number, tag: string, from: number, to: number): string {
  const para = (k: number) => `(select txt from bench_paragraphs where p = abs(hashint4(i * 16 + ${k})::bigint) % ${PARAGRAPHS})`;
  const page1 = `case when i % 10 = 3 then 'Under clause nine the landlord may enter. ' else '' end || ${para(1)} || ' ' || ${para(2)} || ' ' || ${para(3)}`;
  const page2 =
    `case when i % 2 = 0 then 'This agreement is made between the parties named below. ' else '' end` +
    ` || ${para(4)} || ' ' || case when i % 1000 = 17 then 'The tenant relies on clause fourteen of the lease. ' else '' end || ${para(5)} || ' ' || ${para(6)}`;
  const page3 =
    `${para(7)} || ' ' || case when i % 20 = 9 then 'Notice must be given within fourteen days. ' else '' end` +
    ` || case when i % 7 = 0 then 'As agreed in writing by both sides. ' else '' end` +
    ` || case when i % 100000 = 13 then 'A quindecennial review of the rent falls due. ' else '' end || ${para(8)} || ' ' || ${para(9)}`;
  return `insert into file_texts (organization_id, version_id, node_id, matter_id, version_number, state, language, body, tsv, extracted_at)
    select $1::uuid, ${versionId(tag, 'i')}, ${nodeId(tag, 'i')}, ${matterId(tag, `(1 + i % ${matters})`)}, 1, 'indexed', 'english', b.body,
           setweight(to_tsvector('english', file_name_words(${fileName('i')})), 'A') || setweight(to_tsvector('english', b.body), 'B'), now()
      from generate_series(${from}, ${to}) i,
           lateral (select ${page1} || chr(12) || ${page2} || chr(12) || ${page3} as body) b`;
}

/** The organization an earlier run seeded in this database with `docs` texts, and its administrator. */
async function seededOrganization(pool: pg.Pool, docs: number): Promise<{ organizationId: string; userId: number } | undefined> {
  const { rows } = await pool.query<{ organizationId: string; userId: number }>(
    `select o.id as "organizationId", u.id as "userId"
       from organizations o join users u on u.organization_id = o.id and u.role = 'admin'
      where o.name = 'Bench LLP' and (select count(*) from file_texts t where t.organization_id = o.id) = $1
      order by u.id limit 1`,
    [docs],
  );
  return rows[0];
}

/** Points the bench's requests at another administrator: MFA set up as passMfaWall does, and a new session. */
async function signInAs(sr: Strongroom, who: { organizationId: string; userId: number }): Promise<void> {
  const ctx = sr.built.ctx;
  await ctx.db.updateTable('users').set({ mfaEnabled: true, mfaPrimaryMethod: 'email' }).where('id', '=', who.userId).execute();
  const { token } = await ctx.db.transaction().execute(async (trx) => {
    const user = await trx.selectFrom('users').selectAll().where('id', '=', who.userId).executeTakeFirstOrThrow();
    return createSession(ctx, trx, user, { ip: '127.0.0.1', userAgent: 'strongroom-bench' });
  });
  sr.admin = { ...sr.admin, ...who };
  sr.sessionCookie = `${SESSION_COOKIE}=${token}`;
}

type Case = { key: string; label: string; text: string };
type Result = {
  c: Case;
  total: number;
  capped: boolean;
  hits: number;
  http: number[];
  sql: number[];
  details: number[];
  plan: string[];
};

const ms = (n: number) => fmt(n, 1);
const TARGET_MS = 100;

export const scenario: Scenario = {
  name: 'document-search',
  title: 'Document search over the text of 1,000,000 files',
  order: 48,
  description:
    '`GET /_api/search/documents` (full-text search of file texts and names, ranked, with the page and snippet of each hit) on the real app ' +
    'with PostgreSQL holding BENCH_DOC_COUNT file texts of about 2 KB (default 1,000,000) in the signed-in organization and 50,000 in another; ' +
    'beside it the same queries alone.',
  async run({ log }) {
    const docs = envInt('BENCH_DOC_COUNT', 1_000_000, 10_000, 2_000_000);
    const matters = Math.max(100, Math.round(docs / 100));
    const otherDocs = 50_000;
    const requests = envInt('BENCH_REQUESTS', 100, 10, 1000);
    const given = process.env.BENCH_DATABASE_URL;
    const serverUrl = new URL(given || DEFAULT_SERVER);
    const ownDb = given ? undefined : `strongroom_bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const dbUrl = new URL(serverUrl);
    if (ownDb) dbUrl.pathname = `/${ownDb}`;
    if (!ownDb && ['', '/', '/postgres'].includes(dbUrl.pathname)) {
      throw new Error('BENCH_DATABASE_URL must name a throw-away database, never postgres itself');
    }
    const admin = new pg.Client({ connectionString: serverUrl.toString() });
    await admin.connect();
    let sr: Strongroom | undefined;
    let handle: DatabaseHandle | undefined;
    try {
      if (ownDb) await admin.query(`create database ${ownDb}`);
      const pgVersion = (await admin.query('show server_version')).rows[0].server_version as string;
      log(`database ${ownDb ?? '(BENCH_DATABASE_URL)'} on PostgreSQL ${pgVersion}; starting Strongroom...`);
      const saved = process.env.BENCH_DATABASE_URL;
      process.env.BENCH_DATABASE_URL = dbUrl.toString();
      try {
        sr = await startStrongroom();
      } finally {
        if (saved === undefined) delete process.env.BENCH_DATABASE_URL;
        else process.env.BENCH_DATABASE_URL = saved;
      }
      await passMfaWall(sr);
      handle = await openPostgres(dbUrl.toString(), 2);
      const pool = (handle as DatabaseHandle & { pool: pg.Pool }).pool;
      // BENCH_REUSE_SEED=1 with BENCH_DATABASE_URL: the organization an earlier run seeded there (its texts all in
      // place) is searched again, signed in as its administrator, instead of seeding another million texts.
      const reused = given && process.env.BENCH_REUSE_SEED === '1' ? await seededOrganization(pool, docs) : undefined;
      let insertSeconds = 0;
      let seedSeconds = 0;
      if (reused) {
        await signInAs(sr, reused);
        log(`reusing the texts seeded earlier in organization ${reused.organizationId}`);
      } else {
        const other = await createOrganizationFromCli(handle.db, {
          name: 'Other Firm LLP',
          adminName: 'Other Admin',
          adminEmail: `other.${Date.now()}@firm.test`,
          adminPassword: 'correct horse battery staple',
        });

        // The seed: files and versions without the per-version trigger (the texts are inserted already indexed), the
        // text indexes dropped and built once after the rows are in, the texts inserted in chunks on two connections.
        const seedStart = performance.now();
        await pool.query('alter table node_versions disable trigger file_texts_version_insert');
        await pool.query('drop index if exists nodes_name_trgm');
        await pool.query('drop index if exists nodes_org_name_prefix');
        await pool.query('drop index if exists file_texts_tsv');
        await pool.query('drop index if exists file_texts_name_tsv');
        for (const s of paragraphSql()) await pool.query(s);
        for (const s of filesSql(matters, docs, 'a')) await pool.query(s, [sr.admin.organizationId, sr.admin.userId]);
        for (const s of filesSql(500, otherDocs, 'b')) await pool.query(s, [other.organizationId, other.userId]);
        const filesSeconds = (performance.now() - seedStart) / 1000;
        log(`inserted ${fmtInt(docs + otherDocs)} files and versions in ${fmt(filesSeconds)} s; inserting their texts...`);
        const chunk = 25_000;
        const jobs: Array<{ tag: string; org: string; matters: number; from: number; to: number }> = [];
        for (let from = 1; from <= docs; from += chunk) {
          jobs.push({ tag: 'a', org: sr.admin.organizationId, matters, from, to: Math.min(docs, from + chunk - 1) });
        }
        for (let from = 1; from <= otherDocs; from += chunk) {
          jobs.push({ tag: 'b', org: other.organizationId, matters: 500, from, to: Math.min(otherDocs, from + chunk - 1) });
        }
        let done = 0;
        let lastLog = performance.now();
        const worker = async () => {
          for (let job = jobs.shift(); job; job = jobs.shift()) {
            await pool.query(textsSql(job.matters, job.tag, job.from, job.to), [job.org]);
            done += job.to - job.from + 1;
            if (performance.now() - lastLog > 30_000) {
              lastLog = performance.now();
              log(`  ${fmtInt(done)} texts after ${fmt((performance.now() - seedStart) / 1000)} s`);
            }
          }
        };
        await Promise.all([worker(), worker()]);
        insertSeconds = (performance.now() - seedStart) / 1000;
        log(`inserted ${fmtInt(done)} texts by ${fmt(insertSeconds)} s; building indexes...`);
        const build = async (statement: string) => {
          const client = await pool.connect();
          try {
            await client.query(`set maintenance_work_mem = '256MB'`);
            await client.query(statement);
          } finally {
            client.release();
          }
        };
        await Promise.all([
          build('create index file_texts_tsv on file_texts using gin (tsv)').then(() =>
            build('create index nodes_org_name_prefix on nodes (organization_id, lower(name) text_pattern_ops)'),
          ),
          build(`create index file_texts_name_tsv on file_texts using gin (ts_filter(tsv, '{a}'))`).then(() =>
            build('create index nodes_name_trgm on nodes using gin (name gin_trgm_ops)'),
          ),
        ]);
        await pool.query('alter table node_versions enable trigger file_texts_version_insert');
        await pool.query('drop table bench_paragraphs');
        for (const t of ['matters', 'nodes', 'node_versions', 'file_texts']) await pool.query(`analyze ${t}`);
        seedSeconds = (performance.now() - seedStart) / 1000;
      }
      const sizes = (
        await pool.query(
          `select pg_relation_size('file_texts_tsv')::float8 as gin, pg_relation_size('file_texts_name_tsv')::float8 as name_gin,
                pg_table_size('file_texts')::float8 as table_bytes, pg_total_relation_size('file_texts')::float8 as total_bytes,
                (select sum(octet_length(body))::float8 from file_texts) as body_bytes,
                (select count(*)::float8 from file_texts t join node_versions v on v.id = t.version_id where t.organization_id = $1) as own_texts`,
          [sr.admin.organizationId],
        )
      ).rows[0] as { gin: number; name_gin: number; table_bytes: number; total_bytes: number; body_bytes: number; own_texts: number };
      if (sizes.own_texts !== docs) throw new Error(`expected ${docs} texts of the organization's versions, found ${sizes.own_texts}`);
      const mib = (n: number) => `${fmtInt(n / 1024 ** 2)} MB`;
      const perGb = (n: number) => `${fmtInt((n / sizes.body_bytes) * 1024)} MB`;
      log(
        `texts indexed and analyzed by ${fmt(seedSeconds)} s: ${mib(sizes.body_bytes)} of text; file_texts ${mib(sizes.table_bytes)} (with TOAST), ` +
          `${mib(sizes.total_bytes)} with indexes; file_texts_tsv ${mib(sizes.gin)} (${perGb(sizes.gin)} per GB of text), file_texts_name_tsv ${mib(sizes.name_gin)}`,
      );

      const cases: Case[] = [
        { key: 'rare', label: '"quindecennial" (1 in 100,000 texts)', text: 'quindecennial' },
        { key: 'common', label: '"agreement" (1 in 2 texts, 1 in 20 names)', text: 'agreement' },
        {
          key: 'phrase',
          label: '"clause fourteen" (phrase in 1 in 1,000; the words apart in 1 in 10 and 1 in 20)',
          text: '"clause fourteen"',
        },
        { key: 'prefix', label: '"agree*" (prefix: agreement, agreed; over half the texts)', text: 'agree*' },
        { key: 'name', label: '"witness" (names only, 1 in 20 names)', text: 'witness' },
      ];
      const user = {
        organizationId: sr.admin.organizationId,
        id: sr.admin.userId,
        role: 'admin' as const,
        permissions: { canViewVaulted: true } as never,
      };
      // The statements the repository runs, in order, as they went out (for EXPLAIN); a query built inside another is
      // compiled too, but only those that ran are kept.
      let captured: { sql: string; parameters: readonly unknown[] }[] = [];
      const compiledById = new Map<unknown, { sql: string; parameters: readonly unknown[] }>();
      const executor = handle.db.getExecutor();
      const capture: Parameters<Database['withPlugin']>[0] = {
        transformQuery: (args) => {
          compiledById.set(args.queryId, executor.compileQuery(args.node, args.queryId));
          return args.node;
        },
        transformResult: async (args) => {
          const ran = compiledById.get(args.queryId);
          if (ran) captured.push(ran);
          return args.result;
        },
      };
      const capturing = handle.db.withPlugin(capture);
      const limit = 20;
      // The endpoint's defaults: each file's current version, no other filter.
      const filters = { versions: 'current' as const };
      const cap = DOCUMENT_SEARCH_LIMITS.countMax;
      const results: Result[] = [];
      for (const c of cases) {
        const path = `/_api/search/documents?${new URLSearchParams({ q: c.text, limit: String(limit) }).toString()}`;
        const parts = parseDocumentQuery(c.text);
        // As the service runs them: the query compiled, the page and the count together, then the page's details.
        const sqlOnce = async () => {
          const db = handle!.db;
          const compiled = await compileQuery(db, 'english', parts);
          const page = await db.transaction().execute(async (trx) => {
            await withoutParallelWorkers(trx);
            return matchingPage(trx, user, compiled.query, filters, { limit, offset: 0 }, cap);
          });
          const t = performance.now();
          await hitDetails(db, user.organizationId, compiled.query, page.versionIds);
          return performance.now() - t;
        };
        let answer = { total: 0, totalCapped: false, hits: [] as unknown[] };
        for (let i = 0; i < 5; i++) {
          answer = await api<typeof answer>(sr, 'GET', path);
          await sqlOnce();
        }
        const http: number[] = [];
        const sqlTimes: number[] = [];
        const details: number[] = [];
        for (let i = 0; i < requests; i++) {
          let t = performance.now();
          await api(sr, 'GET', path);
          http.push(performance.now() - t);
          t = performance.now();
          details.push(await sqlOnce());
          sqlTimes.push(performance.now() - t);
        }
        const compiled = await compileQuery(handle.db, 'english', parts);
        captured = [];
        await capturing.transaction().execute((trx) => matchingPage(trx, user, compiled.query, filters, { limit, offset: 0 }, cap));
        // As the service runs them: in order, in one transaction without parallel workers; a setting is applied as it
        // was, each query explained.
        const explainAll = async (statements: { sql: string; parameters: readonly unknown[] }[]) => {
          const client = await pool.connect();
          const lines: string[] = [];
          try {
            await client.query('begin');
            await client.query('set local max_parallel_workers_per_gather = 0');
            for (const statement of statements) {
              if (/^\s*set local /i.test(statement.sql)) {
                await client.query(statement.sql, [...statement.parameters]);
                lines.push(`-- ${statement.sql.trim()}`);
                continue;
              }
              const { rows } = await client.query(`explain (analyze, costs off) ${statement.sql}`, [...statement.parameters]);
              lines.push(`-- ${statement.sql.trim().split('\n')[0]!.slice(0, 60)} …`, ...rows.map((r) => r['QUERY PLAN'] as string));
            }
            await client.query('commit');
            return lines;
          } finally {
            client.release();
          }
        };
        const plan = await explainAll(captured);
        results.push({
          c,
          total: answer.total,
          capped: answer.totalCapped,
          hits: answer.hits.length,
          http,
          sql: sqlTimes,
          details,
          plan,
        });
        if (process.env.BENCH_SHOW_PLANS) log(plan.join('\n  '));
        log(
          `${c.key}: ${answer.totalCapped ? 'over ' : ''}${fmtInt(answer.total)} matches; HTTP median ${ms(median(http))} ms p95 ${ms(percentile(http, 95))} ms; ` +
            `SQL median ${ms(median(sqlTimes))} ms p95 ${ms(percentile(sqlTimes, 95))} ms (details median ${ms(median(details))} ms)`,
        );
      }
      const met = results.filter((r) => percentile(r.http, 95) < TARGET_MS);
      const missed = results.filter((r) => percentile(r.http, 95) >= TARGET_MS);
      const worst = results.reduce((a, b) => (percentile(b.http, 95) > percentile(a.http, 95) ? b : a));
      const planFor = (key: string) => results.find((r) => r.c.key === key)!;
      const planNote = (key: string, what: string) => [
        '',
        `**${planFor(key).c.label}** (${what}):`,
        '',
        '```',
        ...planFor(key).plan,
        '```',
      ];
      return {
        variant: 'postgres',
        command:
          'npm run bench -- document-search   # BENCH_DOC_COUNT=… (default 1,000,000), BENCH_REQUESTS=…, BENCH_DATABASE_URL=postgres://… for a given throw-away database (kept; BENCH_REUSE_SEED=1 searches its earlier seed again)',
        headline: `${fmtInt(docs)} file texts: worst p95 over HTTP ${ms(percentile(worst.http, 95))} ms (${worst.c.text}); ${met.length} of ${results.length} cases under ${TARGET_MS} ms; file_texts_tsv ${perGb(sizes.gin)} per GB of text`,
        summary: [
          `- ${fmtInt(docs)} file texts (${mib(sizes.body_bytes)} of text in all, about ${fmtInt(sizes.body_bytes / (docs + otherDocs))} bytes each, three pages) in ${fmtInt(matters)} matters of the signed-in organization and ${fmtInt(otherDocs)} in another, PostgreSQL ${pgVersion} on the same machine. ` +
            (reused
              ? 'The texts were seeded by an earlier run on the same database and reused (BENCH_REUSE_SEED=1); the seed was not timed this run.'
              : `Files, versions and texts inserted with \`INSERT … SELECT generate_series\` (the texts' tsvector computed in the insert, on two connections) in ${fmt(insertSeconds)} s; indexes built and tables analyzed by ${fmt(seedSeconds)} s.`),
          `- Sizes: file_texts ${mib(sizes.table_bytes)} with its TOAST (${perGb(sizes.table_bytes)} per GB of text), ${mib(sizes.total_bytes)} with its indexes (${perGb(sizes.total_bytes)} per GB of text); **the text index file_texts_tsv ${mib(sizes.gin)}, ${perGb(sizes.gin)} per GB of text**; the names' index file_texts_name_tsv ${mib(sizes.name_gin)}.`,
          `- ${requests} sequential requests per case after 5 warm-ups, page 1 with limit ${limit} and snippets; HTTP and the queries alone interleaved. **Worst p95 over HTTP: ${ms(percentile(worst.http, 95))} ms** (${worst.c.label}).`,
          missed.length === 0
            ? `- Target: p95 under ${TARGET_MS} ms over HTTP for the first page with snippets. **Met by all ${results.length} cases** on this run.`
            : `- Target: p95 under ${TARGET_MS} ms over HTTP for the first page with snippets. **Missed by ${missed.length} of ${results.length} cases: ${missed
                .map((r) => `${r.c.text} (p95 ${ms(percentile(r.http, 95))} ms)`)
                .join(', ')}**; met by ${met.map((r) => r.c.text).join(', ') || 'none'}.`,
        ],
        tables: [
          {
            caption: `Milliseconds over ${requests} requests each (HTTP: \`fetch\` to the app on 127.0.0.1 with the session cookie, the whole answer: hits with paths, pages and snippets, the count, the audit entry; SQL: compileQuery, then matchingPage (the page and the count) in one transaction without parallel workers, then hitDetails, as the service runs them; details: hitDetails alone, the pages and snippets of the ${limit} hits)`,
            columns: ['query', 'matches', 'HTTP median', 'HTTP p95', 'SQL median', 'SQL p95', 'details median', 'details p95'],
            rows: results.map((r) => [
              r.c.label,
              `${r.capped ? 'over ' : ''}${fmtInt(r.total)}`,
              ms(median(r.http)),
              ms(percentile(r.http, 95)),
              ms(median(r.sql)),
              ms(percentile(r.sql, 95)),
              ms(median(r.details)),
              ms(percentile(r.details, 95)),
            ]),
          },
        ],
        notes: [
          `- Data: each text is three pages (form feed between) of three paragraphs drawn from ${fmtInt(PARAGRAPHS)} generated ones of ${PARAGRAPH_WORDS} words (from a pool of ${WORDS.length} legal and common English words), with sentences placed by the file's number: "agreement" in every second text, "agreed" in every seventh, "clause fourteen" in 1 in 1,000, "clause" (as "clause nine") in 1 in 10, "fourteen" (as "fourteen days") in 1 in 20, "quindecennial" in 1 in 100,000. Files are named "<document> - <party> <suffix> - <n>.pdf" from 20 document kinds (one of them "Witness statement", another "Share purchase agreement"), one version each, state 'indexed', language English.`,
          `- Seed: the version trigger file_texts_version_insert disabled while the versions went in (and enabled after); file_texts_tsv, file_texts_name_tsv and the two name indexes of nodes dropped before and built after (maintenance_work_mem 256MB). Sizes are \`pg_relation_size\` of the index, \`pg_table_size\` (heap and TOAST) and \`pg_total_relation_size\` of file_texts, divided by the sum of \`octet_length(body)\` of both organizations.`,
          `- Server: the app from \`buildApp\` (pool of 10), LOG_LEVEL=silent, the administrator (sees vaulted matters). ${ownDb ? 'The database was made for the run and dropped after it.' : 'Database: BENCH_DATABASE_URL as given.'}`,
          '- Plans: `EXPLAIN (ANALYZE, COSTS OFF)` of the statement matchingPage runs, after the timed requests (warm cache): ' +
            'one reading of the matches (the CTE matched) both counts up to the cap and gives the first RANK_WINDOW ranked; the name matches are read from file_texts_name_tsv beside it.',
          ...planNote('common', 'the text part is a scan of file_texts that stops at the cap; the names part reads file_texts_name_tsv'),
          ...planNote('rare', 'a handful of matches'),
          ...planNote('phrase', 'the index finds the texts with both words, each is rechecked for the phrase'),
          ...planNote('prefix', 'every word of the index that starts with "agre"'),
          ...planNote('name', 'the word is in 1 in 20 names and in no text: both parts find the same files'),
          '',
          '- The machine is shared with other work (see the load average): compare cases with each other rather than reading much into absolute milliseconds.',
        ],
      };
    } finally {
      await handle?.close().catch(() => {});
      await sr?.close().catch(() => {});
      if (ownDb) {
        await admin
          .query(`drop database if exists ${ownDb} with (force)`)
          .catch((err: Error) => log(`could not drop ${ownDb}: ${err.message}`));
      }
      await admin.end();
    }
  },
};
