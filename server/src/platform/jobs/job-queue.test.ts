import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { logOptions } from '../../app.js';
import { createTestApp, testDatabase, type TestApp } from '../../../test/helpers.js';
import { createMatter, newOrganization, ok, uploadFile } from '../../../test/factories.js';
import type { DatabaseHandle } from '../db/database.js';
import { JobQueue } from './job-queue.js';

const quiet = { error: () => undefined, warn: () => undefined, info: () => undefined };

describe('JobQueue (runner off, driven by runDueJobs)', () => {
  let h: DatabaseHandle;
  let queue: JobQueue;
  const seen: Array<{ n: number }> = [];
  let failNext = false;
  beforeAll(async () => {
    h = await testDatabase();
    queue = new JobQueue(h, { mode: 'off', backend: h.kind, log: quiet });
    queue.define<{ n: number }>({
      name: 'record',
      handler: async (data) => {
        if (failNext) {
          failNext = false;
          throw new Error('boom');
        }
        seen.push(data);
      },
    });
    await queue.start();
  });
  afterAll(async () => {
    await queue.stop();
    await h.close();
  });

  it('enqueues with the transaction: a rolled-back change leaves no job, a committed one does', async () => {
    await expect(
      h.db.transaction().execute(async (trx) => {
        await queue.enqueue(trx, 'record', { n: 1 });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await queue.pendingCount('record')).toBe(0);
    await h.db.transaction().execute(async (trx) => {
      // The app's own statements and the job share the transaction.
      await sql`select 1`.execute(trx);
      await queue.enqueue(trx, 'record', { n: 2 });
    });
    expect(await queue.pendingCount('record')).toBe(1);
    expect(await queue.runDueJobs()).toEqual({ completed: 1, failed: 0 });
    expect(seen).toEqual([{ n: 2 }]);
    expect(await queue.pendingCount('record')).toBe(0);
    expect(await queue.runDueJobs()).toEqual({ completed: 0, failed: 0 });
  });

  it('keeps a failed job for a later retry instead of running it again at once', async () => {
    failNext = true;
    await queue.enqueue(h.db, 'record', { n: 3 });
    expect(await queue.runDueJobs()).toEqual({ completed: 0, failed: 1 });
    expect(await queue.pendingCount('record')).toBe(1);
    expect(seen).not.toContainEqual({ n: 3 });
  });

  it('refuses unknown jobs and definitions after the start', async () => {
    await expect(queue.enqueue(h.db, 'nope', {})).rejects.toThrow(/Unknown job/);
    expect(() => queue.define({ name: 'late', handler: async () => undefined })).toThrow(/after the queue started/);
  });
});

describe('a job left running by a process that died', () => {
  it('runs again as soon as the next process starts on PGlite (its only owner); on PostgreSQL a live worker keeps it', async () => {
    const h = await testDatabase();
    const runs: Array<{ runner: string; retryCount: number }> = [];
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    // The first runner takes the job and never finishes it while the test watches (as a killed process).
    const first = new JobQueue(h, { mode: 'off', backend: h.kind, log: quiet });
    first.define({
      name: 'long',
      retryDelaySeconds: 1,
      handler: async (_data, meta) => {
        runs.push({ runner: 'first', retryCount: meta.retryCount });
        started();
        await held;
      },
    });
    await first.start();
    await first.enqueue(h.db, 'long', {});
    const firstRun = first.runDueJobs();
    await running;

    const next = new JobQueue(h, { mode: 'off', backend: h.kind, log: quiet });
    next.define({
      name: 'long',
      retryDelaySeconds: 1,
      handler: async (_data, meta) => void runs.push({ runner: 'next', retryCount: meta.retryCount }),
    });
    await next.start();
    const jobState = async () =>
      (
        await sql<{ state: string; retry_count: number }>`select state, retry_count from pgboss.job where name = 'long'`.execute(
          h.db.withoutPlugins(),
        )
      ).rows;
    try {
      if (h.kind === 'pglite') {
        // Taken back at the start, counted as an attempt, and run after the queue's retry delay.
        expect(await jobState()).toEqual([{ state: 'retry', retry_count: 0 }]);
        await vi.waitFor(async () => expect((await next.runDueJobs()).completed).toBe(1), { timeout: 10_000, interval: 100 });
        expect(runs).toEqual([
          { runner: 'first', retryCount: 0 },
          { runner: 'next', retryCount: 1 },
        ]);
      } else {
        // Another worker may be alive and heartbeating: the start leaves its job alone.
        expect(await next.runDueJobs()).toEqual({ completed: 0, failed: 0 });
        expect(await jobState()).toEqual([{ state: 'active', retry_count: 0 }]);
        expect(runs).toEqual([{ runner: 'first', retryCount: 0 }]);
      }
      // The first runner's late end settles only its own attempt: on PGlite the job stays completed by the retry.
      release();
      await firstRun;
      expect(await jobState()).toEqual([{ state: 'completed', retry_count: h.kind === 'pglite' ? 1 : 0 }]);
    } finally {
      release();
      await first.stop();
      await next.stop();
      await h.close();
    }
  });
});

describe('embedded runner', () => {
  let t: TestApp;
  const problems: string[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _enc, cb) {
        const line = String(chunk);
        if (JSON.parse(line).level >= 40) problems.push(line);
        cb();
      },
    });
    t = await createTestApp({ JOB_RUNNER: 'embedded' }, { loggerInstance: pino(logOptions('info'), stream) });
  });
  afterAll(() => t.shutdown());

  it('deletes the objects of a file emptied from the recycle bin by itself, shortly after the commit', async () => {
    const admin = await newOrganization(t);
    const m = await createMatter(admin.client);
    const file = await uploadFile(t, admin.client, m.id, 'gone.pdf', Buffer.from('soon gone'));
    ok(await admin.client.post('/_api/nodes/delete', { nodeId: file.id }));
    // Its days in the bin pass and the bin's job runs, which queues the objects' deletion.
    await sql`update bin_entries set purge_after = now() - interval '1 day' where node_id = ${file.id}`.execute(t.ctx.db);
    await t.ctx.jobs.enqueue(t.ctx.db, 'bin-purge', {});
    expect((await t.ctx.jobs.runDueJobs(['bin-purge'])).completed).toBe(1);
    // The object goes first and the job is marked completed just after, so both are awaited.
    await vi.waitFor(
      async () => {
        expect(await t.ctx.store.head(file.storagePath), 'the embedded runner deleted the object').toBeNull();
        expect(await t.ctx.jobs.pendingCount('delete-objects')).toBe(0);
      },
      { timeout: 20_000, interval: 200 },
    );
  });

  it('runs pg-boss maintenance and schedules through the app pool without errors or warnings', async () => {
    // Supervision and the cron pass start with the runner: each stamps its pass in pg-boss's own tables, and
    // those stamps are what this waits for (the queues' maintenance and the scheduler's last tick).
    await vi.waitFor(
      async () => {
        const { rows } = await sql<{ maintained: number; cronOn: Date | null }>`
          select (select count(*)::int from pgboss.queue where maintain_on is not null) as maintained,
                 (select cron_on from pgboss.version limit 1) as "cronOn"`.execute(t.ctx.db);
        expect(rows[0]?.maintained, 'a queue maintenance pass').toBeGreaterThan(0);
        expect(rows[0]?.cronOn, 'a scheduler pass').not.toBeNull();
      },
      { timeout: 60_000, interval: 250 },
    );
    expect(problems).toEqual([]);
  });
});
