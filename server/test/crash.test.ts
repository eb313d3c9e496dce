/**
 * Crash safety with a real server process: the server is killed with SIGKILL in the middle of a completion,
 * started again on the same DATA_DIR (local store; the embedded PGlite, or under the PostgreSQL project a fresh
 * copy of the template database), and the retry must finish the upload with the right sha256, leaving no
 * stray object behind. The process helpers are in process-helpers.ts.
 *
 * The preparation (organization, signed-in administrator, matter, the parts of a 30 MiB upload) is done in
 * this process on the same DATA_DIR and port, then that app is closed so the server process can open the
 * data directory. The server is held between joining and hashing by the failpoint upload.after-join, which
 * logs when it is reached: that log line is the signal to kill.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { MultipartCompleteResponse } from '@strongroom/contracts';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createMatter, newOrganization, ok } from './factories.js';
import { LocalBlobStore } from '../src/platform/storage/index.js';
import type { TestApp } from './helpers.js';
import { cleanUp, cookieHeader, post, startServer, storedKeys, serverSetup } from './process-helpers.js';

const MiB = 1024 * 1024;
afterAll(cleanUp);

const filesIn = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);

describe('a server killed mid-completion', () => {
  it('finishes the upload on a retry after the restart, with the sha256 of the stored bytes, and leaves no stray object', async () => {
    const { dataDir, port, base, sink, env } = await serverSetup();

    // Preparation in this process, on the same data directory.
    const config = loadConfig({ ...env, LOG_LEVEL: 'silent', JOB_RUNNER: 'off' });
    const built = await buildApp({ config, logger: false });
    await built.app.listen({ host: '127.0.0.1', port });
    const t = { ...built, sink, config, dataDir, shutdown: async () => undefined } as unknown as TestApp;
    const admin = await newOrganization(t, 'Crash & Co');
    const m = await createMatter(admin.client);
    const parts = [randomBytes(10 * MiB), randomBytes(10 * MiB), randomBytes(10 * MiB)];
    const whole = Buffer.concat(parts);
    const meta = { fileName: 'Evidence.zip', fileType: 'application/zip', matterId: m.id, parentId: null };
    const init = ok(await admin.client.post('/_api/upload/multipart-init', { ...meta, fileSize: whole.length }));
    const etags: string[] = [];
    for (const [i, bytes] of parts.entries()) {
      const signed = ok(
        await admin.client.post('/_api/upload/presigned', { ...meta, partNumber: i + 1, uploadId: init.uploadId, s3Key: init.s3Key }),
      );
      const res = await fetch(signed.url, { method: 'PUT', body: new Uint8Array(bytes) });
      expect(res.status).toBe(200);
      etags.push(res.headers.get('etag')!.replace(/"/g, ''));
    }
    const cookie = cookieHeader(admin.client);
    await built.close();

    const complete = {
      ...meta,
      s3Key: init.s3Key,
      uploadId: init.uploadId,
      fileSize: whole.length,
      parts: etags.map((ETag, i) => ({ PartNumber: i + 1, ETag })),
    };
    try {
      // First run: completion joins the parts, then the hook holds it; the server is killed right there.
      const first = startServer({ ...env, FAILPOINTS: 'upload.after-join=pause(600000)', UPLOAD_COMPLETION_LEASE_SECONDS: '2' });
      await first.waitFor('Strongroom is ready');
      // The chain's head is signed in the background at start; the kill is meant for the completion alone.
      await first.waitFor('audit chain heads signed at start');
      const inFlight = post(base, cookie, '/_api/upload/multipart-complete', complete).catch((err: unknown) => err);
      await first.waitFor('failpoint upload.after-join reached');
      first.child.kill('SIGKILL');
      await first.exited;
      expect(await inFlight).toBeInstanceOf(Error);

      // Second run on the same data directory: the retry takes the dead completion over once its lease is out.
      const second = startServer({ ...env, UPLOAD_COMPLETION_LEASE_SECONDS: '2' });
      await second.waitFor('Strongroom is ready');
      await second.waitFor('audit chain heads signed at start');
      // Until the dead completion's lease runs out the upload is still held (409); then the retry completes it.
      const answer = await vi.waitFor(
        async () => {
          const res = await post<MultipartCompleteResponse>(base, cookie, '/_api/upload/multipart-complete', complete);
          if (res.status === 409) throw new Error('the dead completion still holds the upload');
          return res;
        },
        { timeout: 20_000, interval: 250 },
      );
      expect(answer.status).toBe(200);
      const expectedSha = createHash('sha256').update(whole).digest('hex');
      expect(answer.json.file).toMatchObject({ name: 'Evidence.zip', fileSize: whole.length, sha256Hash: expectedSha });
      // Once more: the same file, nothing new.
      const again = await post<MultipartCompleteResponse>(base, cookie, '/_api/upload/multipart-complete', complete);
      expect(again.json.file.id).toBe(answer.json.file.id);
      second.child.kill('SIGTERM');
      await second.exited;
    } finally {
      await sink.close();
    }

    // The stored bytes are the ones recorded, and nothing else is stored: no second object, no parts, no temp files.
    const store = new LocalBlobStore({ dataDir, appUrl: base });
    expect(await store.sha256(init.s3Key)).toBe(createHash('sha256').update(whole).digest('hex'));
    // The organization's files (signed audit heads and signing keys live under vault/ and are not files).
    expect(storedKeys(dataDir).filter((k) => k.startsWith('org/'))).toEqual([init.s3Key]);
    expect(filesIn(path.join(dataDir, 'objects', '.multipart')).filter((n) => !n.startsWith('.trash-'))).toEqual([]);
    expect(filesIn(path.join(dataDir, 'objects', '.tmp')).filter((n) => !n.endsWith('.json'))).toEqual([]);
  }, 240_000);
});
