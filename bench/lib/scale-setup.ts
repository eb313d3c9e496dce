// What the scale-out scenarios share: their knobs, the installation (database, cluster, firm) started and ended
// as one, and the CPU time of a set of processes over a run.
import type { Cluster } from './cluster.js';
import { startCluster } from './cluster.js';
import { sharedDatabase, type Postgres } from './postgres.js';
import { cpuMs, type Proc } from './procs.js';
import { seedFirm, type Firm, type SeedMatter } from './seed.js';
import { envInt } from './stats.js';

export const knobs = () => ({
  users: envInt('BENCH_SCALE_USERS', 200, 1, 500),
  seconds: envInt('BENCH_SCALE_SECONDS', 60, 5, 600),
  thinkMs: envInt('BENCH_THINK_MS', 2000, 50, 20_000),
});

export type Installation = { pg: Postgres; cluster: Cluster; firm: Firm; extra: SeedMatter[]; close(): Promise<void> };

/** PostgreSQL (given, or a new database on the shared server), the cluster, and the firm written into it. */
export async function startInstallation(o: {
  root: string;
  log: (m: string) => void;
  apps: number;
  workers: number;
  members: number;
  pg?: Postgres;
  extraMatters?: Array<{ name: string; files: number; size: number }>;
}): Promise<Installation> {
  const pg = o.pg ?? (await sharedDatabase());
  let cluster: Cluster | undefined;
  try {
    cluster = await startCluster({ root: o.root, pg, apps: o.apps, workers: o.workers, log: o.log });
    o.log(`writing the firm: ${o.members} members, matters and files...`);
    const { extra, ...firm } = await seedFirm({
      databaseUrl: pg.url,
      dataDir: cluster.dataDir,
      appUrl: cluster.lbUrl,
      signingKey: cluster.env.STORAGE_SIGNING_KEY!,
      members: o.members,
      matters: 40,
      filesPerMatter: 5,
      extraMatters: o.extraMatters,
    });
    const c = cluster;
    return {
      pg,
      cluster: c,
      firm,
      extra,
      async close() {
        try {
          await c.close();
        } finally {
          await pg.close();
        }
      },
    };
  } catch (err) {
    await cluster?.close().catch(() => {});
    await pg.close().catch(() => {});
    throw err;
  }
}

/** Runs `f` and answers its result with the CPU milliseconds the processes spent meanwhile. */
export async function withCpu<T>(procs: Proc[], f: () => Promise<T>): Promise<{ result: T; cpu: number[] }> {
  const before = procs.map((p) => cpuMs(p.pid));
  const result = await f();
  return { result, cpu: procs.map((p, i) => cpuMs(p.pid) - before[i]) };
}
