// Matters list on PostgreSQL: 100,000 matters in one organization (and 20,000 in another), read through
// GET /_api/matters/list and, for reference, the same two queries (page and count) without HTTP.
import pg from 'pg';
import { LIMITS, type MatterSortField } from '@strongroom/contracts';
import { api, passMfaWall } from '../lib/api-client.js';
import { envInt, fmt, fmtInt, median, percentile } from '../lib/stats.js';
import { startStrongroom, type Strongroom } from '../lib/strongroom.js';
import type { Scenario } from '../lib/types.js';
import { openPostgres, type DatabaseHandle } from '../../server/src/platform/db/database.js';
import { createOrganizationFromCli } from '../../server/src/features/setup/setup.service.js';
import { countMatters, listMatters, type MatterFilters } from '../../server/src/features/matters/matters.repository.js';

const DEFAULT_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';

type Case = {
  key: string;
  label: string;
  query: Record<string, string>;
  filters: Omit<MatterFilters, 'organizationId' | 'includeVaulted'>;
  sortBy: MatterSortField;
  direction: 'asc' | 'desc';
  page: number;
  explain?: boolean;
};

const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
const arr = (xs: string[]) => `array[${xs.map(q).join(',')}]`;

// Word pools for the generated rows. None contains "smith": the selective search finds only the marked rows.
const SUBJECTS = [
  'Share purchase agreement',
  'Commercial lease',
  'Employment dispute',
  'Supply agreement',
  'Trademark opposition',
  'Loan agreement',
  'Shareholder dispute',
  'Data protection audit',
  'Joint venture agreement',
  'Construction claim',
  'Licence agreement',
  'Merger review',
  'Insolvency proceedings',
  'Distribution agreement',
  'Patent infringement',
  'Lease renewal',
  'Agency agreement',
  'Regulatory investigation',
  'Property acquisition',
  'Settlement agreement',
  'Debt recovery',
  'Franchise agreement',
  'Pension scheme review',
  'Services agreement',
  'Planning appeal',
  'Asset sale',
  'Tax enquiry',
  'Partnership agreement',
  'Product liability claim',
  'Refinancing',
  'Unfair dismissal claim',
  'Competition complaint',
  'Copyright licensing',
  'Probate',
  'Arbitration',
  'Equipment lease',
  'Corporate restructuring',
  'Boundary dispute',
  'Public procurement challenge',
  'Warranty claim',
];
const QUALIFIERS = [
  'Phase I',
  'Phase II',
  'North site',
  'South site',
  'EMEA',
  'Americas',
  'APAC',
  'UK',
  'Germany',
  'France',
  'Netherlands',
  'Ireland',
  'Spain',
  'Italy',
  'Nordics',
  'Head office',
  'Subsidiary',
  'Group',
  '2019 contract',
  '2021 contract',
  'Tranche A',
  'Tranche B',
  'Portfolio',
  'Appeal',
  'Follow-on',
];
const SURNAMES = [
  'Anderson',
  'Baker',
  'Carter',
  'Dawson',
  'Ellis',
  'Fletcher',
  'Graham',
  'Harper',
  'Irving',
  'Jenkins',
  'Kendall',
  'Lambert',
  'Morgan',
  'Norris',
  'Osborne',
  'Palmer',
  'Quinn',
  'Reynolds',
  'Sutton',
  'Turner',
  'Underwood',
  'Vaughan',
  'Walsh',
  'Yates',
  'Zimmer',
  'Abbott',
  'Barnes',
  'Chambers',
  'Doyle',
  'Everett',
  'Foster',
  'Gibson',
  'Hughes',
  'Ingram',
  'Jordan',
  'Knight',
  'Lawson',
  'Mitchell',
  'Newton',
  'Owens',
  'Pearce',
  'Rowe',
  'Shaw',
  'Thornton',
  'Vincent',
  'Webb',
  'Wright',
  'Young',
  'Hartley',
  'Bishop',
];
const SUFFIXES = [
  'Holdings',
  'Ltd',
  'LLC',
  'Group',
  'Partners',
  'Inc.',
  'plc',
  'GmbH',
  'Capital',
  'Properties',
  'Logistics',
  'Foods',
  'Energy',
  'Pharma',
  'Retail',
  'Media',
  'Systems',
  'Estates',
  'Ventures',
  'Trust',
  'Industries',
  'Motors',
  'Hotels',
  'Finance',
  'Health',
  'Textiles',
  'Marine',
  'Aviation',
  'Steel',
  'Software',
  'Insurance',
  'Farms',
  'Construction',
  'Telecom',
  'Mining',
  'Chemicals',
  'Publishing',
  'Foundation',
  'Bank',
  'Airlines',
];
const FIRST = [
  'Alice',
  'Ben',
  'Clara',
  'David',
  'Emma',
  'Farid',
  'Grace',
  'Hugo',
  'Isla',
  'James',
  'Keiko',
  'Liam',
  'Maria',
  'Noah',
  'Olga',
  'Priya',
  'Ravi',
  'Sara',
  'Tom',
  'Uma',
];
const LAST = [
  'Adler',
  'Brooks',
  'Castillo',
  'Dubois',
  'Evans',
  'Fischer',
  'Garcia',
  'Hansen',
  'Ito',
  'Jensen',
  'Kowalski',
  'Lopez',
  'Moreau',
  'Nakamura',
  'Olsen',
];

/**
 * Inserts `count` matters in one statement. Row i: created 26 minutes apart going back from 2026-11-01 (about
 * 4.9 years for 100,000), a client from 50 x 40 = 2,000 names, a lawyer from 20 x 15 = 300, 1 in 50 vaulted, and
 * "Smithfield" in the name of 1 row in 5,000 (the selective search).
 */
function seedSql(count: number): string {
  return `
    insert into matters (organization_id, matter_name, matter_number, client_name, description, responsible_lawyer, status, is_vaulted,
                         vaulted_at, created_by, updated_by, created_at, updated_at)
    select $1::uuid,
           case when i % 5000 = 17 then 'Smithfield ' else '' end || s.subject || ' - ' || (${arr(QUALIFIERS)})[1 + (i / 40) % 25],
           'MAT-' || extract(year from t.ts at time zone 'UTC')::int || '-' || lpad(i::text, 6, '0'),
           c.client,
           'Advice to ' || c.client || ' on ' || lower(s.subject) || '. Opened by ' || l.lawyer || '; reference ' || i || '.',
           l.lawyer,
           case when i % 50 = 0 then 'Vaulted' else 'Open' end,
           i % 50 = 0,
           case when i % 50 = 0 then t.ts + interval '30 days' end,
           $2::int, $2::int, t.ts, t.ts
      from generate_series(1, ${count}) as i,
           lateral (select timestamptz '2026-11-01 00:00:00+00' - i * interval '26 minutes' as ts) t,
           lateral (select (${arr(SUBJECTS)})[1 + (i * 7) % 40] as subject) s,
           lateral (select ((i * 7919) % 2000) as k) ck,
           lateral (select (${arr(SURNAMES)})[1 + ck.k % 50] || ' ' || (${arr(SUFFIXES)})[1 + ck.k / 50] as client) c,
           lateral (select (${arr(FIRST)})[1 + ((i * 31) % 300) % 20] || ' ' || (${arr(LAST)})[1 + ((i * 31) % 300) / 20] as lawyer) l`;
}

/** A pg pool whose clients remember the last statement of each kind, to EXPLAIN exactly what the repository sends. */
async function capturingPostgres(url: string): Promise<{ handle: DatabaseHandle; seen: Array<{ text: string; values: unknown[] }> }> {
  const handle = await openPostgres(url, 2);
  const seen: Array<{ text: string; values: unknown[] }> = [];
  const pool = (handle as DatabaseHandle & { pool: pg.Pool }).pool;
  pool.on('connect', (client) => {
    const original = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const [text, values] = args;
      if (typeof text === 'string') seen.push({ text, values: Array.isArray(values) ? values : [] });
      else if (text && typeof text === 'object' && 'text' in text)
        seen.push({ text: String((text as { text: unknown }).text), values: ((text as { values?: unknown[] }).values ?? []) as unknown[] });
      if (seen.length > 50) seen.splice(0, seen.length - 50);
      return original(...args);
    };
  });
  return { handle, seen };
}

const ms = (n: number) => fmt(n, 1);

export const scenario: Scenario = {
  name: 'matters-list',
  title: 'Matters list on 100,000 matters',
  order: 40,
  description:
    '`GET /_api/matters/list` (page and `totalCount`) on the real app with PostgreSQL holding 100,000 matters in the signed-in ' +
    "organization and 20,000 in another, for the list's common requests; beside it the same two queries through the repository without HTTP.",
  async run({ log }) {
    const count = envInt('BENCH_MATTERS', 100_000, 1_000, 1_000_000);
    const otherCount = Math.round(count / 5);
    const requests = envInt('BENCH_REQUESTS', 50, 5, 500);
    const given = process.env.BENCH_DATABASE_URL;
    const serverUrl = new URL(given || DEFAULT_SERVER);
    // Without BENCH_DATABASE_URL: a database made here on the local server and dropped at the end.
    const ownDb = given ? undefined : `strongroom_bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const dbUrl = new URL(serverUrl);
    if (ownDb) dbUrl.pathname = `/${ownDb}`;
    const admin = new pg.Client({ connectionString: serverUrl.toString() });
    await admin.connect();
    let sr: Strongroom | undefined;
    let ref: Awaited<ReturnType<typeof capturingPostgres>> | undefined;
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
      ref = await capturingPostgres(dbUrl.toString());
      const db = ref.handle.db;
      const other = await createOrganizationFromCli(db, {
        name: 'Other Firm LLP',
        adminName: 'Other Admin',
        adminEmail: `other.${Date.now()}@firm.test`,
        adminPassword: 'correct horse battery staple',
      });

      const seedStart = performance.now();
      const pool = (ref.handle as DatabaseHandle & { pool: pg.Pool }).pool;
      await pool.query(seedSql(count), [sr.admin.organizationId, sr.admin.userId]);
      await pool.query(seedSql(otherCount), [other.organizationId, other.userId]);
      await pool.query('analyze matters');
      const seedSeconds = (performance.now() - seedStart) / 1000;
      const stats = (
        await pool.query(
          `select pg_size_pretty(pg_total_relation_size('matters')) as total, pg_size_pretty(pg_relation_size('matters')) as heap, count(*)::int as n from matters`,
        )
      ).rows[0];
      log(
        `inserted ${fmtInt(count)} + ${fmtInt(otherCount)} matters and analyzed in ${fmt(seedSeconds)} s (table with indexes ${stats.total})`,
      );

      const topClient = (
        await pool.query(
          `select client_name from matters where organization_id = $1 group by client_name order by count(*) desc, client_name limit 1`,
          [sr.admin.organizationId],
        )
      ).rows[0].client_name as string;
      const d = (s: string, end = false) =>
        end ? new Date(Date.parse(`${s}T00:00:00.000Z`) + 86_400_000) : new Date(`${s}T00:00:00.000Z`);
      const cases: Case[] = [
        {
          key: 'first',
          label: 'first page, default sort (created_at desc)',
          query: {},
          filters: {},
          sortBy: 'created_at',
          direction: 'desc',
          page: 1,
        },
        {
          key: 'deep',
          label: 'page 100 (offset 1,980)',
          query: { page: '100' },
          filters: {},
          sortBy: 'created_at',
          direction: 'desc',
          page: 100,
        },
        {
          key: 'name',
          label: 'sort by matter_name asc',
          query: { sortBy: 'matter_name', sortDirection: 'asc' },
          filters: {},
          sortBy: 'matter_name',
          direction: 'asc',
          page: 1,
        },
        {
          key: 'selective',
          label: 'search "smith" (selective)',
          query: { search: 'smith' },
          filters: { search: 'smith' },
          sortBy: 'created_at',
          direction: 'desc',
          page: 1,
          explain: true,
        },
        {
          key: 'broad',
          label: 'search "agreement" (broad)',
          query: { search: 'agreement' },
          filters: { search: 'agreement' },
          sortBy: 'created_at',
          direction: 'desc',
          page: 1,
          explain: true,
        },
        {
          key: 'client',
          label: `client filter ("${topClient}")`,
          query: { clientName: topClient },
          filters: { clientName: topClient },
          sortBy: 'created_at',
          direction: 'desc',
          page: 1,
        },
        {
          key: 'dates',
          label: 'date range 2025-01-01..2025-03-31',
          query: { dateFrom: '2025-01-01', dateTo: '2025-03-31' },
          filters: { createdFrom: d('2025-01-01'), createdBefore: d('2025-03-31', true) },
          sortBy: 'created_at',
          direction: 'desc',
          page: 1,
        },
        {
          key: 'combined',
          label: 'search "agreement" + 2024 + sort by name, page 3',
          query: {
            search: 'agreement',
            dateFrom: '2024-01-01',
            dateTo: '2024-12-31',
            sortBy: 'matter_name',
            sortDirection: 'asc',
            page: '3',
          },
          filters: { search: 'agreement', createdFrom: d('2024-01-01'), createdBefore: d('2024-12-31', true) },
          sortBy: 'matter_name',
          direction: 'asc',
          page: 3,
        },
      ];

      type Row = {
        c: Case;
        total: number;
        capped: boolean;
        http: number[];
        sql: number[];
        pageOnly: number[];
        countOnly: number[];
        plans: Array<{ what: string; sql: string; plan: string[] }>;
      };
      const results: Row[] = [];
      for (const c of cases) {
        const path = `/_api/matters/list?${new URLSearchParams(c.query).toString()}`;
        const filters: MatterFilters = { organizationId: sr.admin.organizationId, includeVaulted: true, ...c.filters };
        const sqlOnce = () =>
          Promise.all([
            listMatters(db, filters, { sortBy: c.sortBy, direction: c.direction }, { limit: 20, offset: (c.page - 1) * 20 }),
            countMatters(db, filters, LIMITS.listCountBound),
          ]);
        // Warm-up (5 each), then HTTP and SQL-only requests interleaved one by one, sequential.
        let total = 0;
        let capped = false;
        for (let i = 0; i < 5; i++) {
          ({ totalCount: total, totalCountCapped: capped } = await api<{ totalCount: number; totalCountCapped: boolean }>(sr, 'GET', path));
          await sqlOnce();
        }
        const http: number[] = [];
        const sqlTimes: number[] = [];
        const pageOnly: number[] = [];
        const countOnly: number[] = [];
        for (let i = 0; i < requests; i++) {
          let t = performance.now();
          const body = await api<{ matters: unknown[]; totalCount: number }>(sr, 'GET', path);
          http.push(performance.now() - t);
          if (body.totalCount !== total) throw new Error(`${c.key}: totalCount moved from ${total} to ${body.totalCount}`);
          t = performance.now();
          await sqlOnce();
          sqlTimes.push(performance.now() - t);
          t = performance.now();
          await listMatters(db, filters, { sortBy: c.sortBy, direction: c.direction }, { limit: 20, offset: (c.page - 1) * 20 });
          pageOnly.push(performance.now() - t);
          t = performance.now();
          await countMatters(db, filters, LIMITS.listCountBound);
          countOnly.push(performance.now() - t);
        }
        const plans: Row['plans'] = [];
        if (c.explain) {
          ref.seen.length = 0;
          await listMatters(db, filters, { sortBy: c.sortBy, direction: c.direction }, { limit: 20, offset: 0 });
          await countMatters(db, filters, LIMITS.listCountBound);
          for (const [what, stmt] of [
            ['page', ref.seen[0]],
            ['count', ref.seen[1]],
          ] as const) {
            const res = await pool.query(`explain (analyze, buffers, costs off) ${stmt.text}`, stmt.values);
            plans.push({ what, sql: stmt.text, plan: res.rows.map((r) => r['QUERY PLAN'] as string) });
          }
        }
        results.push({ c, total, capped, http, sql: sqlTimes, pageOnly, countOnly, plans });
        log(
          `${c.key}: ${fmtInt(total)} rows; HTTP median ${ms(median(http))} ms p95 ${ms(percentile(http, 95))} ms; SQL median ${ms(median(sqlTimes))} ms p95 ${ms(percentile(sqlTimes, 95))} ms`,
        );
      }

      const first = results[0];
      const planNotes: string[] = [];
      for (const r of results.filter((x) => x.plans.length)) {
        for (const p of r.plans) {
          const scans = [
            ...new Set(
              p.plan.flatMap((l) =>
                [...l.matchAll(/(?:Index Scan|Index Only Scan|Bitmap Index Scan|Seq Scan)(?: Backward)?(?: using| on) (\w+)/g)].map(
                  (m) => m[0],
                ),
              ),
            ),
          ];
          planNotes.push(
            '',
            `**${r.c.label}, ${p.what} query** (${scans.join('; ') || 'no index'}):`,
            '',
            '```sql',
            p.sql.replace(/\s+/g, ' ').trim(),
            '```',
            '',
            '```',
            ...p.plan,
            '```',
          );
        }
      }
      const worst = results.reduce((a, b) => (median(b.http) > median(a.http) ? b : a));
      return {
        variant: 'postgres',
        command: 'npm run bench -- matters-list   # BENCH_DATABASE_URL=postgres://… to use a given throw-away database',
        headline: `first page ${ms(median(first.http))} ms median over HTTP; slowest case "${worst.c.label}" ${ms(median(worst.http))} ms median, p95 ${ms(percentile(worst.http, 95))} ms (${fmtInt(count)} matters)`,
        summary: [
          `- totalCount is exact up to ${fmtInt(LIMITS.listCountBound)} matching matters; beyond that the count stops at the bound and the answer says \`totalCountCapped: true\` (shown as "${fmtInt(LIMITS.listCountBound)}+").`,
          `- ${fmtInt(count)} matters in the signed-in organization and ${fmtInt(otherCount)} in another (tenancy filtering is real), PostgreSQL ${pgVersion} on the same machine; table with its indexes ${stats.total} (heap ${stats.heap}). Inserted with one \`INSERT … SELECT generate_series\` per organization and analyzed in ${fmt(seedSeconds)} s.`,
          `- Every request answers page 20 rows and \`totalCount\` (the page and the count run in parallel on two pool connections). ${requests} sequential requests per case after 5 warm-ups; HTTP and SQL-only requests interleaved.`,
          `- **First page ${ms(median(first.http))} ms** median over HTTP; the slowest case is ${worst.c.label}: ${ms(median(worst.http))} ms median, ${ms(percentile(worst.http, 95))} ms p95. ` +
            `Of that case, the page query alone takes ${ms(median(worst.pageOnly))} ms and the \`count(*)\` for \`totalCount\` ${ms(median(worst.countOnly))} ms (medians, run one after the other)${median(worst.countOnly) > 2 * median(worst.pageOnly) ? ': the count decides' : ''}.`,
        ],
        tables: [
          {
            caption: `Milliseconds over ${requests} requests each (HTTP: \`fetch\` to the app on 127.0.0.1 with the session cookie, JSON parsed; SQL: the repository's page and count queries in parallel on a pool of 2, no HTTP, as the service runs them; then each alone)`,
            columns: [
              'case',
              'totalCount',
              'HTTP median',
              'HTTP p95',
              'SQL median',
              'SQL p95',
              'HTTP - SQL (medians)',
              'page query alone',
              'count query alone',
            ],
            rows: results.map((r) => [
              r.c.label,
              `${fmtInt(r.total)}${r.capped ? '+ (capped)' : ''}`,
              ms(median(r.http)),
              ms(percentile(r.http, 95)),
              ms(median(r.sql)),
              ms(percentile(r.sql, 95)),
              ms(median(r.http) - median(r.sql)),
              ms(median(r.pageOnly)),
              ms(median(r.countOnly)),
            ]),
          },
        ],
        notes: [
          '- Data: names from 40 subjects x 25 qualifiers ("Share purchase agreement - EMEA"), numbers `MAT-YYYY-NNNNNN`, 2,000 clients (50 surnames x 40 suffixes), 300 lawyers, a description naming client, subject and lawyer, created 26 minutes apart back from 2026-11-01 (about 4.9 years), 1 in 50 vaulted. "smith" matches only the names marked "Smithfield" (1 in 5,000); "agreement" is in 10 of the 40 subjects, so in name and description of a quarter of the rows.',
          `- Server: the app from \`buildApp\` (pool of 10), LOG_LEVEL=silent, the administrator (sees vaulted matters) with a session from \`createSession\` and MFA marked as set up. The client runs in the same process. ${ownDb ? 'The database was made for the run and dropped after it.' : 'Database: BENCH_DATABASE_URL as given.'}`,
          '- Plans below: `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)` of the exact statements the repository sent (captured from the pg client), right after the timed requests (warm cache).',
          ...planNotes,
          '',
          '- The machine is shared with other work (see the load average): compare cases with each other rather than reading much into absolute milliseconds.',
        ],
      };
    } finally {
      await ref?.handle.close().catch(() => {});
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
