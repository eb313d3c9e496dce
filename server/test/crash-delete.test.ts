/**
 * Durable jobs with a real server process: a folder of 20 files is deleted (to the recycle bin, whose days are
 * then over), the bin-purge job empties it, and the server is killed with SIGKILL while the delete-objects job it
 * queued runs (held after the first object by the failpoint
 * nodes.delete.after-object, whose log line is the signal to kill). After a restart on the same DATA_DIR the job
 * must run again by itself, soon: every object of the folder gone, the other files of the
 * matter intact and downloadable, the job completed once.
 *
 * On the PGlite project the server runs on the embedded PGlite in DATA_DIR (the restart takes the job back at
 * start); on the PostgreSQL project on a fresh copy of the template database (the job is taken back once its
 * heartbeat is stale, as for a worker that died while other instances live on).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import type { DownloadUrlResponse, ErrorResponse, MatterDetailResponse } from '@strongroom/contracts';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createFolder, createMatter, newOrganization, sha256, uploadFile } from './factories.js';
import type { TestApp } from './helpers.js';
import { cleanUp, cookieHeader, request, startServer, storedKeys, serverSetup } from './process-helpers.js';

afterAll(cleanUp);

type StoredFile = { id: string; storagePath: string; bytes: Buffer };

describe('a server killed while it deletes the objects of a deleted folder', () => {
  it('deletes the rest after the restart, by itself and soon, and leaves the other files intact', async () => {
    const { dataDir, base, sink, env } = await serverSetup();
    const reopen = async () => {
      const config = loadConfig({ ...env, LOG_LEVEL: 'silent', JOB_RUNNER: 'off' });
      const built = await buildApp({ config, logger: false });
      return { ...built, sink, config, dataDir, shutdown: async () => undefined } as unknown as TestApp;
    };

    // Preparation in this process, on the same database and data directory: a matter with a folder
    // (20 files, some in a subfolder) and three files elsewhere.
    const t = await reopen();
    const admin = await newOrganization(t, 'Crash Delete LLP');
    const m = await createMatter(admin.client);
    const folder = await createFolder(admin.client, m.id, 'Discovery');
    const sub = await createFolder(admin.client, m.id, 'Depositions', folder.id);
    const other = await createFolder(admin.client, m.id, 'Pleadings');
    const store = async (name: string, parentId: string | null): Promise<StoredFile> => {
      const bytes = randomBytes(512 + Math.floor(Math.random() * 2048));
      const file = await uploadFile(t, admin.client, m.id, name, bytes, parentId);
      return { id: file.id, storagePath: file.storagePath, bytes };
    };
    const doomed: StoredFile[] = [];
    for (let i = 0; i < 20; i++) doomed.push(await store(`Exhibit ${i + 1}.pdf`, i < 14 ? folder.id : sub.id));
    const kept = [await store('Complaint.pdf', other.id), await store('Answer.pdf', other.id), await store('Engagement letter.pdf', null)];
    const cookie = cookieHeader(admin.client);
    // Deleted now, its days in the bin over, and the day's bin-purge run queued for the server to take.
    const deleted = await admin.client.post('/_api/nodes/delete', { nodeId: folder.id });
    expect(deleted.json()).toMatchObject({ success: true, deletedCount: 22 });
    await t.ctx.db
      .updateTable('binEntries')
      .set({ purgeAfter: new Date(Date.now() - 1000) })
      .execute();
    await t.ctx.jobs.enqueue(t.ctx.db, 'bin-purge', {});
    await t.close();

    const doomedKeys = doomed.map((f) => f.storagePath);
    const keptKeys = kept.map((f) => f.storagePath).sort();
    const stillStored = () => {
      const stored = new Set(storedKeys(dataDir));
      return doomedKeys.filter((k) => stored.has(k));
    };
    expect(stillStored()).toHaveLength(20);

    try {
      // First run: the bin is emptied; the job deletes one object and is held there; the server is killed.
      const first = startServer({ ...env, JOB_RUNNER: 'embedded', FAILPOINTS: 'nodes.delete.after-object=pause(600000,once)' });
      await first.waitFor('Strongroom is ready');
      await first.waitFor('failpoint nodes.delete.after-object reached');
      first.child.kill('SIGKILL');
      await first.exited;
      const killedAt = Date.now();
      expect(stillStored()).toHaveLength(19);

      // Second run on the same data: the job runs again without anyone asking, within 30 seconds of the kill.
      const second = startServer({ ...env, JOB_RUNNER: 'embedded' });
      await second.waitFor('Strongroom is ready');
      await expect.poll(stillStored, { timeout: Math.max(1000, killedAt + 30_000 - Date.now()), interval: 200 }).toEqual([]);

      // The rows are gone, the other files are there and download with their bytes.
      const detail = await request<MatterDetailResponse>(base, cookie, 'GET', `/_api/matters/detail?matterId=${m.id}`);
      expect(detail.status).toBe(200);
      const ids: string[] = [];
      const walk = (nodes: MatterDetailResponse['nodes']) => {
        for (const n of nodes) {
          ids.push(n.id);
          walk(n.children);
        }
      };
      walk(detail.json.nodes);
      expect(ids.sort()).toEqual([other.id, ...kept.map((f) => f.id)].sort());
      for (const f of kept) {
        const link = await request<DownloadUrlResponse>(base, cookie, 'GET', `/_api/nodes/download-url?nodeId=${f.id}`);
        expect(link.status).toBe(200);
        const res = await fetch(new URL(link.json.url, base));
        expect(res.status).toBe(200);
        expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(f.bytes));
      }
      const gone = await request<ErrorResponse>(base, cookie, 'GET', `/_api/nodes/download-url?nodeId=${doomed[0]!.id}`);
      expect(gone.status).toBe(404);
      expect(gone.json.error).toBe('Item not found.');

      second.child.kill('SIGTERM');
      await second.exited;
    } finally {
      await sink.close();
    }

    // Nothing else was deleted and nothing stray is left: exactly the kept files' objects remain.
    expect(
      storedKeys(dataDir)
        .filter((k) => k.startsWith('org/'))
        .sort(),
    ).toEqual(keptKeys);
    const after = await reopen();
    try {
      const rows = await after.ctx.db.selectFrom('nodes').select('id').where('matterId', '=', m.id).execute();
      expect(rows.map((r) => r.id).sort()).toEqual([other.id, ...kept.map((f) => f.id)].sort());
      // One deletion, audited once; one job, which ran twice (cut short, then again) and then completed.
      const audits = await after.ctx.db
        .selectFrom('auditLogs')
        .select('targetId')
        .where('action', '=', 'DELETE_NODE')
        .where('organizationId', '=', admin.organizationId)
        .execute();
      expect(audits).toEqual([{ targetId: folder.id }]);
      const { rows: jobs } = await sql<{
        state: string;
        retry_count: number;
      }>`select state, retry_count from pgboss.job where name = 'delete-objects'`.execute(after.ctx.db.withoutPlugins());
      expect(jobs).toEqual([{ state: 'completed', retry_count: 1 }]);
    } finally {
      await after.close();
    }
  }, 240_000);
});
