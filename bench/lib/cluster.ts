// The scale-out topology on loopback: N app servers (`npm start` with JOB_RUNNER=off), M workers (`npm run worker`),
// PostgreSQL through PgBouncer (transaction mode), one local object store in a DATA_DIR all of them share (with the
// shared URL signing key) and HAProxy in front, checking GET /readyz on each app server.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, startPgBouncer, type Bouncer, type Postgres } from './postgres.js';
import { childPid, sleep, startProc, stopProc, waitReady, type Proc } from './procs.js';

/** One line of HAProxy's log: when the request began (epoch ms), the server that took it, status, its active ms. */
export type LbLogEntry = { startedAt: number; server: string; status: number; totalMs: number; term: string; method: string; path: string };

export type Cluster = {
  lbUrl: string;
  appUrls: string[];
  apps: Proc[];
  workers: Proc[];
  dataDir: string;
  env: NodeJS.ProcessEnv;
  lbLog: LbLogEntry[];
  /** A command on HAProxy's admin socket (e.g. `disable server apps/app2`); answers its output. */
  lb(command: string): Promise<string>;
  close(): Promise<void>;
};

/** Builds once when the build is missing or older than the sources, so that the servers do not all build at once. */
export function ensureBuild(root: string, log: (m: string) => void): void {
  const stale = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', "import('./scripts/build-state.mjs').then((m) => process.exit(m.buildIsStale() ? 1 : 0))"],
    { cwd: root },
  );
  if (stale.status === 0) return;
  log('building (npm run build)...');
  const r = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore', timeout: 600_000 });
  if (r.status !== 0) throw new Error('npm run build failed');
}

/** The environment every process of one installation shares: database, store, keys, proxy. */
function sharedEnv(opts: { databaseUrl: string; dataDir: string; appUrl: string }): NodeJS.ProcessEnv {
  const { privateKey } = generateKeyPairSync('ed25519');
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    APP_URL: opts.appUrl,
    DATA_DIR: opts.dataDir,
    DATABASE_URL: opts.databaseUrl,
    // Only HAProxy's own address is believed in X-Forwarded-For: each simulated user has an address of its own.
    TRUST_PROXY: '127.0.0.1',
    STORAGE_SIGNING_KEY: randomBytes(32).toString('hex'),
    MFA_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    SIGNING_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    // Running as root, the local store cannot make a file unwritable to its own account: evaluation mode says so.
    VAULT_ALLOW_UNLOCKED_STORE: 'true',
    // GET /metrics on each app server, for the soak's samples of the JavaScript heap.
    METRICS_TOKEN: METRICS_TOKEN,
  };
}

/** The bearer token of every installation's GET /metrics (loopback only, a bench's throw-away installation). */
const METRICS_TOKEN = 'bench-metrics-token-' + randomBytes(16).toString('hex');

/**
 * Heap in use, heap committed (what V8 holds from the system for it, in use or not) and memory outside the heap
 * (buffers, zlib, TLS) of one app server, read from its /metrics.
 */
export async function heapOf(appUrl: string): Promise<{ heapUsed: number; heapTotal: number; external: number }> {
  try {
    const res = await fetch(`${appUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const text = await res.text();
    const read = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(text)?.[1] ?? NaN);
    return {
      heapUsed: read('nodejs_heap_size_used_bytes'),
      heapTotal: read('nodejs_heap_size_total_bytes'),
      external: read('nodejs_external_memory_bytes'),
    };
  } catch {
    return { heapUsed: NaN, heapTotal: NaN, external: NaN };
  }
}

function haproxyConfig(port: number, socket: string, apps: Array<{ name: string; port: number }>): string {
  return [
    'global',
    '  log stdout format raw local0',
    '  maxconn 4000',
    `  stats socket ${socket} mode 600 level admin`,
    'defaults',
    '  mode http',
    '  log global',
    '  log-format "HALOG %Ts.%ms %Th %Ti %s %ST %Ta %ts %HM %HP"',
    '  option forwardfor',
    '  option redispatch',
    '  retries 2',
    '  timeout connect 2s',
    '  timeout client 120s',
    '  timeout server 120s',
    '  timeout http-request 15s',
    'frontend web',
    `  bind 127.0.0.1:${port}`,
    '  default_backend apps',
    'backend apps',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    // A saturated server answers its check late, not never: 5 s to answer, three misses in a row to be taken out.
    // A dead one refuses the connection at once, so it is out after three checks (about 3 s); meanwhile a request
    // whose connection it refuses is redispatched to another server.
    '  timeout check 5s',
    '  default-server inter 1s fall 3 rise 2',
    ...apps.map((a) => `  server ${a.name} 127.0.0.1:${a.port} check`),
    '',
  ].join('\n');
}

function parseLbLine(line: string): LbLogEntry | undefined {
  const m = /^HALOG (\d+)\.(\d+) (-?\d+) (-?\d+) (\S+) (-?\d+) (-?\d+) (\S+) (\S+) (\S+)/.exec(line);
  if (!m) return undefined;
  // The accept date is the connection's (or the previous request's end); handshake and idle time lead to this request.
  return {
    startedAt: Number(m[1]) * 1000 + Number(m[2]) + Math.max(0, Number(m[3])) + Math.max(0, Number(m[4])),
    server: m[5],
    status: Number(m[6]),
    totalMs: Number(m[7]),
    // Termination state: two letters, "--" for a normal end (e.g. "SH": the server aborted before its headers).
    term: m[8],
    method: m[9],
    path: m[10],
  };
}

function socketCommand(socket: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const c = net.connect(socket);
    let out = '';
    c.setEncoding('utf8');
    c.on('data', (d: string) => (out += d));
    c.on('end', () => resolve(out));
    c.on('error', reject);
    c.write(command + '\n');
  });
}

async function startNode(name: string, root: string, env: NodeJS.ProcessEnv, worker: boolean): Promise<Proc> {
  const p = startProc(name, process.execPath, worker ? ['scripts/start.mjs', 'worker'] : ['scripts/start.mjs'], { cwd: root, env });
  p.pid = await childPid(p.child.pid!);
  return p;
}

/** Starts an app server (`npm start` with JOB_RUNNER=off) on `port` and waits for its /readyz. */
async function startApp(name: string, root: string, env: NodeJS.ProcessEnv, port: number): Promise<Proc> {
  const p = await startNode(name, root, { ...env, PORT: String(port), JOB_RUNNER: 'off' }, false);
  await waitReady(`http://127.0.0.1:${port}/readyz`, p);
  return p;
}

/** Starts a worker (`npm run worker`, the same environment). */
async function startWorkerProc(name: string, root: string, env: NodeJS.ProcessEnv): Promise<Proc> {
  const p = await startNode(name, root, env, true);
  // At LOG_LEVEL=warn a running worker prints nothing: alive after three seconds (migrations done, queues started) is taken as started.
  await sleep(3000);
  if (p.child.exitCode !== null) throw new Error(`${name} exited ${p.child.exitCode}:\n${p.output()}`);
  return p;
}

/** Starts the whole topology; `pg` is the database it runs on (the schema already migrated). */
export async function startCluster(opts: {
  root: string;
  pg: Postgres;
  apps: number;
  workers: number;
  log: (m: string) => void;
}): Promise<Cluster> {
  const { root, log } = opts;
  ensureBuild(root, log);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-scaleout-'));
  const lbDir = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-haproxy-'));
  const started: Proc[] = [];
  let bouncer: Bouncer | undefined;
  const cleanup = async () => {
    for (const p of started.reverse()) await stopProc(p).catch(() => {});
    await bouncer?.close().catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(lbDir, { recursive: true, force: true });
  };
  try {
    bouncer = await startPgBouncer(opts.pg.url, root);
    const lbPort = await freePort();
    const lbUrl = `http://127.0.0.1:${lbPort}`;
    const env = sharedEnv({ databaseUrl: bouncer.url, dataDir, appUrl: lbUrl });
    const appPorts = await Promise.all(Array.from({ length: opts.apps }, () => freePort()));
    const apps: Proc[] = [];
    for (let i = 0; i < opts.apps; i++) {
      log(`starting app${i + 1} on port ${appPorts[i]}...`);
      apps.push(await startApp(`app${i + 1}`, root, env, appPorts[i]));
      started.push(apps[i]);
    }
    const workers: Proc[] = [];
    for (let i = 0; i < opts.workers; i++) {
      const w = await startWorkerProc(`worker${i + 1}`, root, env);
      workers.push(w);
      started.push(w);
    }
    const socket = path.join(lbDir, 'admin.sock');
    const cfg = path.join(lbDir, 'haproxy.cfg');
    fs.writeFileSync(
      cfg,
      haproxyConfig(
        lbPort,
        socket,
        appPorts.map((port, i) => ({ name: `app${i + 1}`, port })),
      ),
    );
    const lbLog: LbLogEntry[] = [];
    const haproxy = startProc('haproxy', '/usr/sbin/haproxy', ['-db', '-f', cfg], {
      cwd: lbDir,
      onLine: (l) => {
        const e = parseLbLine(l);
        if (e) lbLog.push(e);
      },
    });
    started.push(haproxy);
    await waitReady(`${lbUrl}/readyz`, haproxy, 15_000);
    // Every server up in HAProxy's view before the load starts.
    for (let i = 0; i < 50; i++) {
      const stat = await socketCommand(socket, 'show stat');
      if (stat.split('\n').filter((l) => l.startsWith('apps,app') && l.includes(',UP,')).length === opts.apps) break;
      await sleep(200);
    }
    log(`HAProxy on ${lbUrl}, ${opts.apps} app servers, ${opts.workers} workers, PgBouncer ${bouncer.url}`);
    return {
      lbUrl,
      appUrls: appPorts.map((p) => `http://127.0.0.1:${p}`),
      apps,
      workers,
      dataDir,
      env,
      lbLog,
      lb: (command) => socketCommand(socket, command),
      close: cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}
