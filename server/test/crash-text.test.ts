/**
 * Reading a file's text with a real server process: the server is killed with SIGKILL after the file-text job
 * read a text and before it wrote it (held by the failpoint search.text.after-read, whose log line is the signal
 * to kill). After a restart on the same DATA_DIR the job must take its claim back by itself and write the text,
 * once: one row for the version, indexed, found by a word of it.
 *
 * On the PGlite project the restart takes the job back at start; on the PostgreSQL project once its heartbeat is
 * stale, as for a worker that died while other instances live on.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { DocumentSearchResponse } from '@strongroom/contracts';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createMatter, newOrganization, uploadFile } from './factories.js';
import type { TestApp } from './helpers.js';
import { cleanUp, cookieHeader, request, startServer, serverSetup } from './process-helpers.js';

afterAll(cleanUp);

describe('a server killed while it reads a file’s text', () => {
  it('writes the text after the restart, by itself, exactly once', async () => {
    const { dataDir, base, sink, env } = await serverSetup();
    const reopen = async () => {
      const config = loadConfig({ ...env, LOG_LEVEL: 'silent', JOB_RUNNER: 'off' });
      const built = await buildApp({ config, logger: false });
      return { ...built, sink, config, dataDir, shutdown: async () => undefined } as unknown as TestApp;
    };
    const t = await reopen();
    const admin = await newOrganization(t, 'Crash Text LLP');
    const m = await createMatter(admin.client);
    const words = 'The quindecennial covenant binds the lessee.';
    const file = await uploadFile(t, admin.client, m.id, 'Covenant.txt', Buffer.from(words), null, 'text/plain');
    const cookie = cookieHeader(admin.client);
    await t.close();

    const row = async () => {
      const after = await reopen();
      try {
        return await after.ctx.db.selectFrom('fileTexts').select(['state', 'body', 'attempts']).where('nodeId', '=', file.id).execute();
      } finally {
        await after.close();
      }
    };
    try {
      const first = startServer({ ...env, JOB_RUNNER: 'embedded', FAILPOINTS: 'search.text.after-read=pause(600000,once)' });
      await first.waitFor('Strongroom is ready');
      await first.waitFor('failpoint search.text.after-read reached');
      first.child.kill('SIGKILL');
      await first.exited;

      const second = startServer({ ...env, JOB_RUNNER: 'embedded' });
      await second.waitFor('Strongroom is ready');
      const search = () => request<DocumentSearchResponse>(base, cookie, 'GET', '/_api/search/documents?q=quindecennial');
      await expect.poll(async () => (await search()).json.hits.map((h) => h.nodeId), { timeout: 60_000, interval: 500 }).toEqual([file.id]);
      second.child.kill('SIGTERM');
      await second.exited;
    } finally {
      await sink.close();
    }
    // One row for the one version, indexed with the file's words; read twice (cut short, then again), written once.
    const rows = await row();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'indexed', body: words });
    expect(rows[0]!.attempts).toBe(2);
  }, 120_000);
});
