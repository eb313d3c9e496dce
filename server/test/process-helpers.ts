/**
 * Real server processes for crash tests: started with `node --import tsx src/main.ts` on a given DATA_DIR,
 * their output collected so a test can wait for a log line (a failpoint's signal) before killing them.
 * Every process started here is killed, and every directory and database made here removed, by cleanUp().
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { Client } from './helpers.js';
import { freePort } from './factories.js';
import { startSmtpSink } from './smtp-sink.js';

const serverDir = path.resolve(import.meta.dirname, '..');
const children: ChildProcess[] = [];
const dirs: string[] = [];
const cleanups: Array<() => Promise<void>> = [];

export type ServerProcess = {
  child: ChildProcess;
  output: () => string;
  /** Resolves once the text is in the output; rejects if the process exits first or after timeoutMs. */
  waitFor(text: string | RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<unknown>;
};

/** Starts the server (JOB_RUNNER=off and the embedded PGlite unless env says otherwise). */
export function startServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'info', JOB_RUNNER: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  const listeners = new Set<() => void>();
  const onData = (d: Buffer) => {
    out += String(d);
    for (const l of listeners) l();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return {
    child,
    output: () => out,
    exited,
    waitFor(text, timeoutMs = 45_000) {
      const seen = () => (typeof text === 'string' ? out.includes(text) : text.test(out));
      return new Promise<void>((resolve, reject) => {
        if (seen()) return resolve();
        const timer = setTimeout(() => reject(new Error(`no ${String(text)} in the server output:\n${out}`)), timeoutMs);
        const check = () => {
          if (!seen()) return;
          clearTimeout(timer);
          listeners.delete(check);
          resolve();
        };
        listeners.add(check);
        child.on('exit', () => {
          if (seen()) return;
          clearTimeout(timer);
          reject(new Error(`the server exited before ${String(text)}:\n${out}`));
        });
      });
    },
  };
}

/** A fresh temporary DATA_DIR, removed by cleanUp(). */
function tempDataDir(prefix = 'strongroom-crash-'): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/**
 * The database the server processes of this test run use: the embedded PGlite in DATA_DIR (no variable), or
 * under the PostgreSQL project a fresh copy of the migrated template (DATABASE_URL), dropped by cleanUp().
 */
async function serverDatabaseEnv(): Promise<Record<string, string>> {
  if (process.env.TEST_DB_KIND !== 'postgres') return {};
  const url = new URL(process.env.TEST_DATABASE_URL!);
  const name = `strongroom_p_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  await admin.query(`create database ${name} template ${inject('pgTemplate')}`);
  cleanups.push(async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  url.pathname = `/${name}`;
  return { DATABASE_URL: url.toString() };
}

/** Kills what is still running, then removes the directories and databases. For afterAll. */
export async function cleanUp(): Promise<void> {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await Promise.all(
    children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => c.once('exit', r)) : undefined)),
  );
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  for (const f of cleanups.splice(0)) await f();
}

/** The Cookie header of a signed-in test client, for real HTTP requests to a server process. */
export const cookieHeader = (client: Client) => [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

/**
 * A real HTTP request with the given cookies; answers the status and the JSON body (null if none), typed as the
 * caller expects it (the caller checks the status before trusting the shape).
 */
export async function request<T = unknown>(
  base: string,
  cookie: string,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
): Promise<{ status: number; json: T }> {
  const res = await fetch(base + url, {
    method,
    headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json().catch(() => null)) as T };
}

export const post = <T = unknown>(base: string, cookie: string, url: string, body: unknown) => request<T>(base, cookie, 'POST', url, body);

/** Every stored object (key) under DATA_DIR/objects, leaving out the store's own folders. */
export function storedKeys(dataDir: string): string[] {
  const root = path.join(dataDir, 'objects');
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else found.push(path.relative(root, full).split(path.sep).join('/'));
    }
  };
  if (fs.existsSync(root)) walk(root);
  return found;
}

/** A data directory, a free port, a mail sink and the environment a server process on them needs. */
export async function serverSetup() {
  const dataDir = tempDataDir();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const sink = await startSmtpSink();
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    APP_URL: base,
    SMTP_URL: sink.url,
    NODE_ENV: 'test',
    ...(await serverDatabaseEnv()),
  };
  return { dataDir, port, base, sink, env };
}

const repoRoot = path.resolve(import.meta.dirname, '../..');

/** Runs `npm run verify-certificate` as a third party would: a separate process with no server and no database. */
export function verifyCertificateCli(...args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'scripts/verify-certificate.mjs', ...args], { cwd: repoRoot, encoding: 'utf8' });
}
