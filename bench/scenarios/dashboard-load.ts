// Dashboard first load on PostgreSQL: every widget call of an administrator's dashboard over a large
// organization (default 100,000 matters, 300,000 files, 1,000,000 audit entries), and a plain user's activity.
import { DEFAULT_PERMISSIONS } from '@strongroom/contracts';
import { api } from '../lib/api-client.js';
import { envInt, fmt, fmtInt, median, percentile } from '../lib/stats.js';
import { callTable, slowest, strongroomOnPostgres, timeCalls } from '../lib/throwaway-postgres.js';
import type { Scenario } from '../lib/types.js';
import { createSession, SESSION_COOKIE } from '../../server/src/features/sessions/index.js';
import { insertUser } from '../../server/src/features/users/index.js';

const FILES_PER_MATTER = 3;
const TARGET_P95_MS = 100;

/**
 * The organization's rows in a few statements: `matters` matters (1 in 20 vaulted with retention ending 1 to
 * 1,000 days ahead, 1 in 50 held), three files each, the vault's objects of the vaulted ones, `audit` audit
 * entries on a chain of their own (actors spread over the members, 1 in 10 of the organization-wide kinds),
 * 200 invitations (half open).
 */
function seedSql(matters: number, audit: number): string[] {
  return [
    `insert into matters (organization_id, matter_name, matter_number, client_name, responsible_lawyer, status, is_vaulted, legal_hold,
                          vaulted_at, retention_expires_at, created_by, updated_by, created_at, updated_at)
     select $1::uuid, 'Matter ' || i, 'MAT-' || lpad(i::text, 7, '0'), 'Client ' || i % 400, 'Jane Counsel',
            case when i % 20 = 0 then 'Vaulted' else 'Open' end, i % 20 = 0, i % 50 = 0,
            case when i % 20 = 0 then now() - interval '1 day' end,
            case when i % 20 = 0 then now() + (1 + i % 1000) * interval '1 day' end,
            $2::int, $2::int, now() - i * interval '1 minute', now()
       from generate_series(1, ${matters}) i`,
    `insert into nodes (organization_id, matter_id, name, node_type, file_size, sha256_hash, storage_path, created_by)
     select m.organization_id, m.id, 'file-' || k || '.pdf', 'file', 1000 + k * 100, md5(m.id::text || k) || md5(k || m.id::text),
            'bench/' || m.id || '/' || k, $2::int
       from matters m, generate_series(1, ${FILES_PER_MATTER}) k where m.organization_id = $1::uuid`,
    `insert into vault_objects (organization_id, matter_id, node_id, path, object_key, sha256, size, retain_until, legal_hold)
     select n.organization_id, n.matter_id, n.id, '/' || n.name, 'vault/' || n.id, n.sha256_hash, n.file_size, m.retention_expires_at, true
       from nodes n join matters m on m.id = n.matter_id where m.organization_id = $1::uuid and m.is_vaulted`,
    `insert into audit_logs (organization_id, chain_key, seq, actor_id, actor_name, action, target_table, details, created_at, prev_hash, hash)
     select $1::uuid, 'bench-dashboard', i, coalesce(($3::int[])[1 + i % array_length($3::int[], 1)], $2::int), 'Member ' || i % 50,
            case when i % 10 = 0 then (array['CREATE_MATTER','INVITE_USER','UPDATE_ORG_INFO'])[1 + i % 3]
                 else (array['RENAME_NODE','UPLOAD_FILE','LOGIN_SUCCESS','MOVE_NODE','UPDATE_MATTER'])[1 + i % 5] end,
            'matters', '{}'::jsonb, now() - i * interval '1 second', md5(i::text), md5((i + 1)::text)
       from generate_series(1, ${audit}) i`,
    `insert into invitations (organization_id, email, role, token_hash, invited_by, expires_at, revoked_at, created_at)
     select $1::uuid, 'invitee' || i || '@bench.test', 'user', md5('inv' || i), $2::int, now() + interval '7 days',
            case when i % 2 = 0 then now() end, now()
       from generate_series(1, 200) i`,
  ];
}

type Call = { key: string; path: string };
const CALLS: Call[] = [
  { key: 'recent matters', path: '/_api/matters/list?page=1&pageSize=5&sortBy=created_at&sortDirection=desc' },
  { key: 'activity', path: '/_api/dashboard/activity' },
  { key: 'vault status', path: '/_api/dashboard/vault-status' },
  { key: 'users', path: '/_api/dashboard/users' },
  { key: 'storage', path: '/_api/dashboard/storage' },
];

const ms = (n: number) => fmt(n, 1);

export const scenario: Scenario = {
  name: 'dashboard-load',
  title: 'Dashboard first load on 100,000 matters',
  order: 46,
  description:
    "The dashboard's widget calls (recent matters, activity, vault status, users, storage) on the real app with PostgreSQL holding " +
    'BENCH_DASHBOARD_MATTERS matters (default 100,000), three files each, the vaulted ones in the vault, and BENCH_DASHBOARD_AUDIT audit ' +
    "entries (default 1,000,000); each call alone and all five at once as the page sends them, plus a plain user's filtered activity. " +
    `Target: p95 under ${TARGET_P95_MS} ms for the slowest call.`,
  async run({ log }) {
    const matters = envInt('BENCH_DASHBOARD_MATTERS', 100_000, 1_000, 1_000_000);
    const audit = envInt('BENCH_DASHBOARD_AUDIT', 1_000_000, 10_000, 10_000_000);
    const requests = envInt('BENCH_REQUESTS', 100, 10, 1000);
    const run = await strongroomOnPostgres('strongroom_bench_dash', log);
    try {
      const { sr, pool, pgVersion } = run;
      const db = sr.built.ctx.db;
      // 49 more members; one of them is the plain user (no canViewVaulted) whose activity is filtered.
      const members: number[] = [sr.admin.userId];
      for (let i = 0; i < 49; i++) {
        const u = await insertUser(db, {
          organizationId: sr.admin.organizationId,
          email: `member${i}@bench.test`,
          fullName: `Member ${i}`,
          passwordHash: 'x',
          role: 'user',
          permissions: { ...DEFAULT_PERMISSIONS.user, canViewVaulted: false },
        });
        await db.updateTable('users').set({ mfaEnabled: true, mfaPrimaryMethod: 'email' }).where('id', '=', u.id).execute();
        members.push(u.id);
      }
      const ctx = sr.built.ctx;
      const { token } = await db.transaction().execute(async (trx) => {
        const user = await trx.selectFrom('users').selectAll().where('id', '=', members[1]!).executeTakeFirstOrThrow();
        return createSession(ctx, trx, user, { ip: '127.0.0.1', userAgent: 'strongroom-bench' });
      });
      const plain = { url: sr.url, sessionCookie: `${SESSION_COOKIE}=${token}` };

      const seedStart = performance.now();
      const params = [sr.admin.organizationId, sr.admin.userId, members];
      // Each statement gets the parameters it names ($1 to $3).
      for (const stmt of seedSql(matters, audit))
        await pool.query(stmt, params.slice(0, stmt.includes('$3') ? 3 : stmt.includes('$2') ? 2 : 1));
      for (const table of ['matters', 'nodes', 'vault_objects', 'audit_logs', 'invitations', 'users'])
        await pool.query(`vacuum analyze ${table}`);
      const seedSeconds = (performance.now() - seedStart) / 1000;
      const counts = (
        await pool.query(
          `select (select count(*) from matters)::int as matters, (select count(*) from nodes)::int as files,
                  (select count(*) from vault_objects)::int as objects, (select count(*) from audit_logs)::int as audit`,
        )
      ).rows[0] as { matters: number; files: number; objects: number; audit: number };
      log(`seeded in ${fmt(seedSeconds)} s: ${JSON.stringify(counts)}`);

      const cases: Array<{ label: string; run: () => Promise<unknown> }> = [
        ...CALLS.map((c) => ({ label: c.key, run: () => api(sr, 'GET', c.path) })),
        { label: "activity (plain user's filter)", run: () => api(plain, 'GET', '/_api/dashboard/activity') },
        { label: 'first load: all five at once', run: () => Promise.all(CALLS.map((c) => api(sr, 'GET', c.path))) },
      ];
      const results = await timeCalls(cases, requests, log);
      const single = results.slice(0, CALLS.length + 1);
      const worst = slowest(single);
      const load = results.at(-1)!;
      const met = percentile(worst.times, 95) < TARGET_P95_MS;
      return {
        variant: 'postgres',
        command:
          'npm run bench -- dashboard-load   # BENCH_DASHBOARD_MATTERS, BENCH_DASHBOARD_AUDIT; BENCH_DATABASE_URL=postgres://… for a given throw-away database',
        headline: `first load (five calls at once) ${ms(median(load.times))} ms median, ${ms(percentile(load.times, 95))} ms p95; slowest call p95 ${ms(percentile(worst.times, 95))} ms ("${worst.label}"): target < ${TARGET_P95_MS} ms ${met ? 'met' : 'NOT met'}`,
        summary: [
          `- One organization with ${fmtInt(counts.matters)} matters (1 in 20 vaulted, 1 in 50 held), ${fmtInt(counts.files)} files, ${fmtInt(counts.objects)} vault objects, ${fmtInt(counts.audit)} audit entries, 50 members and 200 invitations; PostgreSQL ${pgVersion} on the same machine; seeded and analyzed in ${fmt(seedSeconds)} s.`,
          `- **Slowest single call p95: ${ms(percentile(worst.times, 95))} ms (${worst.label}); target < ${TARGET_P95_MS} ms ${met ? 'met' : 'not met'}. First load, all five calls at once: median ${ms(median(load.times))} ms, p95 ${ms(percentile(load.times, 95))} ms.**`,
        ],
        tables: [callTable(results, requests)],
        notes: [
          "- The administrator's session for every call but the plain user's activity (their own actions plus the organization-wide kinds).",
          "- Storage reads the organization's rows of `storage_usage` (signed changes of stored bytes written by database triggers in the transaction of each change, folded into one row past 64; migration 20261201_0019_storage_usage). Summed at read time from indexes instead (the previous run, 2026-11-27T00:35Z, same data): 78.6 ms median, 155.0 ms p95.",
          `- Server: the app from \`buildApp\` (pool of 10), LOG_LEVEL=silent. ${run.ownDb ? 'The database was made for the run and dropped after it.' : 'Database: BENCH_DATABASE_URL as given.'}`,
          '- The machine is shared with other work (see the load average): compare calls with each other rather than reading much into absolute milliseconds.',
        ],
      };
    } finally {
      await run.close();
    }
  },
};
