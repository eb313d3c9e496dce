// Scale-out: the mixed load of 200 people through HAProxy, first with one app server in the balancer, then with
// two, on PostgreSQL through PgBouncer with two workers; an administrator vaults a matter and exports the audit log
// during each run. Reports failures, latency by class and the app servers' CPU time per request (2 vs 1).
import { adminWork, checkVault } from '../lib/admin-work.js';
import { describeTarget, errorTable, figures, latencyTable, READ_P99_TARGET_MS } from '../lib/load-report.js';
import { runMixedLoad } from '../lib/mixed-load.js';
import { knobs, startInstallation, withCpu } from '../lib/scale-setup.js';
import { envInt, fmt, fmtInt } from '../lib/stats.js';
import type { Scenario } from '../lib/types.js';

const CPU_RATIO_TARGET = 1.1;

export const scenario: Scenario = {
  name: 'scale-out',
  title: 'Scale-out: mixed load through HAProxy, one app server then two',
  order: 100,
  description:
    'Two app servers (`npm start`, JOB_RUNNER=off), two workers (`npm run worker`), PostgreSQL through PgBouncer (transaction mode), ' +
    'one local object store in a DATA_DIR they all share (one URL signing key), HAProxy checking `/readyz`; all on loopback, started by the bench. ' +
    'People sign in (password and authenticator), browse, search, open matters, download, create folders and upload small and multipart files; ' +
    'an administrator vaults a matter and exports the audit log meanwhile. The same load runs with app2 disabled in HAProxy, then with both.',
  async run({ root, log }) {
    const k = knobs();
    const inst = await startInstallation({
      root,
      log,
      apps: 2,
      workers: 2,
      members: k.users,
      extraMatters: [
        { name: 'Vault one matter', files: 20, size: 32 * 1024 },
        { name: 'Vault two matter', files: 20, size: 32 * 1024 },
      ],
    });
    try {
      const { cluster, firm, extra } = inst;
      const runOnce = async (label: string, vaultMatterId: string) => {
        log(`${label}: ${k.users} people for ${k.seconds} s (think time ${k.thinkMs} ms)...`);
        let admin: Awaited<ReturnType<typeof adminWork>> | undefined;
        const { result, cpu } = await withCpu(cluster.apps, () =>
          runMixedLoad({
            base: cluster.lbUrl,
            firm,
            users: k.users,
            seconds: k.seconds,
            thinkMs: k.thinkMs,
            beside: async (run, deadline) => {
              admin = await adminWork({
                base: cluster.lbUrl,
                admin: firm.admin,
                matterId: vaultMatterId,
                samples: run.samples,
                deadline,
                vaultAfterMs: (k.seconds * 1000) / 3,
              });
            },
          }),
        );
        const f = figures(result.samples);
        const cpuTotal = cpu.reduce((a, b) => a + b, 0);
        const perRequest = (cpuTotal * 1000) / f.requests;
        const vault = await checkVault(inst.pg.url, cluster.dataDir, vaultMatterId, 90_000);
        log(
          `${label}: ${describeTarget(f)}; app CPU ${fmt(perRequest, 0)} µs/request (${cpu.map((c) => fmt(c / 1000, 1)).join(' + ')} s); vault ${vault.state}; failures: ${JSON.stringify(f.byKind)}`,
        );
        return { label, f, cpu, perRequest, admin: admin!, vault, signInFailures: result.signInFailures };
      };
      // Both servers warmed up first (JIT, pools, caches), so that neither run pays for a cold process.
      const warm = envInt('BENCH_SCALE_WARMUP', 15, 0, 120);
      if (warm > 0) {
        log(`warm-up: ${Math.min(k.users, 50)} people for ${warm} s on both servers...`);
        await runMixedLoad({ base: cluster.lbUrl, firm, users: Math.min(k.users, 50), seconds: warm, thinkMs: k.thinkMs });
      }
      await cluster.lb('disable server apps/app2');
      const one = await runOnce('one app server', extra[0].id);
      await cluster.lb('enable server apps/app2');
      await new Promise((r) => setTimeout(r, 2000));
      const two = await runOnce('two app servers', extra[1].id);
      const ratio = two.perRequest / one.perRequest;
      const runs: Array<[string, ReturnType<typeof figures>]> = [
        [one.label, one.f],
        [two.label, two.f],
      ];
      const served = (name: string) => cluster.lbLog.filter((e) => e.server === name).length;
      return {
        headline: `two app servers: ${describeTarget(two.f)}; CPU/request 2 vs 1 = ${fmt(ratio, 2)} (target <= ${CPU_RATIO_TARGET})`,
        summary: [
          `- **Two app servers**: ${describeTarget(two.f)}.`,
          `- One app server (app2 disabled in HAProxy), same load: ${describeTarget(one.f)}.`,
          `- **CPU per request of the app servers**: ${fmt(one.perRequest, 0)} µs with one, ${fmt(two.perRequest, 0)} µs with two: ratio **${fmt(ratio, 2)}** (target at most ${CPU_RATIO_TARGET}: ${ratio <= CPU_RATIO_TARGET ? 'met' : 'missed'}).`,
          `- Vaulting during the load: ${[one, two].map((r) => `${r.label}: start answered ${r.admin.vaultStatus}, transfer ${r.vault.state} (${r.vault.filesDone}/${r.vault.filesTotal} files, ${r.vault.certificates} certificate)`).join('; ')}. Audit exports: ${[one, two].map((r) => `${r.admin.exports.length} (${[...new Set(r.admin.exports)].join(', ')})`).join(' and ')}.`,
          `- Sign-ins that failed: ${one.signInFailures} and ${two.signInFailures}. HAProxy log: app1 served ${fmtInt(served('app1'))} requests, app2 ${fmtInt(served('app2'))}.`,
        ],
        tables: [
          latencyTable(runs, `Latency of the requests that answered 2xx, by class (target: reads p99 <= ${READ_P99_TARGET_MS} ms)`),
          errorTable(runs),
          {
            caption: 'CPU time of the app servers (from /proc/<pid>/stat, all threads) over each run',
            columns: ['run', 'requests', 'app1 CPU s', 'app2 CPU s', 'µs per request'],
            rows: [one, two].map((r) => [
              r.label,
              fmtInt(r.f.requests),
              fmt(r.cpu[0] / 1000, 1),
              fmt(r.cpu[1] / 1000, 1),
              fmt(r.perRequest, 0),
            ]),
          },
        ],
        notes: [
          `- Load: ${k.users} people (BENCH_SCALE_USERS), ${k.seconds} s per run (BENCH_SCALE_SECONDS), exponential think time with mean ${k.thinkMs} ms (BENCH_THINK_MS), arrivals (each begins with a sign-in) spread over the first 20 s; each person has a loopback address of their own (127.0.1.x), which HAProxy passes in X-Forwarded-For and the servers believe from 127.0.0.1 only (TRUST_PROXY), so throttles see people, not the balancer.`,
          '- Actions: matter list 25 %, search 15 %, matter detail 20 %, dashboard activity 6 %, download (URL, then the bytes) 16 %, folder create 6 %, single-PUT upload of 8 to 64 KiB 11 %, multipart upload (a 10 MiB part + 64 KiB, as the web app cuts parts) 1 %. Classes: read = GET /_api calls; write = POST /_api calls (presign, complete, create); upload = PUT of bytes to the store; download = GET of bytes.',
          '- CPU per request: the CPU time of both app server processes over the run (the idle app2 included in the one-server run: its health checks) divided by every request the people and the administrator made; workers, PgBouncer, PostgreSQL and HAProxy are not counted.',
          `- Before the measured runs, ${'`'}BENCH_SCALE_WARMUP${'`'} s (default 15) of the same load with up to 50 people on both servers warms both processes. The one-server run comes first; the two-server run follows on the database the first left (more rows).`,
          '- Everything runs on one shared 2-core machine: the load generator, HAProxy, both app servers, both workers, PgBouncer and PostgreSQL (which other sessions use as well). Latency here is dominated by CPU contention, not by the topology.',
        ],
      };
    } finally {
      await inst.close();
    }
  },
};
