import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DELETE_OBJECTS_JOB } from '../src/features/nodes/nodes.jobs.js';
import type { LocalBlobStore } from '../src/platform/storage/index.js';
import { startWorker, WORKER_NEEDS_POSTGRES } from '../src/worker-runtime.js';
import { createOrgWithAdmin, createTestApp, type TestApp } from './helpers.js';

const serverDir = path.resolve(import.meta.dirname, '..');
const onPostgres = process.env.TEST_DB_KIND === 'postgres';
const silent = {
  level: 'silent',
  info() {},
  warn() {},
  error() {},
  debug() {},
  fatal() {},
  trace() {},
  silent() {},
  child: () => silent,
} as never;

describe('worker process', () => {
  if (!onPostgres) {
    // PGlite: one process owns the database, so there is nothing for a worker to share.
    it('refuses to start on the embedded database and says why', () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-worker-'));
      try {
        const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
          cwd: serverDir,
          env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
          encoding: 'utf8',
          timeout: 60_000,
        });
        expect(r.status).toBe(78);
        expect(r.stderr).toContain(WORKER_NEEDS_POSTGRES);
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
    return;
  }

  let t: TestApp;
  beforeAll(async () => {
    // The app enqueues but runs nothing: JOB_RUNNER=off, as app instances run beside workers.
    t = await createTestApp({ JOB_RUNNER: 'off' });
  });
  afterAll(async () => {
    await t.shutdown();
  });

  it('runs the jobs an app with JOB_RUNNER=off enqueued', async () => {
    const store = t.ctx.store as LocalBlobStore;
    const { organizationId } = await createOrgWithAdmin(t);
    const key = `${organizationId}/orphan-object`;
    await store.writeObject(key, Readable.from([Buffer.from('bytes no row points at')]), { length: 22 });
    await t.ctx.jobs.enqueue(t.ctx.db, DELETE_OBJECTS_JOB, { organizationId, keys: [key], reason: 'worker-test' });

    // Nobody runs it yet: an app with JOB_RUNNER=off only enqueues (it never works a queue), and no worker is up.
    expect(t.ctx.jobs.mode).toBe('off');
    expect(await t.ctx.jobs.pendingCount(DELETE_OBJECTS_JOB)).toBe(1);
    expect(await store.head(key)).not.toBeNull();

    // A worker sharing the database and DATA_DIR picks it up.
    const worker = await startWorker({ config: t.config, log: silent, database: t.database, migrate: false });
    try {
      expect(worker.queues).toContain(DELETE_OBJECTS_JOB);
      await vi.waitFor(async () => expect(await store.head(key), 'the worker deleted the object').toBeNull(), {
        timeout: 20_000,
        interval: 200,
      });
      await vi.waitFor(async () => expect(await t.ctx.jobs.pendingCount(DELETE_OBJECTS_JOB)).toBe(0), { timeout: 5000, interval: 100 });
    } finally {
      await worker.close();
    }
  });

  it('starts as a process on PostgreSQL, says it is running, and stops cleanly on SIGTERM', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    const name = `strongroom_w_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: url.toString() });
    await admin.connect();
    await admin.query(`create database ${name}`);
    url.pathname = `/${name}`;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'strongroom-worker-'));
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
        cwd: serverDir,
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: url.toString(), LOG_LEVEL: 'info' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      await vi.waitFor(() => expect(out).toContain('Strongroom worker is running'), { timeout: 60_000, interval: 200 });
      const running = JSON.parse(out.split('\n').find((l) => l.includes('Strongroom worker is running'))!);
      expect(running.queues).toContain(DELETE_OBJECTS_JOB);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(out).toContain('worker stopped');
      // It migrated the empty database it was given, pg-boss's queue tables included.
      const db = new pg.Client({ connectionString: url.toString() });
      await db.connect();
      try {
        const { rows } = await db.query(`select to_regclass('public.organizations') as orgs, to_regclass('pgboss.job') as jobs`);
        expect(rows[0]).toEqual({ orgs: 'organizations', jobs: 'pgboss.job' });
      } finally {
        await db.end();
      }
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
