// Audit log on PostgreSQL: BENCH_AUDIT_ROWS entries (default 1,000,000; 10,000,000 with the variable) in one
// organization, read through GET /_api/audit-logs/list and exported through GET /_api/audit-logs/export; and the
// integrity check of a chain of valid entries against a plain loop hashing the same entries in the same run.
import pg from 'pg';
import { LIMITS } from '@strongroom/contracts';
import { api, passMfaWall } from '../lib/api-client.js';
import { envInt, fmt, fmtInt, median, percentile } from '../lib/stats.js';
import { startStrongroom, type Strongroom } from '../lib/strongroom.js';
import type { Scenario } from '../lib/types.js';
import { createOrganizationFromCli } from '../../server/src/features/setup/setup.service.js';
import { verifyOrganizationChain } from '../../server/src/features/audit/index.js';
import { entryHash, GENESIS_HASH, type ChainedFields } from '../../server/src/shared/audit.js';
import { hashToken } from '../../server/src/shared/tokens.js';
import { backfill, compareSearchStatements, seedAsBeforeTheColumn } from '../lib/audit-search.js';
import { ACTIONS, NAMES, SUBJECTS, TABLES } from '../lib/audit-seed-data.js';

const DEFAULT_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';
const ms = (n: number) => fmt(n, 1);
const q = (s: string) => `'${s.replace(/'/g, "''")}'`;
const arr = (xs: string[]) => `array[${xs.map(q).join(',')}]`;

/**
 * $4 entries in one statement, at seq base+1.. of the organization's chain, spread evenly over the two years
 * before now. Their hashes are placeholders: the list and the export never read them (the integrity check is
 * measured on a separate organization with valid hashes). 1 row in 5,000 names "Smithfield" (the search).
 */
function seedSql(): string {
  return `
    insert into audit_logs (organization_id, chain_key, seq, actor_id, actor_name, actor_email, action, target_table, target_id,
                            details, ip_address, created_at, prev_hash, hash)
    select $1::uuid, $1::text, $3::bigint + i,
           case when i % 3 = 0 then $2::int end,
           case when i % 7 <> 6 then (${arr(NAMES)})[1 + i % 8] end,
           case when i % 7 <> 6 then lower(replace((${arr(NAMES)})[1 + i % 8], ' ', '.')) || '@firm.test' end,
           (${arr(ACTIONS)})[1 + (i * 7) % 20],
           (${arr(TABLES)})[1 + i % 5],
           md5(i::text),
           jsonb_build_object('matterName', case when i % 5000 = 17 then 'Smithfield ' else '' end || (${arr(SUBJECTS)})[1 + i % 6] || ' ' || i,
                              'size', i % 100000),
           '10.' || (i % 250) || '.' || (i / 250 % 250) || '.' || (i % 7),
           now() - ($4::bigint - i) * (interval '730 days' / $4::bigint),
           'x', 'x'
      from generate_series(1, $4::bigint) as i`;
}

export const scenario: Scenario = {
  name: 'audit-list',
  title: 'Audit log list, CSV export and integrity check',
  order: 60,
  description:
    '`GET /_api/audit-logs/list` on the real app with PostgreSQL holding BENCH_AUDIT_ROWS audit entries (default 1,000,000; set 10000000 for ten million) in the signed-in ' +
    'organization: first page, a filtered page, a search and the 50th page; the streamed CSV export of 100,000 rows; the integrity check of a valid chain against a plain hashing loop.',
  async run({ log }) {
    const count = envInt('BENCH_AUDIT_ROWS', 1_000_000, 10_000, 10_000_000);
    const chainCount = envInt('BENCH_AUDIT_CHAIN_ROWS', 200_000, 1_000, 2_000_000);
    const exportRows = Math.min(100_000, count);
    const requests = envInt('BENCH_REQUESTS', 30, 5, 500);
    const given = process.env.BENCH_DATABASE_URL;
    const serverUrl = new URL(given || DEFAULT_SERVER);
    const ownDb = given ? undefined : `strongroom_bench_audit_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const dbUrl = new URL(serverUrl);
    if (ownDb) dbUrl.pathname = `/${ownDb}`;
    const admin = new pg.Client({ connectionString: serverUrl.toString() });
    await admin.connect();
    let sr: Strongroom | undefined;
    const pool = new pg.Pool({ connectionString: dbUrl.toString(), max: 2 });
    try {
      if (ownDb) await admin.query(`create database ${ownDb}`);
      const pgVersion = (await admin.query('show server_version')).rows[0].server_version as string;
      const saved = process.env.BENCH_DATABASE_URL;
      process.env.BENCH_DATABASE_URL = dbUrl.toString();
      try {
        sr = await startStrongroom();
      } finally {
        if (saved === undefined) delete process.env.BENCH_DATABASE_URL;
        else process.env.BENCH_DATABASE_URL = saved;
      }
      await passMfaWall(sr);
      const org = sr.admin.organizationId;
      log(`database ${ownDb ?? '(BENCH_DATABASE_URL)'} on PostgreSQL ${pgVersion}; seeding ${fmtInt(count)} entries...`);

      // Seed with the list's indexes dropped and built again afterwards (faster than keeping them up row by row).
      const seedStart = performance.now();
      // The entries are seeded as a live installation has them before migration 0029: without search_text.
      await seedAsBeforeTheColumn(pool);
      const indexes = (
        await pool.query(
          `select indexname, indexdef from pg_indexes where tablename = 'audit_logs' and indexname like 'audit_logs_%' and indexname not like '%_key' and indexname <> 'audit_logs_pkey'`,
        )
      ).rows as Array<{ indexname: string; indexdef: string }>;
      for (const i of indexes) await pool.query(`drop index ${i.indexname}`);
      const base = Number((await pool.query(`select last_seq from audit_chain_heads where chain_key = $1`, [org])).rows[0]?.last_seq ?? 0);
      await pool.query(seedSql(), [org, sr.admin.userId, base, count]);
      await pool.query(`update audit_chain_heads set last_seq = $2, last_hash = 'x' where chain_key = $1`, [org, base + count]);
      for (const i of indexes) await pool.query(i.indexdef);
      await pool.query('analyze audit_logs');
      const seedSeconds = (performance.now() - seedStart) / 1000;
      const size = (await pool.query(`select pg_size_pretty(pg_total_relation_size('audit_logs')) as total`)).rows[0].total as string;
      log(`seeded and indexed in ${fmt(seedSeconds)} s (audit_logs with indexes ${size})`);
      const filled = await backfill(pool, sr.built.ctx, log);
      const sizeAfter = (await pool.query(`select pg_size_pretty(pg_total_relation_size('audit_logs')) as total`)).rows[0].total as string;
      log(
        `backfilled ${fmtInt(filled.filled)} in ${fmt(filled.seconds)} s, ${fmtInt(filled.batches)} batches; vacuum ${fmt(filled.vacuumSeconds)} s`,
      );

      const day = 86_400_000;
      const end = new Date().toISOString();
      const start30 = new Date(Date.now() - 30 * day).toISOString();
      const cases = [
        { key: 'first', label: 'first page, newest first, no filter', query: {} as Record<string, string> },
        { key: 'page', label: 'first page as the page asks (last 30 days)', query: { startDate: start30, endDate: end } },
        {
          key: 'filtered',
          label: 'filtered: 2 actions, last 30 days',
          query: { 'actions[]': 'UPLOAD_FILE', startDate: start30, endDate: end },
          extra: '&actions[]=DOWNLOAD_FILE',
        },
        { key: 'search', label: 'search "smithfield" (1 in 5,000)', query: { search: 'smithfield' } },
        {
          key: 'searchBroad',
          label: 'search "lease" (1 in 6), last 30 days',
          query: { search: 'lease', startDate: start30, endDate: end },
        },
        { key: 'page50', label: 'page 50 (offset 2,450), no filter', query: { page: '50' } },
        { key: 'byAction', label: 'sorted by action, page 50', query: { sortBy: 'action', sortDirection: 'asc', page: '50' } },
      ];
      const statements = await compareSearchStatements(pool, org, [
        { label: 'search "smithfield"', search: 'smithfield' },
        { label: 'search "lease", last 30 days', search: 'lease', start: start30, end },
      ]);
      const results: Array<{ label: string; total: number; capped: boolean; times: number[] }> = [];
      for (const c of cases) {
        const path = `/_api/audit-logs/list?${new URLSearchParams({ limit: '50', ...c.query }).toString()}${c.extra ?? ''}`;
        let total = 0;
        let capped = false;
        for (let i = 0; i < 3; i++) {
          const r = await api<{ totalCount: number; pagination: { totalCountCapped: boolean } }>(sr, 'GET', path);
          total = r.totalCount;
          capped = r.pagination.totalCountCapped;
        }
        const times: number[] = [];
        for (let i = 0; i < requests; i++) {
          const t = performance.now();
          await api(sr, 'GET', path);
          times.push(performance.now() - t);
        }
        results.push({ label: c.label, total, capped, times });
        log(`${c.key}: ${fmtInt(total)}${capped ? '+' : ''} rows; median ${ms(median(times))} ms, p95 ${ms(percentile(times, 95))} ms`);
      }

      // Export: a system MFA token for the administrator's session, as verifySystemMfa issues one.
      const session = (await pool.query(`select id from sessions where user_id = $1 order by created_at desc limit 1`, [sr.admin.userId]))
        .rows[0].id;
      const token = `bench-${Math.random().toString(36).slice(2)}${Date.now()}`;
      await pool.query(
        `insert into system_mfa_tokens (token_hash, user_id, session_id, operation, expires_at) values ($1, $2, $3, 'EXPORT_AUDIT_LOGS', now() + interval '30 minutes')`,
        [hashToken(token), sr.admin.userId, session],
      );
      /** One export of `rows` rows, read as a stream; the heap's growth at its peak over the heap before it. */
      const exportOnce = async (rows: number, sampleLive: boolean) => {
        global.gc?.();
        const heapBefore = process.memoryUsage().heapUsed;
        let heapPeak = heapBefore;
        // With --expose-gc the sample is the live heap (garbage collected first), else the heap as it stands.
        const sampler = setInterval(() => {
          if (sampleLive) global.gc?.();
          heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
        }, 100);
        const t = performance.now();
        const res = await fetch(`${sr!.url}/_api/audit-logs/export?limit=${rows}`, {
          headers: { cookie: sr!.sessionCookie, 'x-api-version': 'v1.0.0', 'x-mfa-token': token },
        });
        if (!res.ok) throw new Error(`export answered ${res.status}: ${await res.text()}`);
        let bytes = 0;
        let lines = 0;
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          bytes += chunk.length;
          for (const b of chunk) if (b === 10) lines++;
        }
        const seconds = (performance.now() - t) / 1000;
        clearInterval(sampler);
        return { rows: lines - 1, bytes, seconds, heapMiB: (heapPeak - heapBefore) / 1048576 };
      };
      const small = await exportOnce(exportRows / 10, true);
      const big = await exportOnce(exportRows, true);
      // The rate from a run without the memory sampler's collections.
      const timed = await exportOnce(exportRows, false);
      const exported = timed.rows;
      const exportSeconds = timed.seconds;
      const bytes = timed.bytes;
      log(
        `export: ${fmtInt(exported)} rows, ${fmt(bytes / 1048576)} MiB in ${fmt(exportSeconds, 2)} s (${fmtInt(exported / exportSeconds)} rows/s); heap +${fmt(big.heapMiB)} MiB at peak (${fmtInt(small.rows)} rows: +${fmt(small.heapMiB)} MiB)`,
      );

      // Integrity: a second organization with a valid chain of chainCount entries.
      const chainOrg = await createOrganizationFromCli(sr.built.ctx.db, {
        name: 'Chain LLP',
        adminName: 'Chain Admin',
        adminEmail: `chain.${Date.now()}@firm.test`,
        adminPassword: 'correct horse battery staple',
      });
      const corg = chainOrg.organizationId;
      const existing = Number((await pool.query(`select last_seq from audit_chain_heads where chain_key = $1`, [corg])).rows[0].last_seq);
      let prev = (await pool.query(`select last_hash from audit_chain_heads where chain_key = $1`, [corg])).rows[0].last_hash as string;
      const t0 = Date.now() - chainCount * 1000;
      for (let from = existing + 1; from <= existing + chainCount; from += 2000) {
        const values: unknown[] = [];
        const tuples: string[] = [];
        for (let seq = from; seq < Math.min(from + 2000, existing + chainCount + 1); seq++) {
          const f: ChainedFields = {
            chainKey: corg,
            seq: String(seq),
            organizationId: corg,
            actorId: null,
            actorName: NAMES[seq % 8]!,
            actorEmail: 'someone@firm.test',
            action: ACTIONS[seq % 20]!,
            targetTable: 'nodes',
            targetId: String(seq),
            details: { matterName: `${SUBJECTS[seq % 6]} ${seq}`, size: seq },
            ipAddress: '10.0.0.1',
            createdAt: new Date(t0 + seq * 1000),
          };
          const hash = entryHash(prev, f);
          const n = values.length;
          tuples.push(
            `($${n + 1}::uuid, $${n + 2}, $${n + 3}::bigint, $${n + 4}, $${n + 5}, $${n + 6}, $${n + 7}, $${n + 8}, $${n + 9}::jsonb, $${n + 10}, $${n + 11}::timestamptz, $${n + 12}, $${n + 13})`,
          );
          values.push(
            corg,
            corg,
            seq,
            f.actorName,
            f.actorEmail,
            f.action,
            f.targetTable,
            f.targetId,
            JSON.stringify(f.details),
            f.ipAddress,
            f.createdAt,
            prev,
            hash,
          );
          prev = hash;
        }
        await pool.query(
          `insert into audit_logs (organization_id, chain_key, seq, actor_name, actor_email, action, target_table, target_id, details, ip_address, created_at, prev_hash, hash) values ${tuples.join(',')}`,
          values,
        );
      }
      await pool.query(`update audit_chain_heads set last_seq = $2, last_hash = $3 where chain_key = $1`, [
        corg,
        existing + chainCount,
        prev,
      ]);
      // Hint bits and the visibility map set once, so that neither measured pass pays for the first read of new rows.
      await pool.query('vacuum analyze audit_logs');

      const runCheck = async () => {
        const t = performance.now();
        const v = await verifyOrganizationChain(sr!.built.ctx, corg);
        if (!v.isValid) throw new Error(`the generated chain did not verify: ${JSON.stringify(v.invalidEntries.slice(0, 3))}`);
        return { verdict: v, seconds: (performance.now() - t) / 1000 };
      };
      // The plain loop: the same rows read in the same batches with plain SQL, then hashed the same way.
      const runPlain = async () => {
        const t = performance.now();
        let plainPrev = GENESIS_HASH;
        let rowsHashed = 0;
        let read = 0;
        for (let after = 0; ;) {
          const r0 = performance.now();
          const rows = (
            await pool.query(`select * from audit_logs where chain_key = $1 and seq > $2 order by seq limit 5000`, [corg, after])
          ).rows;
          read += (performance.now() - r0) / 1000;
          if (rows.length === 0) break;
          for (const r of rows) {
            plainPrev = entryHash(r.prev_hash, {
              chainKey: r.chain_key,
              seq: String(r.seq),
              organizationId: r.organization_id,
              actorId: r.actor_id,
              actorName: r.actor_name,
              actorEmail: r.actor_email,
              action: r.action,
              targetTable: r.target_table,
              targetId: r.target_id,
              details: r.details,
              ipAddress: r.ip_address,
              createdAt: new Date(r.created_at),
            });
            rowsHashed++;
          }
          after = Number(rows[rows.length - 1].seq);
        }
        if (!plainPrev) throw new Error('no hash');
        return { rows: rowsHashed, seconds: (performance.now() - t) / 1000, readSeconds: read };
      };
      // Two passes of each, interleaved; the faster of each counts (the machine is shared).
      const checks = [await runCheck()];
      const plains = [await runPlain()];
      checks.push(await runCheck());
      plains.push(await runPlain());
      const best = checks.reduce((a, b) => (b.seconds < a.seconds ? b : a));
      const plainBest = plains.reduce((a, b) => (b.seconds < a.seconds ? b : a));
      const verdict = best.verdict;
      const checkSeconds = best.seconds;
      const plainRows = plainBest.rows;
      const plainSeconds = plainBest.seconds;
      const hashSeconds = plainBest.seconds - plainBest.readSeconds;
      const checkRate = verdict.checkedEntries / checkSeconds;
      const plainRate = plainRows / plainSeconds;
      const hashRate = plainRows / hashSeconds;
      log(
        `integrity: ${fmtInt(verdict.checkedEntries)} entries in ${fmt(checkSeconds, 2)} s (${fmtInt(checkRate)}/s); plain read+hash loop ${fmtInt(plainRate)}/s (ratio ${fmt(checkRate / plainRate, 2)}); hashing alone ${fmtInt(hashRate)}/s (ratio ${fmt(checkRate / hashRate, 2)}); passes ${checks.map((c) => fmt(c.seconds, 2)).join(', ')} s and ${plains.map((p) => fmt(p.seconds, 2)).join(', ')} s`,
      );

      const worst = results.reduce((a, b) => (percentile(b.times, 95) > percentile(a.times, 95) ? b : a));
      return {
        variant: 'postgres',
        command: 'npm run bench -- audit-list   # BENCH_AUDIT_ROWS=10000000 for ten million entries',
        headline: `${fmtInt(count)} entries: slowest list case "${worst.label}" p95 ${ms(percentile(worst.times, 95))} ms; export ${fmtInt(exported / exportSeconds)} rows/s; integrity check ${fmtInt(checkRate)} entries/s, ratio ${fmt(checkRate / plainRate, 2)} to a plain read+hash loop`,
        summary: [
          `- ${fmtInt(count)} audit entries in the signed-in organization, PostgreSQL ${pgVersion} on the same machine; audit_logs with its indexes ${size}. Seeded with one \`INSERT … SELECT generate_series\` and indexed in ${fmt(seedSeconds)} s.`,
          `- Search text backfill (as on an installation migrated with these entries): ${fmtInt(filled.filled)} entries filled in ${fmtInt(filled.batches)} batches of 5,000 ids and the trigram index built concurrently, ${fmt(filled.seconds)} s (**${fmtInt(filled.filled / filled.seconds)} entries/s**) with every other index in place; then VACUUM ANALYZE ${fmt(filled.vacuumSeconds)} s; audit_logs with its indexes ${sizeAfter} after.`,
          `- List: ${requests} sequential requests per case after 3 warm-ups, 50 rows a page, over HTTP with the administrator's session. Slowest p95: ${worst.label}, ${ms(percentile(worst.times, 95))} ms (target under 30 ms).`,
          `- Export: ${fmtInt(exported)} rows (${fmt(bytes / 1048576)} MiB of CSV) streamed in ${fmt(exportSeconds, 2)} s, **${fmtInt(exported / exportSeconds)} rows/s**; the JavaScript heap grew by ${fmt(big.heapMiB)} MiB at most while it streamed, against ${fmt(small.heapMiB)} MiB for an export of ${fmtInt(small.rows)} rows (server and client in one process): ${big.heapMiB > 2 * small.heapMiB + 32 ? 'the larger export left more on the heap (garbage not yet collected counts too; this run does not tell the two apart)' : "memory does not grow with the export's size"}.`,
          `- Integrity check: ${fmtInt(verdict.checkedEntries)} valid chained entries verified in ${fmt(checkSeconds, 2)} s, **${fmtInt(checkRate)} entries/s**; a plain loop reading the same rows in the same batches with plain SQL and hashing them: ${fmtInt(plainRate)}/s (the faster of two interleaved passes each, after a VACUUM), **ratio ${fmt(checkRate / plainRate, 2)}** (target at least 0.8); hashing alone (rows already in memory): ${fmtInt(hashRate)}/s.`,
        ],
        tables: [
          {
            caption: `Milliseconds per request over HTTP (${requests} each)`,
            columns: ['case', 'totalCount', 'median', 'p95'],
            rows: results.map((r) => [
              r.label,
              `${fmtInt(r.total)}${r.capped ? ' (capped)' : ''}`,
              ms(median(r.times)),
              ms(percentile(r.times, 95)),
            ]),
          },
          statements,
        ],
        notes: [
          `- The list's entries have placeholder hashes (computing ${fmtInt(count)} chained hashes would take long and the list never reads them); the integrity check runs on a separate organization of ${fmtInt(chainCount)} entries with valid hashes.`,
          ...(count < 10_000_000
            ? [
                `- Run with ${fmtInt(count)} entries, not ten million: seeding and indexing ten million takes about ten times the ${fmt(seedSeconds)} s above on this shared machine. \`BENCH_AUDIT_ROWS=10000000 npm run bench -- audit-list\` runs the same cases on ten million.`,
              ]
            : []),
          '- Entries: 20 actions, 5 target tables, 8 actor names (1 in 7 System), details `{matterName, size}` with "Smithfield" in 1 of 5,000, spread evenly over the two years before the run.',
          `- totalCount is exact up to ${fmtInt(LIMITS.listCountBound)} matching entries (pagination.totalCountCapped beyond); without a filter an administrator's count is the chain length, read from the chain head.`,
          `- ${ownDb ? 'The database was made for the run and dropped after it.' : 'Database: BENCH_DATABASE_URL as given.'} The machine is shared with other work: compare cases with each other rather than reading much into absolute milliseconds.`,
        ],
      };
    } finally {
      await pool.end().catch(() => {});
      await sr?.close().catch(() => {});
      if (ownDb)
        await admin
          .query(`drop database if exists ${ownDb} with (force)`)
          .catch((err: Error) => log(`could not drop ${ownDb}: ${err.message}`));
      await admin.end();
    }
  },
};
