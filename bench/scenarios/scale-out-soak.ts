// A bounded soak: the mixed load through HAProxy on the scale-out topology for a fixed time (10 minutes unless
// `--duration=SECONDS` or BENCH_SOAK_SECONDS says otherwise), with the resident memory of every app server and
// worker sampled every 10 s. The bound: no app server grows by more than SOAK_GROWTH_BOUND_MIB from the sample at
// the end of the warm-up (the first tenth of the run, at least 30 s) to the largest sample after it.
import { describeTarget, errorTable, figures, latencyTable } from '../lib/load-report.js';
import { runMixedLoad } from '../lib/mixed-load.js';
import { rssBytes, sleep } from '../lib/procs.js';
import { heapOf } from '../lib/cluster.js';
import { knobs, startInstallation } from '../lib/scale-setup.js';
import { fmt } from '../lib/stats.js';
import type { Scenario } from '../lib/types.js';

const SOAK_GROWTH_BOUND_MIB = 64;
const MiB = 1024 * 1024;

/** `--duration=600`, `--duration=10m` or BENCH_SOAK_SECONDS; bounded to 10 s .. 60 min. */
function soakSeconds(): number {
  const arg = process.argv.find((a) => a.startsWith('--duration='))?.slice('--duration='.length) ?? process.env.BENCH_SOAK_SECONDS;
  if (!arg) return 600;
  const m = /^(\d+)(s|m)?$/.exec(arg.trim());
  if (!m) throw new Error(`--duration must be seconds (600) or minutes (10m), not ${arg}`);
  return Math.min(3600, Math.max(10, Number(m[1]) * (m[2] === 'm' ? 60 : 1)));
}

export const scenario: Scenario = {
  name: 'scale-out-soak',
  title: 'Scale-out: bounded soak with server memory sampled',
  order: 103,
  description:
    'The scale-out topology and mixed load (uploads mostly single PUTs) for a bounded time, with the resident set size (VmRSS) of both app servers and ' +
    `both workers sampled every 10 s. Bound: no app server grows more than ${SOAK_GROWTH_BOUND_MIB} MiB from the end of the warm-up to its largest later sample.`,
  async run({ root, log }) {
    const k = knobs();
    const seconds = soakSeconds();
    const inst = await startInstallation({ root, log, apps: 2, workers: 2, members: k.users });
    try {
      const { cluster, firm } = inst;
      const procs = [...cluster.apps, ...cluster.workers];
      const samples: Array<{ t: number; rss: number[]; heap: Array<{ heapUsed: number; heapTotal: number; external: number }> }> = [];
      const sample = async () => ({
        t: Date.now() - t0,
        rss: procs.map((p) => rssBytes(p.pid)),
        heap: await Promise.all(cluster.appUrls.map((u) => heapOf(u))),
      });
      const t0 = Date.now();
      log(`${k.users} people for ${seconds} s, memory sampled every 10 s...`);
      const run = await runMixedLoad({
        base: cluster.lbUrl,
        firm,
        users: k.users,
        seconds,
        thinkMs: k.thinkMs,
        multipartPercent: 0.2,
        beside: async (_run, deadline) => {
          while (Date.now() < deadline) {
            samples.push(await sample());
            if (samples.length % 6 === 0)
              log(
                `${fmt((Date.now() - t0) / 1000, 0)} s: heap ${samples
                  .at(-1)!
                  .heap.map((h) => fmt(h.heapUsed / MiB, 0))
                  .join(' / ')} MiB, RSS ${samples
                  .at(-1)!
                  .rss.map((r) => fmt(r / MiB, 0))
                  .join(' / ')} MiB`,
              );
            await sleep(Math.min(10_000, Math.max(0, deadline - Date.now())));
          }
          samples.push(await sample());
        },
      });
      const f = figures(run.samples);
      const warm = Math.max(30_000, (seconds * 1000) / 10);
      const base = samples.find((s) => s.t >= warm) ?? samples[0];
      const after = samples.filter((s) => s.t >= base.t);
      const rows = procs.map((p, i) => {
        const start = samples[0].rss[i];
        const atWarm = base.rss[i];
        const end = samples.at(-1)!.rss[i];
        const max = Math.max(...after.map((s) => s.rss[i]));
        return { name: p.name, start, atWarm, end, max, growth: max - atWarm };
      });
      // The JavaScript heap in use and the memory beside it, of each app server: where RSS growth lives.
      const heapRows = cluster.appUrls.map((_, i) => {
        const used = after.map((s) => s.heap[i].heapUsed);
        const ext = after.map((s) => s.heap[i].external);
        const last = samples.at(-1)!.heap[i];
        // RSS beside the heap V8 holds and the external memory: code, threads' stacks and native allocations.
        const rest = (s: (typeof samples)[number]) => s.rss[i] - s.heap[i].heapTotal - s.heap[i].external;
        return [
          procs[i].name,
          fmt(base.heap[i].heapUsed / MiB, 1),
          fmt(last.heapUsed / MiB, 1),
          fmt(Math.max(...used) / MiB, 1),
          fmt(base.heap[i].heapTotal / MiB, 1),
          fmt(last.heapTotal / MiB, 1),
          fmt(base.heap[i].external / MiB, 1),
          fmt(samples.at(-1)!.heap[i].external / MiB, 1),
          fmt(Math.max(...ext) / MiB, 1),
          fmt(rest(base) / MiB, 1),
          fmt(rest(samples.at(-1)!) / MiB, 1),
        ];
      });
      const worst = Math.max(...rows.filter((r) => r.name.startsWith('app')).map((r) => r.growth));
      const within = worst <= SOAK_GROWTH_BOUND_MIB * MiB;
      return {
        headline: `soak ${seconds} s: app servers grew at most ${fmt(worst / MiB, 1)} MiB after warm-up (bound ${SOAK_GROWTH_BOUND_MIB} MiB: ${within ? 'within' : 'EXCEEDED'}); ${describeTarget(f)}`,
        ...(seconds !== 600 ? { variant: `${seconds} s`, command: `npm run bench -- scale-out-soak --duration=${seconds}` } : {}),
        summary: [
          `- Soak of **${seconds} s**${seconds < 600 ? ' (shortened from the default 10 minutes)' : ''}: ${describeTarget(f)}.`,
          `- **Memory**: the largest growth of an app server from the end of the warm-up (${fmt(base.t / 1000, 0)} s) to its largest later sample: **${fmt(worst / MiB, 1)} MiB** (bound ${SOAK_GROWTH_BOUND_MIB} MiB: ${within ? 'within it' : 'EXCEEDED'}).`,
        ],
        tables: [
          {
            caption: 'Resident set size (VmRSS, MiB) of each process',
            columns: ['process', 'first sample', `at ${fmt(base.t / 1000, 0)} s`, 'end', 'max after warm-up', 'growth after warm-up'],
            rows: rows.map((r) => [
              r.name,
              fmt(r.start / MiB, 1),
              fmt(r.atWarm / MiB, 1),
              fmt(r.end / MiB, 1),
              fmt(r.max / MiB, 1),
              fmt(r.growth / MiB, 1),
            ]),
          },
          {
            caption:
              'JavaScript heap in use and committed, external memory (buffers, compression) and the rest of RSS of each app server, from its /metrics (MiB)',
            columns: [
              'process',
              `heap at ${fmt(base.t / 1000, 0)} s`,
              'heap at end',
              'heap max',
              `committed at ${fmt(base.t / 1000, 0)} s`,
              'committed at end',
              `external at ${fmt(base.t / 1000, 0)} s`,
              'external at end',
              'external max',
              `rest of RSS at ${fmt(base.t / 1000, 0)} s`,
              'rest of RSS at end',
            ],
            rows: heapRows,
          },
          {
            caption: 'Samples (every 10 s; MiB)',
            columns: ['s', ...procs.map((p) => p.name)],
            rows: samples
              .filter((_, i) => i % Math.max(1, Math.round(samples.length / 20)) === 0 || i === samples.length - 1)
              .map((s) => [fmt(s.t / 1000, 0), ...s.rss.map((r) => fmt(r / MiB, 1))]),
          },
          latencyTable([['soak', f]], 'Latency of the requests that answered 2xx, by class'),
          errorTable([['soak', f]]),
        ],
        notes: [
          `- ${k.users} people, think time ${k.thinkMs} ms; multipart uploads 0.2 % of actions (each stores 10 MiB), so that the store stays small over a long run.`,
          '- VmRSS from /proc/<pid>/status of the node process of each app server and worker (the garbage collector runs when V8 decides: RSS is an upper bound of what is live).',
          '- On the shared 2-core machine; `npm run bench -- scale-out-soak --duration=SECONDS` shortens or lengthens it (10 s to 60 min).',
        ],
      };
    } finally {
      await inst.close();
    }
  },
};
