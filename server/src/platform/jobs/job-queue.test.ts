import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { logOptions } from '../../app.js';
import { createTestApp, testDatabase, type TestApp } from '../../../test/helpers.js';
import { createMatter, newOrganization, ok, uploadFile } from '../../features/matters/matter-fixtures.js';
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

  it('deletes the objects of a deleted file by itself, shortly after the commit', async () => {
    const admin = await newOrganization(t);
    const m = await createMatter(admin.client);
    const file = await uploadFile(t, admin.client, m.id, 'gone.pdf', Buffer.from('soon gone'));
    ok(await admin.client.post('/_api/nodes/delete', { nodeId: file.id }));
    const deadline = Date.now() + 20_000;
    while ((await t.ctx.store.head(file.storagePath)) !== null) {
      if (Date.now() > deadline) throw new Error('the embedded runner did not delete the object');
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(await t.ctx.jobs.pendingCount('delete-objects')).toBe(0);
  });

  it('runs pg-boss maintenance and schedules through the app pool without errors or warnings', async () => {
    // Supervision, the cron pass and background migrations start with the runner; give them a moment.
    await new Promise((r) => setTimeout(r, 1500));
    expect(problems).toEqual([]);
  });
});
