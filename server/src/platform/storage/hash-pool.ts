/**
 * Hashing off the event loop: a few worker threads that compute MD5 (part ETags) and SHA-256 (whole files).
 *
 * MD5 runs at about 650 MB/s on one core, so hashing a body on the main thread caps an upload near that speed
 * and takes the event loop away from receiving the next bytes; so does writing it 64 KiB at a time. Here the
 * main thread only copies each chunk into a 1 MiB batch and transfers the batch to a worker; the worker hashes
 * it and, for a body being stored, writes it to the file (1 MiB writes, fsync before the digest is answered)
 * while the main thread goes on receiving. Whole files are hashed by a worker reading the file itself, and the
 * parts of a multipart upload are joined into one file by a worker too, which hashes (sha256) what it writes.
 * The workers run hash-worker.ts; the messages between the two sides are typed in hash-protocol.ts.
 *
 *   const job = hashPool.stream('md5');                  // or stream('md5', { file }) to also write the bytes
 *   await job.update(chunk);   // resolves at once unless the worker is behind (backpressure: 4 batches)
 *   const hex = await job.digest();                       // with a file: after its fsync and close
 *   await pipeline(request, job.writable());              // or as a stream's destination
 *   const sha = await hashPool.file('/path/to/object', 'sha256');
 *   const { size, sha256 } = await hashPool.concat(['/part/1', '/part/2'], '/new/file');
 *
 * Memory per streaming job is bounded (at most MAX_BATCHES_IN_FLIGHT x BATCH_SIZE in transit); batches come
 * back to the caller for reuse. Workers are unref'd (they never keep the process alive), start on first use,
 * and a worker that dies fails the jobs it held and is replaced on the next job.
 */
import os from 'node:os';
import { Writable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { FromHashWorker, HashAlgorithm, ToHashWorker } from './hash-protocol.js';

export type { HashAlgorithm } from './hash-protocol.js';

const BATCH_SIZE = 1024 * 1024;
const MAX_BATCHES_IN_FLIGHT = 4;
/** Bodies known to be smaller than this are hashed inline: one message round trip costs more than the hash. */
export const INLINE_HASH_LIMIT = 256 * 1024;

/**
 * The worker's entry. From source (tsx, vitest, the bench) it is hash-worker.ts beside this module, loaded
 * through tsx in the worker too; in the build this module is bundled into dist/main.js (or cli.js, worker.js)
 * and server/build.mjs emits the worker beside it as dist/hash-worker.js.
 */
function workerEntry(): { url: URL; execArgv?: string[] } {
  if (import.meta.url.endsWith('.ts')) {
    return { url: new URL('./hash-worker.ts', import.meta.url), execArgv: ['--import', import.meta.resolve('tsx')] };
  }
  return { url: new URL('./hash-worker.js', import.meta.url) };
}

type Pending = { resolve: (value: { hex: string; size?: number; alsoHex?: string }) => void; reject: (err: Error) => void };
type Slot = { worker: Worker; jobs: number };

/** Every message to a worker goes through here, so its shape is checked against the protocol. */
function post(slot: Slot, message: ToHashWorker, transfer?: ArrayBuffer[]): void {
  slot.worker.postMessage(message, transfer);
}

/** An error the worker raised (a missing file keeps its code, e.g. ENOENT). */
export class HashWorkerError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'HashWorkerError';
  }
}

export class HashPool {
  private readonly slots: (Slot | undefined)[];
  private readonly pending = new Map<number, Pending & { slot: Slot }>();
  private readonly acks = new Map<number, (buf: ArrayBuffer) => void>();
  private nextId = 1;

  constructor(readonly size = Math.max(1, Math.min(4, os.availableParallelism()))) {
    this.slots = new Array<Slot | undefined>(size).fill(undefined);
  }

  /**
   * A streaming hash whose work happens on a worker thread. With `file`, the worker also writes the bytes to that
   * new file (created with O_EXCL, mode 0600) and fsyncs and closes it before digest() resolves.
   */
  stream(alg: HashAlgorithm, opts: { file?: string } = {}): StreamingHash {
    return new StreamingHash(this, alg, opts.file);
  }

  /** Hash of a whole file, read and hashed by a worker (the event loop only waits). */
  async file(filePath: string, alg: HashAlgorithm): Promise<{ hex: string; size: number }> {
    const { id, slot } = this.open();
    const result = this.await(id, slot);
    post(slot, { t: 'file', id, alg, path: filePath });
    const { hex, size } = await result;
    return { hex, size: size ?? 0 };
  }

  /** MD5 and sha256 of a whole file from one read of it, on a worker. */
  async fileHashes(filePath: string): Promise<{ md5: string; sha256: string; size: number }> {
    const { id, slot } = this.open();
    const result = this.await(id, slot);
    post(slot, { t: 'file', id, alg: 'md5', path: filePath, also: 'sha256' });
    const { hex, size, alsoHex } = await result;
    if (!alsoHex) throw new HashWorkerError('the hash worker answered no sha256');
    return { md5: hex, sha256: alsoHex, size: size ?? 0 };
  }

  /**
   * Writes the files one after the other into a new file `target` (O_EXCL, mode 0600) on a worker, with 4 MiB
   * reads and writes, and fsyncs and closes it before resolving with its size and the sha256 of the bytes it
   * wrote (hashed from the very buffers written, so no read-back). On failure the caller removes the file.
   */
  async concat(files: string[], target: string): Promise<{ size: number; sha256: string }> {
    const { id, slot } = this.open();
    const result = this.await(id, slot);
    post(slot, { t: 'concat', id, parts: files, path: target });
    const { hex, size } = await result;
    return { size: size ?? 0, sha256: hex };
  }

  /** @internal */
  open(): { id: number; slot: Slot } {
    let best = 0;
    for (let i = 0; i < this.slots.length; i++) {
      const slot = this.slots[i];
      if (!slot) {
        best = i;
        break;
      }
      if (slot.jobs < this.slots[best]!.jobs) best = i;
    }
    const slot = this.slots[best] ?? this.spawn(best);
    slot.jobs++;
    if (slot.jobs === 1) slot.worker.ref();
    return { id: this.nextId++, slot };
  }

  /** @internal Resolves with the job's digest; the job's slot is released either way. */
  await(id: number, slot: Slot): Promise<{ hex: string; size?: number; alsoHex?: string }> {
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject, slot }));
  }

  /** @internal */
  onAck(id: number, fn: ((buf: ArrayBuffer) => void) | undefined): void {
    if (fn) this.acks.set(id, fn);
    else this.acks.delete(id);
  }

  private release(slot: Slot): void {
    slot.jobs--;
    // Idle workers must not keep the process alive.
    if (slot.jobs === 0) slot.worker.unref();
  }

  private spawn(index: number): Slot {
    const entry = workerEntry();
    const worker = new Worker(entry.url, { execArgv: entry.execArgv, name: `strongroom-hash-${index}` });
    const slot: Slot = { worker, jobs: 0 };
    worker.unref();
    worker.on('message', (m: FromHashWorker) => {
      if (m.t === 'ack') {
        this.acks.get(m.id)?.(m.buf);
        return;
      }
      const pending = this.pending.get(m.id);
      if (!pending) return;
      this.pending.delete(m.id);
      this.acks.delete(m.id);
      this.release(pending.slot);
      if (m.t === 'done') pending.resolve({ hex: m.hex, size: m.size, alsoHex: m.alsoHex });
      else pending.reject(new HashWorkerError(m.message, m.code));
    });
    const fail = (err: Error) => {
      if (this.slots[index] === slot) this.slots[index] = undefined;
      for (const [id, pending] of this.pending) {
        if (pending.slot !== slot) continue;
        this.pending.delete(id);
        this.acks.delete(id);
        pending.reject(err);
      }
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new HashWorkerError(`hash worker exited with code ${code}`)));
    this.slots[index] = slot;
    return slot;
  }
}

/**
 * One streaming hash. `update` copies the chunk (the caller may reuse or pass it on at once) and returns a
 * promise only when the caller should wait: more than MAX_BATCHES_IN_FLIGHT batches are with the worker.
 */
export class StreamingHash {
  private readonly id: number;
  private readonly slot: Slot;
  private readonly result: Promise<{ hex: string; size?: number }>;
  private readonly free: ArrayBuffer[] = [];
  private batch: Buffer | undefined;
  private filled = 0;
  private inFlight = 0;
  private waiter: (() => void) | undefined;
  private failure: Error | undefined;
  private ended = false;

  constructor(pool: HashPool, alg: HashAlgorithm, file?: string) {
    ({ id: this.id, slot: this.slot } = pool.open());
    this.result = pool.await(this.id, this.slot);
    // A failure before digest() must not surface as an unhandled rejection; digest() reports it.
    this.result.catch((err: Error) => {
      this.failure = err;
      this.wake();
    });
    pool.onAck(this.id, (buf) => {
      this.inFlight--;
      this.free.push(buf);
      if (this.inFlight < MAX_BATCHES_IN_FLIGHT) this.wake();
    });
    post(this.slot, { t: 'open', id: this.id, alg, path: file });
  }

  update(chunk: Uint8Array): Promise<void> | undefined {
    if (this.failure) return Promise.reject(this.failure);
    let offset = 0;
    while (offset < chunk.length) {
      if (!this.batch) {
        const reused = this.free.pop();
        this.batch = reused ? Buffer.from(reused) : Buffer.allocUnsafeSlow(BATCH_SIZE);
        this.filled = 0;
      }
      const n = Math.min(chunk.length - offset, BATCH_SIZE - this.filled);
      this.batch.set(chunk.subarray(offset, offset + n), this.filled);
      this.filled += n;
      offset += n;
      if (this.filled === BATCH_SIZE) this.flush();
    }
    if (this.inFlight < MAX_BATCHES_IN_FLIGHT) return undefined;
    return new Promise<void>((resolve, reject) => {
      this.waiter = () => (this.failure ? reject(this.failure) : resolve());
    });
  }

  /**
   * A Writable that feeds this hash (and its file), waiting whenever the worker is behind, and finishes only
   * once the digest is in (for a file: after its fsync). `check` may refuse a chunk (e.g. a body too long).
   */
  writable(check?: (chunk: Buffer) => Error | undefined): Writable {
    return new Writable({
      write: (chunk: Buffer, _enc, done) => {
        const refused = check?.(chunk);
        if (refused) return done(refused);
        const wait = this.update(chunk);
        if (wait) wait.then(() => done(), done);
        else done();
      },
      final: (done) => {
        this.digest().then(() => done(), done);
      },
    });
  }

  async digest(): Promise<string> {
    if (!this.ended) {
      this.ended = true;
      this.flush();
      post(this.slot, { t: 'end', id: this.id });
    }
    const { hex } = await this.result;
    return hex;
  }

  /**
   * Drops the job (the body failed): the worker forgets it and closes its file. Resolves once the worker has
   * answered, so the caller can remove the file knowing the worker will not create or write it afterwards.
   */
  abort(): Promise<void> {
    if (!this.ended) {
      this.ended = true;
      this.batch = undefined;
      post(this.slot, { t: 'drop', id: this.id });
    }
    return this.result.then(
      () => undefined,
      () => undefined,
    );
  }

  private flush(): void {
    if (!this.batch || this.filled === 0) return;
    const buf = this.batch.buffer as ArrayBuffer;
    post(this.slot, { t: 'data', id: this.id, buf, len: this.filled }, [buf]);
    this.inFlight++;
    this.batch = undefined;
    this.filled = 0;
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }
}

/** The process's pool, shared by every store instance. */
export const hashPool = new HashPool();
