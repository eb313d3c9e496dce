// Scale-out through a PostgreSQL restart: the topology on a PostgreSQL cluster of its own (initdb, a random port),
// stopped a third of the way into the mixed load and started again after a few seconds. /readyz of each app server
// is polled throughout; afterwards every write that answered 2xx is looked up in the database, row by row.
import pg from 'pg';
import { describeTarget, errorTable, failed, figures, latencyTable } from '../lib/load-report.js';
import { runMixedLoad } from '../lib/mixed-load.js';
import { ownCluster } from '../lib/postgres.js';
import { sleep } from '../lib/procs.js';
import { knobs, startInstallation } from '../lib/scale-setup.js';
import { envInt, fmt, fmtInt } from '../lib/stats.js';
import type { Scenario } from '../lib/types.js';

type Probe = { at: number; app: number; status: number | 'timeout' };

/** Polls each app server's /readyz every 250 ms until `stop()`; answers the samples. */
function pollReadiness(urls: string[]) {
  const samples: Probe[] = [];
  let running = true;
  const loops = urls.map(async (url, app) => {
    while (running) {
      const at = Date.now();
      try {
        const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3000) });
        await res.arrayBuffer();
        samples.push({ at, app, status: res.status });
      } catch {
        samples.push({ at, app, status: 'timeout' });
      }
      await sleep(250);
    }
  });
  return {
    samples,
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** The sequence of readiness answers of one app as runs: "200 x40, 503 x12, 200 x30". */
function runsOf(samples: Probe[], app: number, t0: number): string {
  const out: Array<{ status: string; n: number; from: number }> = [];
  for (const s of samples.filter((x) => x.app === app)) {
    const last = out[out.length - 1];
    if (last && last.status === String(s.status)) last.n++;
    else out.push({ status: String(s.status), n: 1, from: s.at - t0 });
  }
  return out.map((r) => `${r.status} x${r.n} (from ${fmt(r.from / 1000, 1)} s)`).join(', ');
}

export const scenario: Scenario = {
  name: 'scale-out-pg-restart',
  title: 'Scale-out: PostgreSQL restarted under load',
  order: 102,
  description:
    'The scale-out topology (two app servers, a worker, PgBouncer in transaction mode, HAProxy) on a PostgreSQL cluster of its own; a third of the way ' +
    'into the mixed load PostgreSQL is stopped (`pg_ctl stop -m fast`) and started again a few seconds later. The app servers are not restarted. ' +
    'Afterwards every folder and file whose creation answered 2xx is looked up in the database by id, name and matter.',
  async run({ root, log }) {
    const k = knobs();
    const downMs = envInt('BENCH_PG_DOWN_MS', 5000, 500, 60_000);
    const cluster0 = await ownCluster();
    const inst = await startInstallation({ root, log, apps: 2, workers: 1, members: k.users, pg: cluster0 });
    try {
      const { cluster, firm } = inst;
      const pids = cluster.apps.map((a) => a.pid);
      const poll = pollReadiness(cluster.appUrls);
      const t0 = Date.now();
      let stoppedAt = 0;
      let startedAt = 0;
      log(`${k.users} people for ${k.seconds} s; PostgreSQL down for ${downMs} ms at ${Math.round(k.seconds / 3)} s...`);
      const run = await runMixedLoad({
        base: cluster.lbUrl,
        firm,
        users: k.users,
        seconds: k.seconds,
        thinkMs: k.thinkMs,
        beside: async () => {
          await sleep((k.seconds * 1000) / 3);
          stoppedAt = Date.now();
          await cluster0.restart!(downMs);
          startedAt = Date.now();
          log(`PostgreSQL stopped at ${fmt((stoppedAt - t0) / 1000, 1)} s, running again at ${fmt((startedAt - t0) / 1000, 1)} s`);
        },
      });
      await sleep(2000);
      await poll.stop();
      const f = figures(run.samples);
      // Row by row: each 2xx write's node, by id, with the name and matter the answer gave.
      const c = new pg.Client({ connectionString: inst.pg.url });
      await c.connect();
      const missing: string[] = [];
      try {
        for (const w of run.written) {
          const row = (await c.query('select name, matter_id from nodes where id = $1', [w.nodeId])).rows[0] as
            { name: string; matter_id: string } | undefined;
          if (!row || row.name !== w.name || row.matter_id !== w.matterId) missing.push(`${w.kind} ${w.nodeId} ${w.name}`);
        }
      } finally {
        await c.end();
      }
      const alive = cluster.apps.every((a, i) => a.child.exitCode === null && a.pid === pids[i]);
      const deaths = cluster.apps
        .filter((a) => a.child.exitCode !== null)
        .map(
          (a) =>
            `${a.name} exited with code ${a.child.exitCode}; its last output: ${a.output().trim().split('\n').slice(-6).join(' | ').slice(0, 1500)}`,
        );
      for (const d of deaths) log(d);
      const readyRuns = cluster.appUrls.map((_, i) => runsOf(poll.samples, i, t0));
      const saw503 = poll.samples.some((s) => s.status === 503);
      const back = cluster.appUrls.every((_, i) => poll.samples.filter((s) => s.app === i).at(-1)?.status === 200);
      const afterBack = run.samples.filter((s) => s.at > startedAt + 5000);
      const failedAfter = afterBack.filter(failed).length;
      const during = run.samples.filter((s) => s.at >= stoppedAt && s.at <= startedAt + 5000 && failed(s)).length;
      const writes2xx = run.written.length;
      return {
        headline: `PostgreSQL restart: readyz ${saw503 ? '503' : 'never 503'} then ${back ? '200' : 'NOT back'}; ${writes2xx} 2xx writes, ${missing.length} missing; apps ${alive ? 'not restarted' : 'RESTARTED OR DEAD'}`,
        summary: [
          `- PostgreSQL stopped at ${fmt((stoppedAt - t0) / 1000, 1)} s and running again at ${fmt((startedAt - t0) / 1000, 1)} s (down ${fmtInt(startedAt - stoppedAt)} ms, pg_ctl stop and start included).`,
          `- **Readiness** (GET /readyz every 250 ms on each app server directly): ${readyRuns.map((r, i) => `app${i + 1}: ${r}`).join('; ')}.`,
          `- The app servers ${alive ? 'kept running, same processes (no restart of their own)' : `did NOT all keep running: ${deaths.join('; ')}`}; failed requests while PostgreSQL was away (from the stop to 5 s after the start): ${during}; after that: ${failedAfter} of ${fmtInt(afterBack.length)}.`,
          `- **Writes**: ${writes2xx} folders and files answered 2xx; looked up one by one afterwards: **${writes2xx - missing.length} found, ${missing.length} missing**${missing.length ? ` (${missing.slice(0, 10).join('; ')})` : ''}.`,
          `- Whole run: ${describeTarget(f)}.`,
        ],
        tables: [
          latencyTable([['restart run', f]], 'Latency of the requests that answered 2xx, by class'),
          errorTable([['restart run', f]]),
        ],
        notes: [
          '- PostgreSQL 15 of Debian, a cluster of its own (initdb in a temp dir, trust on 127.0.0.1, a random port, fsync on), removed afterwards; the shared server is not touched.',
          '- PgBouncer: transaction mode, `query_wait_timeout = 10`, `server_login_retry = 1`: while PostgreSQL is away, queries wait for a server connection up to 10 s, then fail; PgBouncer reconnects as soon as PostgreSQL accepts.',
          '- Failures while PostgreSQL is away are expected (HAProxy takes the servers out when /readyz answers 503, and then answers 503 itself); what must hold is that the servers come back by themselves and that no 2xx write is lost.',
          `- ${k.users} people, ${k.seconds} s, think time ${k.thinkMs} ms, down time asked ${downMs} ms (BENCH_PG_DOWN_MS), on the shared 2-core machine.`,
        ],
      };
    } finally {
      await inst.close();
    }
  },
};
