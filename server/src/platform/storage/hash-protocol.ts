/**
 * The messages between HashPool (hash-pool.ts, main thread) and its worker threads (hash-worker.ts). Types only,
 * so the worker can import them without pulling any module into its thread.
 *
 * Every job has an id unique in its pool. A streaming job is `open`, any number of `data` (each batch is
 * transferred, and comes back in its `ack` for reuse), then `end` (digest) or `drop` (the body failed). A whole
 * file is one `file` message (hash) or one `concat` message (join; its `done` carries the sha256 of the bytes
 * written). Each job is answered once, by `done` or `error`.
 */
export type HashAlgorithm = 'md5' | 'sha256';

export type ToHashWorker =
  /** Starts a streaming hash; with `path`, the bytes also go to that new file (O_EXCL, mode 0600). */
  | { t: 'open'; id: number; alg: HashAlgorithm; path?: string }
  /** The first `len` bytes of `buf` belong to the job. */
  | { t: 'data'; id: number; buf: ArrayBuffer; len: number }
  | { t: 'end'; id: number }
  | { t: 'drop'; id: number }
  /** With `also`, the same read feeds a second hash, answered as `alsoHex`. */
  | { t: 'file'; id: number; alg: HashAlgorithm; path: string; also?: HashAlgorithm }
  | { t: 'concat'; id: number; parts: string[]; path: string };

export type FromHashWorker =
  | { t: 'ack'; id: number; buf: ArrayBuffer }
  | { t: 'done'; id: number; hex: string; size?: number; alsoHex?: string }
  /** `code` is the system error's (ENOENT, EEXIST, ...) when there is one. */
  | { t: 'error'; id: number; message: string; code?: string };
