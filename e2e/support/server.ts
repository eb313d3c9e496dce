import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

const repoRoot = path.resolve(import.meta.dirname, '../..');

export type RunningServer = { url: string; output: () => string; stop(): Promise<void> };

/**
 * Starts the production build (`server/dist/main.js`) on loopback and waits until /readyz answers 200. A start that
 * is not ready in time is stopped (SIGKILL) and made once more on the same data, and the failure, if it comes,
 * carries what the server printed and what /readyz last answered.
 */
export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  seedEmbeddedDatabase(env);
  const first = await attemptStart(env);
  if (first.server) return first.server;
  const second = await attemptStart(env);
  if (second.server) return second.server;
  throw new Error(`server did not become ready (twice):\n--- first start\n${first.report}\n--- second start\n${second.report}`);
}

/**
 * A new embedded database starts as a copy of the run's migrated template (made once by the global setup), so
 * that each test file's first start skips making the database and running every migration: the same files a
 * first start would make, minutes of the run's two cores saved. A DATA_DIR that already has its database (a
 * restart, a restore) is left as it is.
 */
function seedEmbeddedDatabase(env: Record<string, string>): void {
  const template = process.env.E2E_PG_TEMPLATE;
  if (!template || !env.DATA_DIR || env.DATABASE_URL) return;
  const target = path.join(env.DATA_DIR, 'pg');
  if (fs.existsSync(target)) return;
  fs.mkdirSync(env.DATA_DIR, { recursive: true, mode: 0o700 });
  fs.cpSync(template, target, { recursive: true, filter: (src) => path.basename(src) !== 'strongroom.lock' });
}

/** Makes the migrated embedded database that seedEmbeddedDatabase copies: the CLI migrates and lists nothing to do. */
export function makeDatabaseTemplate(dataDir: string, env: Record<string, string>): string {
  adminCli(['run-job', 'sign-audit-heads', '--dry-run'], { ...env, DATA_DIR: dataDir });
  return path.join(dataDir, 'pg');
}

async function attemptStart(env: Record<string, string>): Promise<{ server?: RunningServer; report: string }> {
  let out = '';
  const child: ChildProcess = spawn(process.execPath, ['server/dist/main.js'], {
    cwd: repoRoot,
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += String(d)));
  child.stderr!.on('data', (d) => (out += String(d)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${env.PORT}`;
  // A first start makes its embedded database (several seconds on a quiet machine); while the unit suites share
  // the two cores it has taken over a minute, so each start is given 100 s (and the hooks' time limit is longer).
  const deadline = Date.now() + 100_000;
  let last: string;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${out}`);
    try {
      const r = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(5_000) });
      if (r.ok) break;
      last = `${r.status} ${await r.text()}`;
    } catch (err) {
      last = String(err);
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await exited;
      return { report: `printed:\n${out}\n/readyz last answered: ${last}` };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    report: '',
    server: {
      url,
      output: () => out,
      stop: () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    },
  };
}

/** A port free on loopback now (the server binds it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export type FirmAdmin = { email: string; name: string; password: string; firm: string };

/**
 * A Strongroom of a test file's own (own DATA_DIR and port, mail to the run's sink), with the firm set up through
 * POST /_api/setup. `env` is what a restart on the same data needs. `options`: a port chosen beforehand, the host
 * name of its address (WebAuthn needs localhost rather than an IP address) and more environment.
 */
export async function startFirmServer(
  dataDir: string,
  admin: FirmAdmin,
  setupToken: string,
  options: { port?: number; host?: string; env?: Record<string, string> } = {},
): Promise<{ server: RunningServer; env: Record<string, string> }> {
  const port = String(options.port ?? (await freePort()));
  const appUrl = `http://${options.host ?? '127.0.0.1'}:${port}`;
  const env = {
    DATA_DIR: dataDir,
    PORT: port,
    APP_URL: appUrl,
    SMTP_URL: process.env.E2E_SMTP_URL!,
    MAIL_FROM: `Strongroom <archive@${admin.email.split('@')[1]}>`,
    SETUP_TOKEN: setupToken,
    ...options.env,
  };
  const server = await startServer(env);
  const res = await fetch(`${server.url}/_api/setup`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: appUrl },
    body: JSON.stringify({
      setupToken,
      organizationName: admin.firm,
      adminName: admin.name,
      adminEmail: admin.email,
      adminPassword: admin.password,
    }),
  });
  if (res.status >= 300) throw new Error(`setup answered ${res.status}: ${await res.text()}`);
  return { server, env };
}

/** Runs the admin CLI of the build (the server must not hold the same DATA_DIR). */
export function adminCli(args: string[], env: Record<string, string>): string {
  const r = spawnSync(process.execPath, ['server/dist/cli.js', ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`CLI failed: ${r.stderr}`);
  return r.stdout.trim();
}
