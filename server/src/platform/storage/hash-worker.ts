/**
 * One hash worker thread, started by HashPool (hash-pool.ts). It hashes the batches the main thread transfers,
 * writes them to the job's file when there is one, reads and hashes whole files, and joins files while hashing
 * the bytes it writes, so none of that work runs on the event loop. It imports nothing but Node's own modules
 * (and types), so it runs as its own entry: from source under tsx, and as dist/hash-worker.js in the build
 * (server/build.mjs).
 */
import { createHash, type Hash } from 'node:crypto';
import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { parentPort, type MessagePort } from 'node:worker_threads';
import type { FromHashWorker, ToHashWorker } from './hash-protocol.js';

/** Whole-file reads and writes go in blocks of this size. */
const READ_SIZE = 4 * 1024 * 1024;

type StreamJob = { hash: Hash; fd: number | undefined; size: number };

function mainThread(): MessagePort {
  if (!parentPort) throw new Error('hash-worker runs only as a worker thread of HashPool');
  return parentPort;
}

const port = mainThread();
const jobs = new Map<number, StreamJob>();

function send(message: FromHashWorker, transfer?: ArrayBuffer[]): void {
  port.postMessage(message, transfer);
}

function errorMessage(id: number, err: unknown): FromHashWorker {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const message = err instanceof Error ? err.message : String(err);
  return { t: 'error', id, message, code: typeof code === 'string' ? code : undefined };
}

/** Closes a file this worker opened; a failed close changes nothing for a job that is already being answered. */
function closeQuietly(fd: number | undefined): void {
  if (fd === undefined) return;
  try {
    fs.closeSync(fd);
  } catch {
    // The job is answered (failed or dropped) either way.
  }
}

function fail(id: number, err: unknown): void {
  const job = jobs.get(id);
  jobs.delete(id);
  closeQuietly(job?.fd);
  send(errorMessage(id, err));
}

// Whole-file jobs read and write through the libuv pool, 4 MiB at a time, so this worker goes on serving the
// batches of other uploads between blocks instead of stalling them for the length of a large file.
async function hashFile(m: Extract<ToHashWorker, { t: 'file' }>): Promise<void> {
  const hash = createHash(m.alg);
  const also = m.also ? createHash(m.also) : null;
  const buf = Buffer.allocUnsafe(READ_SIZE);
  const fh = await fs.promises.open(m.path, 'r');
  let size = 0;
  try {
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, READ_SIZE, null);
      if (bytesRead === 0) break;
      hash.update(buf.subarray(0, bytesRead));
      also?.update(buf.subarray(0, bytesRead));
      size += bytesRead;
    }
  } finally {
    await fh.close();
  }
  send({ t: 'done', id: m.id, hex: hash.digest('hex'), size, ...(also ? { alsoHex: also.digest('hex') } : {}) });
}

/**
 * Joins the parts into the new file and answers the sha256 of exactly the bytes it wrote, fsynced: each block is
 * hashed from the same buffer the write takes, while that write runs on the libuv pool, and the buffer is read
 * into again only once the write is done. So the digest is that of the file's content, with no read-back.
 */
async function concat(m: Extract<ToHashWorker, { t: 'concat' }>): Promise<void> {
  const hash = createHash('sha256');
  const buf = Buffer.allocUnsafe(READ_SIZE);
  const out = await fs.promises.open(m.path, 'wx', 0o600);
  let size = 0;
  try {
    for (const part of m.parts) {
      const fh = await fs.promises.open(part, 'r');
      try {
        for (;;) {
          const { bytesRead } = await fh.read(buf, 0, READ_SIZE, null);
          if (bytesRead === 0) break;
          const block = buf.subarray(0, bytesRead);
          const written = writeAll(out, block);
          hash.update(block);
          await written;
          size += bytesRead;
        }
      } finally {
        await fh.close();
      }
    }
    await out.sync();
  } finally {
    await out.close();
  }
  send({ t: 'done', id: m.id, hex: hash.digest('hex'), size });
}

async function writeAll(out: FileHandle, block: Buffer): Promise<void> {
  let off = 0;
  while (off < block.length) off += (await out.write(block, off, block.length - off)).bytesWritten;
}

function open(m: Extract<ToHashWorker, { t: 'open' }>): void {
  const fd = m.path === undefined ? undefined : fs.openSync(m.path, 'wx', 0o600);
  jobs.set(m.id, { hash: createHash(m.alg), fd, size: 0 });
}

function data(m: Extract<ToHashWorker, { t: 'data' }>): void {
  const job = jobs.get(m.id);
  // A failed job was already answered; its remaining batches are dropped (but still handed back).
  if (job) {
    const bytes = new Uint8Array(m.buf, 0, m.len);
    job.hash.update(bytes);
    if (job.fd !== undefined) {
      let off = 0;
      while (off < bytes.length) off += fs.writeSync(job.fd, bytes, off, bytes.length - off);
    }
    job.size += m.len;
  }
  send({ t: 'ack', id: m.id, buf: m.buf }, [m.buf]);
}

function end(m: Extract<ToHashWorker, { t: 'end' }>): void {
  const job = jobs.get(m.id);
  if (!job) return;
  const hex = job.hash.digest('hex');
  const fd = job.fd;
  if (fd === undefined) {
    jobs.delete(m.id);
    send({ t: 'done', id: m.id, hex, size: job.size });
    return;
  }
  // fsync on the libuv pool: this worker goes on hashing other bodies meanwhile. The digest is answered only
  // once the bytes are on disk and the file is closed.
  fs.fsync(fd, (err) => {
    if (err) return fail(m.id, err);
    jobs.delete(m.id);
    try {
      fs.closeSync(fd);
    } catch (closeErr) {
      return send(errorMessage(m.id, closeErr));
    }
    send({ t: 'done', id: m.id, hex, size: job.size });
  });
}

/** Forgets the job and closes its file, then answers, so the caller may remove the file for good. */
function drop(m: Extract<ToHashWorker, { t: 'drop' }>): void {
  const job = jobs.get(m.id);
  jobs.delete(m.id);
  closeQuietly(job?.fd);
  send({ t: 'done', id: m.id, hex: '', size: 0 });
}

port.on('message', (m: ToHashWorker) => {
  try {
    switch (m.t) {
      case 'open':
        return open(m);
      case 'data':
        return data(m);
      case 'end':
        return end(m);
      case 'drop':
        return drop(m);
      case 'concat':
        return void concat(m).catch((err: unknown) => fail(m.id, err));
      case 'file':
        return void hashFile(m).catch((err: unknown) => fail(m.id, err));
    }
  } catch (err) {
    fail(m.id, err);
  }
});
