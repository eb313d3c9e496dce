// Session-call throughput: GET /_api/auth/session on the real app (each call reads the session with its user,
// then the organization, from the database) against a bare Fastify hello-world in the same process.
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { liveSessionQuery } from '../../server/src/features/sessions/sessions.repository.js';
import type { Executor } from '../../server/src/platform/db/database.js';
import { hashToken } from '../../server/src/shared/tokens.js';
import { autocannonVersion, load, type LoadResult } from '../lib/load.js';
import { envInt, fmt, fmtInt, median } from '../lib/stats.js';
import { startStrongroom } from '../lib/strongroom.js';
import type { Scenario } from '../lib/types.js';

/** Whole milliseconds stay whole; a median of an even count may end in .5. */
const ms = (n: number) => (Number.isInteger(n) ? String(n) : fmt(n, 1));

type Target = { key: string; label: string; url: string; headers: Record<string, string> };

/**
 * A load run with the CPU time this process (the servers; autocannon runs in a child) spent during it, per completed
 * request, in microseconds. Other processes on a shared machine change requests per second a lot and CPU time per
 * request far less, so this is the steadier figure to compare runs by.
 */
async function loadWithCpu(opts: Parameters<typeof load>[0]): Promise<LoadResult & { cpuMicros: number }> {
  const before = process.cpuUsage();
  const res = await load(opts);
  const used = process.cpuUsage(before);
  return { ...res, cpuMicros: res.totalCompleted ? (used.user + used.system) / res.totalCompleted : NaN };
}

/**
 * The database baseline: a bare Fastify route that runs the session call's query (the same SQL, as Strongroom
 * compiles it) as a named prepared statement through node-postgres with a pool of 10, and answers the row as
 * JSON. What Strongroom spends beyond it is its own work per request.
 */
async function startDbBaseline(
  databaseUrl: string,
  appDb: Executor,
  sessionCookie: string,
): Promise<{ app: FastifyInstance; pool: pg.Pool; url: string }> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
  const tokenHash = hashToken(sessionCookie.slice(sessionCookie.indexOf('=') + 1));
  const compiled = liveSessionQuery(appDb, tokenHash, new Date()).compile();
  const app = Fastify({ logger: false });
  app.get('/', async (_req, reply) => {
    const now = new Date();
    const values = compiled.parameters.map((p) => (p instanceof Date ? now : p));
    const { rows } = await pool.query({ name: 'session-shaped', text: compiled.sql, values });
    if (!rows[0]) return reply.code(401).send({ error: 'no session' });
    return { user: rows[0] };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, pool, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/` };
}

export const scenario: Scenario = {
  name: 'session-throughput',
  title: 'Session-call throughput',
  order: 10,
  description:
    'Requests per second and latency of `GET /_api/auth/session` (header `x-api-version: v1.0.0`, a live `sr_session` cookie) ' +
    'on the real app built with `buildApp`, against a bare Fastify 5 hello-world in the same process.',
  async run({ log }) {
    const duration = envInt('BENCH_DURATION', 10, 1, 60);
    const warmup = envInt('BENCH_WARMUP', 2, 0, 30);
    const rounds = envInt('BENCH_ROUNDS', 3, 1, 9);
    const connections = envInt('BENCH_CONNECTIONS', 10, 1, 100);

    const baseline = Fastify({ logger: false });
    baseline.get('/', async () => ({ hello: 'world' }));
    let sr: Awaited<ReturnType<typeof startStrongroom>> | undefined;
    let dbBaseline: Awaited<ReturnType<typeof startDbBaseline>> | undefined;
    try {
      await baseline.listen({ host: '127.0.0.1', port: 0 });
      const baseUrl = `http://127.0.0.1:${(baseline.server.address() as AddressInfo).port}/`;
      log('starting Strongroom (migrations, organization, session)...');
      sr = await startStrongroom();
      const api = { 'x-api-version': 'v1.0.0' };
      const targets: Target[] = [
        { key: 'baseline', label: 'Fastify hello-world (baseline)', url: baseUrl, headers: {} },
        { key: 'healthz', label: 'Strongroom `GET /healthz` (no database)', url: `${sr.url}/healthz`, headers: {} },
        {
          key: 'session',
          label: 'Strongroom `GET /_api/auth/session`',
          url: `${sr.url}/_api/auth/session`,
          headers: { ...api, cookie: sr.sessionCookie },
        },
      ];
      const pgUrl = process.env.BENCH_DATABASE_URL;
      if (pgUrl) {
        dbBaseline = await startDbBaseline(pgUrl, sr.built.ctx.db, sr.sessionCookie);
        targets.push({
          key: 'dbBaseline',
          label: 'Fastify + node-postgres prepared session query (database baseline)',
          url: dbBaseline.url,
          headers: {},
        });
        const res = await fetch(dbBaseline.url);
        if (res.status !== 200) throw new Error(`database baseline answered ${res.status}`);
      }

      // The session call must answer 200 with the signed-in user before it is worth loading.
      const check = await fetch(targets[2].url, { headers: targets[2].headers });
      const body = (await check.json()) as { user?: { email?: string } };
      if (check.status !== 200 || body.user?.email !== sr.admin.email) {
        throw new Error(`session call answered ${check.status}: ${JSON.stringify(body).slice(0, 300)}`);
      }

      if (warmup > 0) {
        for (const t of targets) {
          log(`warm-up ${t.key} ${warmup} s`);
          await load({ url: t.url, connections, duration: warmup, headers: t.headers });
        }
      }
      const results = new Map<string, Array<LoadResult & { cpuMicros: number }>>(targets.map((t) => [t.key, []]));
      for (let r = 0; r < rounds; r++) {
        // Interleaved, and the order turns each round so that no target always runs first.
        const order = targets.map((_, i) => targets[(i + r) % targets.length]);
        for (const t of order) {
          const res = await loadWithCpu({ url: t.url, connections, duration, headers: t.headers });
          results.get(t.key)!.push(res);
          log(
            `round ${r + 1}/${rounds} ${t.key}: ${fmtInt(res.requestsAverage)} req/s, ${fmt(res.cpuMicros, 1)} µs CPU/request, p50 ${res.latency.p50} ms, p99 ${res.latency.p99} ms${res.non2xx || res.errors ? `, ${res.non2xx} non-2xx, ${res.errors} errors` : ''}`,
          );
        }
      }

      const med = (key: string, f: (x: LoadResult & { cpuMicros: number }) => number) => median(results.get(key)!.map(f));
      const baseRps = med('baseline', (x) => x.requestsAverage);
      /** The median over rounds of (target / baseline of the same round): paired, so drift in the machine's load cancels out. */
      const pairedRatio = (key: string) =>
        median(results.get(key)!.map((x, r) => x.requestsAverage / results.get('baseline')![r].requestsAverage));
      /** The same for CPU time per request: how many times the baseline's CPU a request costs. */
      const pairedCpu = (key: string) => median(results.get(key)!.map((x, r) => x.cpuMicros / results.get('baseline')![r].cpuMicros));
      const summaryRows = targets.map((t) => {
        const rps = med(t.key, (x) => x.requestsAverage);
        return [
          t.label,
          fmtInt(rps),
          t.key === 'baseline' ? '1.000' : fmt(pairedRatio(t.key), 3),
          t.key === 'baseline' ? '1.000' : fmt(rps / baseRps, 3),
          fmt(
            med(t.key, (x) => x.cpuMicros),
            1,
          ),
          t.key === 'baseline' ? '1.000' : fmt(pairedCpu(t.key), 3),
          ms(med(t.key, (x) => x.latency.p50)),
          ms(med(t.key, (x) => x.latency.p97_5)),
          ms(med(t.key, (x) => x.latency.p99)),
        ];
      });
      const rawRows: Array<Array<string | number>> = [];
      for (let r = 0; r < rounds; r++) {
        for (const t of targets) {
          const x = results.get(t.key)![r];
          const b = results.get('baseline')![r];
          rawRows.push([
            r + 1,
            t.key,
            fmtInt(x.requestsAverage),
            t.key === 'baseline' ? '' : fmt(x.requestsAverage / b.requestsAverage, 3),
            fmt(x.cpuMicros, 1),
            x.latency.p50,
            x.latency.p97_5,
            x.latency.p99,
            x.latency.max,
            fmtInt(x.totalCompleted),
            x.non2xx + x.errors + x.timeouts,
          ]);
        }
      }
      const bad = [...results.values()].flat().reduce((n, x) => n + x.non2xx + x.errors + x.timeouts, 0);
      const sessRps = med('session', (x) => x.requestsAverage);
      const ratio = pairedRatio('session');
      const health = med('healthz', (x) => x.requestsAverage);
      /** The session call against the database baseline of the same round (PostgreSQL only). */
      const dbRatio = dbBaseline
        ? median(results.get('session')!.map((x, r) => x.requestsAverage / results.get('dbBaseline')![r].requestsAverage))
        : undefined;
      const healthRatio = pairedRatio('healthz');
      const dbLabel = sr.dbKind === 'pglite' ? 'PGlite in memory (one connection)' : 'PostgreSQL (pool of 10, BENCH_DATABASE_URL)';

      return {
        variant: sr.dbKind,
        ...(sr.dbKind === 'postgres' ? { command: 'BENCH_DATABASE_URL=postgres://… npm run bench -- session-throughput' } : {}),
        headline: `session call ${fmtInt(sessRps)} req/s = ${fmt(ratio, 3)} x baseline ${fmtInt(baseRps)} req/s (${sr.dbKind})${bad ? `; ${bad} failed requests!` : ''}`,
        summary: [
          `- **Strongroom / baseline: ${fmt(ratio, 3)}** (median over ${rounds} rounds of the ratio to the baseline run of the same round; ` +
            `medians of requests/s: ${fmtInt(sessRps)} vs ${fmtInt(baseRps)}, a ratio of ${fmt(sessRps / baseRps, 3)}).`,
          `- CPU time of the server process per request (steadier than requests/s on a shared machine): baseline ${fmt(
            med('baseline', (x) => x.cpuMicros),
            1,
          )} µs, \`/healthz\` ${fmt(
            med('healthz', (x) => x.cpuMicros),
            1,
          )} µs (${fmt(pairedCpu('healthz'), 3)} x baseline), session call ${fmt(
            med('session', (x) => x.cpuMicros),
            1,
          )} µs (${fmt(pairedCpu('session'), 3)} x baseline).`,
          `- Without the database (\`/healthz\`, same plugins and hooks): ${fmtInt(health)} req/s, ${fmt(healthRatio, 3)} x baseline; ` +
            `so the session call's database read takes Strongroom from ${fmt(healthRatio, 3)} to ${fmt(ratio, 3)} of the baseline.`,
          ...(dbRatio === undefined
            ? []
            : [
                `- **Session call / database baseline: ${fmt(dbRatio, 3)}** (Fastify + node-postgres running the same query as a prepared statement, ` +
                  `${fmtInt(med('dbBaseline', (x) => x.requestsAverage))} req/s; median of the per-round ratios).`,
              ]),
          `- Database: ${dbLabel}. Failed requests (non-2xx, errors, timeouts) over all rounds: ${bad}.`,
        ],
        tables: [
          {
            caption:
              'Medians over the rounds; "paired" is the median of the per-round ratios (latency in ms as autocannon records it: whole milliseconds)',
            columns: [
              'target',
              'req/s',
              'x baseline (paired)',
              'x baseline (of medians)',
              'CPU µs/request',
              'CPU x baseline (paired)',
              'p50 ms',
              'p97.5 ms',
              'p99 ms',
            ],
            rows: summaryRows,
          },
          {
            caption: 'Every round (ratio to the baseline of the same round)',
            columns: ['round', 'target', 'req/s', 'x baseline', 'CPU µs/request', 'p50', 'p97.5', 'p99', 'max', 'requests', 'failed'],
            rows: rawRows,
          },
        ],
        notes: [
          '- CPU µs/request: `process.cpuUsage()` of the bench process (user + system) over a load run divided by the requests completed; the process holds the servers (and, for the session call, PGlite) and nothing else runs in it during a run but pg-boss polling; autocannon is a child process and not counted.',
          `- Load: autocannon ${autocannonVersion} in a child process (its own core), ${connections} connections, no pipelining, ${duration} s per run after a ${warmup} s warm-up per target; ${rounds} rounds, targets interleaved and their order turned each round. Loopback only.`,
          `- Server: the app from \`buildApp\` (server/src/app.ts) with LOG_LEVEL=silent, NODE_ENV=production, JOB_RUNNER=${sr.config.jobRunner}${sr.config.jobRunner === 'embedded' ? ' (the default: pg-boss workers in the process poll the same database every few seconds)' : ''}, a temporary DATA_DIR; one organization made with \`createOrganizationFromCli\`, one session made with \`createSession\` (as sign-in makes it). Baseline: \`Fastify({ logger: false })\` answering \`{ hello: "world" }\`, same process, another port.`,
          '- Each session call runs `resolveSession`: one query for the session joined with its user and organization (live, not revoked, not expired, user active), built and compiled once and run with the values of each call (`precompiled`). The session call does not extend the idle timeout, so it writes nothing.',
          sr.dbKind === 'pglite'
            ? '- PGlite (PostgreSQL compiled to WASM) runs on the same thread as Fastify and has one connection: every query of every request queues on it, and HTTP and SQL share one core. autocannon has the other core.'
            : '- PostgreSQL runs on the same machine: its backends, the Node server and autocannon share the 2 cores.',
          '- The machine is shared with other work (see the load average above). With the load average above the core count, absolute requests/s moved up to 2x between runs and the ratios by tens of percent: compare ratios, look at the per-round table, and rerun on a quiet machine before reading much into a change.',
        ],
      };
    } finally {
      await sr?.close();
      await baseline.close();
      if (dbBaseline) {
        await dbBaseline.app.close();
        await dbBaseline.pool.end();
      }
    }
  },
};
