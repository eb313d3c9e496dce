import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HashPool, HashWorkerError } from './hash-pool.js';

const hex = (alg: string, ...chunks: Buffer[]) => {
  const h = createHash(alg);
  for (const c of chunks) h.update(c);
  return h.digest('hex');
};

/** Feeds chunks as a stream would: waiting whenever update() asks to. */
async function feed(job: { update(c: Uint8Array): Promise<void> | undefined }, chunks: Buffer[]) {
  for (const c of chunks) await job.update(c);
}

describe('HashPool', () => {
  const pool = new HashPool(2);
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'sr-hash-'));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('streams md5 and sha256 across batch boundaries, whatever the chunk sizes', async () => {
    // 3.5 MiB in uneven chunks: some batches fill across chunks, one chunk spans a whole batch.
    const chunks = [randomBytes(1), randomBytes(65_536), randomBytes(1024 * 1024 + 7), randomBytes(2 * 1024 * 1024), randomBytes(300_000)];
    const [md5, sha] = [pool.stream('md5'), pool.stream('sha256')];
    await Promise.all([feed(md5, chunks), feed(sha, chunks)]);
    expect(await md5.digest()).toBe(hex('md5', ...chunks));
    expect(await sha.digest()).toBe(hex('sha256', ...chunks));
  });

  it("answers a file's MD5 and sha256 from one read, across read blocks, and an empty file's too", async () => {
    const body = randomBytes(9 * 1024 * 1024 + 3); // more than two 4 MiB read blocks
    const file = path.join(dir, 'both');
    await fs.writeFile(file, body);
    expect(await pool.fileHashes(file)).toEqual({ md5: hex('md5', body), sha256: hex('sha256', body), size: body.length });
    const empty = path.join(dir, 'empty');
    await fs.writeFile(empty, '');
    expect(await pool.fileHashes(empty)).toEqual({ md5: hex('md5'), sha256: hex('sha256'), size: 0 });
    await expect(pool.fileHashes(path.join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('hashes an empty body', async () => {
    const job = pool.stream('md5');
    expect(await job.digest()).toBe(hex('md5'));
  });

  it('writes the bytes to a new file with mode 0600 and answers after the file is complete', async () => {
    const file = path.join(dir, 'part-1');
    const chunks = Array.from({ length: 40 }, () => randomBytes(256 * 1024)); // 10 MiB, more than 4 batches
    const job = pool.stream('md5', { file });
    await feed(job, chunks);
    expect(await job.digest()).toBe(hex('md5', ...chunks));
    const stored = await fs.readFile(file);
    expect(stored.equals(Buffer.concat(chunks))).toBe(true);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });

  it('refuses to overwrite an existing file and reports it from digest', async () => {
    const file = path.join(dir, 'exists');
    await fs.writeFile(file, 'keep me');
    const job = pool.stream('md5', { file });
    await expect(feed(job, [randomBytes(2 * 1024 * 1024)]).then(() => job.digest())).rejects.toMatchObject({ code: 'EEXIST' });
    expect(await fs.readFile(file, 'utf8')).toBe('keep me');
  });

  it('abort closes the file before it resolves, so the caller can remove it for good', async () => {
    const file = path.join(dir, 'aborted');
    const job = pool.stream('md5', { file });
    await job.update(randomBytes(3 * 1024 * 1024));
    await job.abort();
    await fs.rm(file, { force: true });
    // Give the worker every chance to (wrongly) write again.
    await new Promise((r) => setTimeout(r, 50));
    await expect(fs.stat(file)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('keeps at most a few batches in flight: update asks the caller to wait', async () => {
    const job = pool.stream('md5');
    let waits = 0;
    for (let i = 0; i < 64; i++) {
      const wait = job.update(randomBytes(1024 * 1024));
      if (wait) {
        waits++;
        await wait;
      }
    }
    await job.digest();
    expect(waits).toBeGreaterThan(0);
  });

  it('hashes a whole file on a worker, and reports a missing one with its code', async () => {
    const file = path.join(dir, 'whole');
    const bytes = randomBytes(5 * 1024 * 1024 + 3);
    await fs.writeFile(file, bytes);
    expect(await pool.file(file, 'sha256')).toEqual({ hex: hex('sha256', bytes), size: bytes.length });
    const missing = pool.file(path.join(dir, 'nope'), 'sha256');
    await expect(missing).rejects.toBeInstanceOf(HashWorkerError);
    await expect(missing).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('joins files into a new one in order with the sha256 of the bytes written, and refuses a missing part or an existing target', async () => {
    const parts = [randomBytes(5 * 1024 * 1024), randomBytes(1), randomBytes(4 * 1024 * 1024 + 9)];
    const files = await Promise.all(
      parts.map(async (bytes, i) => {
        const file = path.join(dir, `join-${i}`);
        await fs.writeFile(file, bytes);
        return file;
      }),
    );
    const target = path.join(dir, 'joined');
    expect(await pool.concat(files, target)).toEqual({
      size: parts.reduce((n, b) => n + b.length, 0),
      sha256: hex('sha256', Buffer.concat(parts)),
    });
    expect((await fs.readFile(target)).equals(Buffer.concat(parts))).toBe(true);
    await expect(pool.concat(files, target)).rejects.toMatchObject({ code: 'EEXIST' });
    await expect(pool.concat([files[0]!, path.join(dir, 'missing')], path.join(dir, 'joined-2'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('fails the jobs of a worker that dies, and starts a new worker from its file for the next job', async () => {
    const single = new HashPool(1);
    const doomed = single.stream('md5');
    await doomed.update(randomBytes(2 * 1024 * 1024));
    const { slots } = single as unknown as { slots: [{ worker: Worker }] };
    await slots[0].worker.terminate();
    await expect(doomed.digest()).rejects.toBeInstanceOf(HashWorkerError);
    const body = randomBytes(3 * 1024 * 1024 + 5);
    const next = single.stream('md5');
    await feed(next, [body]);
    expect(await next.digest()).toBe(hex('md5', body));
  });

  it('runs many jobs at once on its few workers and gets every digest right', async () => {
    const bodies = Array.from({ length: 12 }, (_, i) => randomBytes(200_000 + i * 150_001));
    const digests = await Promise.all(
      bodies.map(async (b) => {
        const job = pool.stream('md5');
        await feed(job, [b.subarray(0, 70_000), b.subarray(70_000)]);
        return job.digest();
      }),
    );
    expect(digests).toEqual(bodies.map((b) => hex('md5', b)));
  });
});
