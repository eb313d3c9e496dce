// Upload throughput: a multipart upload (10 MiB parts, 5 in flight) through the real app on 127.0.0.1 with the
// local store (in a child process, bench/lib/upload-server-child.ts), against writing the same bytes to the same
// filesystem with fs streams in this process.
import { createHash, randomFillSync } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { api } from '../lib/api-client.js';
import { envInt, fmt, median } from '../lib/stats.js';
import type { RssWindow, UploadServerInfo } from '../lib/upload-server-child.js';
import type { Scenario } from '../lib/types.js';

const MiB = 1024 * 1024;
const PART = 10 * MiB;
const PARALLEL = 5;
/** MB/s with MB = 10^6 bytes (as disks and networks are quoted); the report says so. */
const mbps = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);
const mib = (bytes: number) => fmt(bytes / MiB, 1);

type Round = { uploadMs: number; completeMs: number; totalMs: number; rssStart: number; rssPeak: number; samples: number; sha256: string };
type BaseRound = { writeMs: number; readHashMs: number; discardMs: number; fileMs: number };

/** Part bytes: a fixed random buffer with the part number written over its first 8 bytes (cheap, parts differ). */
function fillPart(buf: Buffer, base: Buffer, partNumber: number, size: number): Uint8Array<ArrayBuffer> {
  base.copy(buf, 0, 0, size);
  buf.writeBigUInt64BE(BigInt(partNumber), 0);
  return new Uint8Array(buf.buffer as ArrayBuffer, buf.byteOffset, size);
}

/**
 * The part PUT. BENCH_UPLOAD_CLIENT=http (default): node:http with a keep-alive agent of 5 sockets, the lightest
 * client Node has; the browser that really uploads runs on another machine, so every cycle the client takes from
 * the 2 shared cores is a cycle the server does not get. BENCH_UPLOAD_CLIENT=fetch: undici's fetch, heavier.
 */
const CLIENT = process.env.BENCH_UPLOAD_CLIENT === 'fetch' ? 'fetch' : 'http';
const agent = new http.Agent({ keepAlive: true, maxSockets: PARALLEL });

async function put(url: URL | string, headers: Record<string, string>, body: Uint8Array): Promise<{ status: number; etag: string | null }> {
  if (CLIENT === 'fetch') {
    const res = await fetch(url, { method: 'PUT', headers, body: body as Uint8Array<ArrayBuffer> });
    await res.arrayBuffer();
    return { status: res.status, etag: res.headers.get('etag') };
  }
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'PUT', agent, headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: (res.headers.etag as string | undefined) ?? null }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * The page-cache state every timed run starts from. This VM hands freed memory back to its host within seconds,
 * and a write into guest memory touched for the first time costs about 2 ms per MB (plain fs writes of 1 GiB:
 * 280-430 MB/s) against about 0.15 ms for pages the kernel recycles (1.6-1.7 GB/s); the fsync of 1 GiB takes
 * about 0.43 s either way. Left alone, the run order decided which kind of page the baseline got: it swung
 * between 250 and 800 MB/s from one round to the next. So each timed run starts after `sync` and:
 * - BENCH_UPLOAD_STATE=cold (default): an 8 s pause, by which the freed memory is back with the host, so every
 *   run writes into fresh pages;
 * - BENCH_UPLOAD_STATE=warm: `drop_caches` right before (root only), so every run reuses recycled pages.
 */
const STATE: 'cold' | 'warm' = process.env.BENCH_UPLOAD_STATE === 'warm' ? 'warm' : 'cold';

async function settle(): Promise<void> {
  spawnSync('sync', { stdio: 'ignore', timeout: 60_000 });
  if (STATE === 'cold') {
    await new Promise((r) => setTimeout(r, 8000));
    return;
  }
  try {
    writeFileSync('/proc/sys/vm/drop_caches', '1');
  } catch {
    throw new Error('BENCH_UPLOAD_STATE=warm needs root (it writes /proc/sys/vm/drop_caches)');
  }
}

/** The child with the server: request/answer over IPC. */
type ServerChild = { info: UploadServerInfo; call<T>(cmd: string, extra?: Record<string, unknown>): Promise<T>; stop(): Promise<void> };

async function startServerChild(root: string): Promise<ServerChild> {
  const file = fileURLToPath(new URL('../lib/upload-server-child.ts', import.meta.url));
  // BENCH_UPLOAD_PROFILE=<dir>: the server child writes a V8 CPU profile there (diagnosis; figures are slower).
  const profile = process.env.BENCH_UPLOAD_PROFILE
    ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_UPLOAD_PROFILE)}`]
    : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, '--import', 'tsx', file], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: process.env,
  });
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 1;
  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  const info = await new Promise<UploadServerInfo>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the server child did not start within 120 s')), 120_000);
    child.on('message', (msg: { ready?: UploadServerInfo; id?: number; result?: unknown; error?: string }) => {
      if (msg.ready) {
        clearTimeout(timer);
        resolve(msg.ready);
        return;
      }
      const p = pending.get(msg.id!);
      if (!p) return;
      pending.delete(msg.id!);
      if (msg.error) p.reject(new Error(msg.error));
      else p.resolve(msg.result);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const err = new Error(`the server child ended (${signal ?? `exit code ${code}`})`);
      reject(err);
      failAll(err);
    });
  });
  const call = <T>(cmd: string, extra: Record<string, unknown> = {}) =>
    new Promise<T>((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      child.send({ id, cmd, ...extra });
    });
  return {
    info,
    call,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      const kill = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await Promise.race([call('close').catch(() => {}), exited]);
      await exited;
      clearTimeout(kill);
    },
  };
}

async function uploadOnce(server: ServerChild, fileName: string, total: number, base: Buffer, buffers: Buffer[]): Promise<Round> {
  const sr = server.info;
  const matterId = sr.matterId;
  const fileType = 'application/zip';
  const partCount = Math.ceil(total / PART);
  await server.call('rss-start');
  const t0 = performance.now();
  const { uploadId, s3Key } = await api<{ uploadId: string; s3Key: string }>(sr, 'POST', '/_api/upload/multipart-init', {
    fileName,
    fileType,
    matterId,
    fileSize: total,
  });
  const parts: Array<{ ETag: string; PartNumber: number }> = [];
  let next = 1;
  const origin = new URL(sr.url);
  const sign = (partNumber: number) =>
    api<{ url: string; headers: Record<string, string> }>(sr, 'POST', '/_api/upload/presigned', {
      fileName,
      fileType,
      matterId,
      partNumber,
      uploadId,
      s3Key,
    });
  // As the browser does (web/src/features/uploads/lib/run-upload.ts): each lane asks for its next part's URL
  // while the current part's bytes go up.
  const worker = async (slot: number) => {
    let partNumber = next <= partCount ? next++ : 0;
    let signing = partNumber ? sign(partNumber) : null;
    while (partNumber && signing) {
      const signed = await signing;
      const following = next <= partCount ? next++ : 0;
      signing = following ? sign(following) : null;
      const size = Math.min(PART, total - (partNumber - 1) * PART);
      // APP_URL has no port here (the app listens on port 0): send the signed path and query to the real port.
      const url = new URL(signed.url);
      url.host = origin.host;
      const res = await put(url, signed.headers, fillPart(buffers[slot], base, partNumber, size));
      const etag = res.etag;
      if (res.status !== 200 || !etag) throw new Error(`part ${partNumber} PUT answered ${res.status} (ETag ${etag})`);
      parts.push({ ETag: etag, PartNumber: partNumber });
      partNumber = following;
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, partCount) }, (_, slot) => worker(slot)));
  const t1 = performance.now();
  const done = await api<{ file: { sha256Hash: string; fileSize: number } }>(sr, 'POST', '/_api/upload/multipart-complete', {
    s3Key,
    fileName,
    fileType,
    matterId,
    fileSize: total,
    uploadId,
    parts,
  });
  const t2 = performance.now();
  const mem = await server.call<RssWindow>('rss-stop');
  if (done.file.fileSize !== total) throw new Error(`completed with ${done.file.fileSize} bytes, expected ${total}`);
  // The object is not needed any more: free the disk for the next round (the node row stays).
  await server.call('rm', { key: s3Key });
  return {
    uploadMs: t1 - t0,
    completeMs: t2 - t1,
    totalMs: t2 - t0,
    rssStart: mem.start,
    rssPeak: mem.peak,
    samples: mem.samples,
    sha256: done.file.sha256Hash,
  };
}

/** The same number of bytes in 10 MiB writes to one file on the same filesystem, fsync, close; then read back with sha256. */
async function baselineOnce(
  dir: string,
  total: number,
  base: Buffer,
  buf: Buffer,
): Promise<{ writeMs: number; readHashMs: number; sha256: string }> {
  const file = path.join(dir, `baseline-${process.pid}-${Date.now()}`);
  const partCount = Math.ceil(total / PART);
  try {
    const t0 = performance.now();
    const out = createWriteStream(file, { flags: 'wx', mode: 0o600, flush: true });
    for (let p = 1; p <= partCount; p++) {
      const size = Math.min(PART, total - (p - 1) * PART);
      // The chunk is copied (as the server's part files hold their own bytes) so that a reused buffer is safe.
      if (!out.write(Buffer.from(fillPart(buf, base, p, size)))) await once(out, 'drain');
    }
    out.end();
    await once(out, 'close');
    const t1 = performance.now();
    const hash = createHash('sha256');
    for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
    const sha256 = hash.digest('hex');
    const t2 = performance.now();
    return { writeMs: t1 - t0, readHashMs: t2 - t1, sha256 };
  } finally {
    await fs.rm(file, { force: true });
  }
}

/**
 * Where the time goes: the same 5-in-flight PUTs of 10 MiB parts to a bare node:http server in the child,
 * which either drops the bytes ('discard': loopback HTTP and fetch alone) or does what the store does with a
 * part ('file': MD5 of the stream, temp file with fsync on close), without the app, signatures or database.
 */
async function plainHttpOnce(url: string, total: number, base: Buffer, buffers: Buffer[]): Promise<number> {
  const partCount = Math.ceil(total / PART);
  let next = 1;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(PARALLEL, partCount) }, async (_, slot) => {
      while (next <= partCount) {
        const partNumber = next++;
        const size = Math.min(PART, total - (partNumber - 1) * PART);
        const res = await put(url, {}, fillPart(buffers[slot], base, partNumber, size));
        if (res.status !== 200) throw new Error(`plain PUT to ${url} answered ${res.status}`);
      }
    }),
  );
  return performance.now() - t0;
}

export const scenario: Scenario = {
  name: 'upload-throughput',
  title: 'Upload throughput (local store)',
  order: 30,
  description:
    "A multipart upload as the browser makes it (`multipart-init`, then per 10 MiB part `presigned` (asked for while the lane's previous part uploads) and a `PUT` of the bytes to the signed " +
    '`/_objects` URL, 5 parts in flight, then `multipart-complete`, which assembles the parts and computes the sha256 of the bytes it stores) ' +
    'through the real app on 127.0.0.1 with the local store, against writing the same bytes with fs streams to the same filesystem (server in a child process, client and baseline in the bench process).',
  async run({ log, root }) {
    const sizeMiB = envInt('BENCH_UPLOAD_MB', 1024, 10, 4096);
    const rounds = envInt('BENCH_ROUNDS', 3, 1, 5);
    const total = sizeMiB * MiB;
    const base = randomFillSync(Buffer.allocUnsafe(PART));
    const buffers = Array.from({ length: PARALLEL }, () => Buffer.allocUnsafe(PART));
    log('starting Strongroom in a child process (migrations, organization, session, matter)...');
    const server = await startServerChild(root);
    const sr = server.info;
    try {
      const objectsDir = path.join(sr.dataDir, 'objects');
      // Warm-up: one small upload (10 parts) and one small baseline, not counted.
      log('warm-up: 100 MiB upload and baseline');
      const warmSize = Math.min(total, 100 * MiB);
      const warm = await uploadOnce(server, 'warm-up.zip', warmSize, base, buffers);
      await baselineOnce(objectsDir, warmSize, base, buffers[0]);

      const ups: Round[] = [];
      const bases: BaseRound[] = [];
      for (let r = 0; r < rounds; r++) {
        // Alternate which runs first, so neither always meets a cold or a warm page cache.
        const baseFirst = r % 2 === 1;
        const doBase = async () => {
          await settle();
          const b = await baselineOnce(objectsDir, total, base, buffers[0]);
          await settle();
          const discardMs = await plainHttpOnce(sr.discardUrl, total, base, buffers);
          await settle();
          const fileMs = await plainHttpOnce(sr.fileUrl, total, base, buffers);
          bases.push({ ...b, discardMs, fileMs });
          log(
            `round ${r + 1}/${rounds} baseline: write ${fmt(mbps(total, b.writeMs))} MB/s, read+sha256 ${fmt(mbps(total, b.readHashMs))} MB/s; ` +
              `plain HTTP discard ${fmt(mbps(total, discardMs))} MB/s, plain HTTP to file+md5 ${fmt(mbps(total, fileMs))} MB/s`,
          );
        };
        const doUp = async () => {
          await settle();
          const u = await uploadOnce(server, `bench-${r + 1}.zip`, total, base, buffers);
          ups.push(u);
          log(
            `round ${r + 1}/${rounds} upload: parts ${fmt(mbps(total, u.uploadMs))} MB/s, completion ${fmt(mbps(total, u.completeMs))} MB/s, ` +
              `whole ${fmt(mbps(total, u.totalMs))} MB/s, peak RSS +${mib(u.rssPeak - u.rssStart)} MiB`,
          );
        };
        if (baseFirst) {
          await doBase();
          await doUp();
        } else {
          await doUp();
          await doBase();
        }
      }

      const med = <T>(xs: T[], f: (x: T) => number) => median(xs.map(f));
      const upload = med(ups, (u) => mbps(total, u.uploadMs));
      const complete = med(ups, (u) => mbps(total, u.completeMs));
      const whole = med(ups, (u) => mbps(total, u.totalMs));
      const write = med(bases, (b) => mbps(total, b.writeMs));
      const readHash = med(bases, (b) => mbps(total, b.readHashMs));
      const discard = med(bases, (b) => mbps(total, b.discardMs));
      const plainFile = med(bases, (b) => mbps(total, b.fileMs));
      const paired = median(ups.map((u, i) => bases[i].writeMs / u.uploadMs));
      const pairedWhole = median(ups.map((u, i) => bases[i].writeMs / u.totalMs));
      const rssGrowth = med(ups, (u) => u.rssPeak - u.rssStart);
      const rssMax = Math.max(...ups.map((u) => u.rssPeak - u.rssStart));
      const met = paired >= 0.8;

      return {
        ...(sr.dbKind === 'postgres' || STATE === 'warm'
          ? { variant: [sr.dbKind === 'postgres' ? 'postgres' : '', STATE === 'warm' ? 'warm' : ''].filter(Boolean).join('-') }
          : {}),
        ...(sr.dbKind === 'postgres' || sizeMiB !== 1024 || STATE === 'warm'
          ? {
              command: `${sizeMiB !== 1024 ? `BENCH_UPLOAD_MB=${sizeMiB} ` : ''}${STATE === 'warm' ? 'BENCH_UPLOAD_STATE=warm ' : ''}${sr.dbKind === 'postgres' ? 'BENCH_DATABASE_URL=postgres://… ' : ''}npm run bench -- upload-throughput`,
            }
          : {}),
        headline: `${STATE} page cache: ${sizeMiB} MiB upload ${fmt(upload)} MB/s = ${fmt(paired, 2)} x fs write ${fmt(write)} MB/s (target 0.80: ${met ? 'met' : 'NOT met'}); whole incl. completion ${fmt(whole)} MB/s; peak RSS +${mib(rssMax)} MiB`,
        summary: [
          `- **Upload (init to last part PUT) / fs write baseline: ${fmt(paired, 2)}** (target ≥ 0.80: **${met ? 'met' : 'not met'}**; median over ${rounds} rounds of the per-round ratio): ` +
            `${fmt(upload)} MB/s against ${fmt(write)} MB/s (medians; MB = 10^6 bytes), ${sizeMiB} MiB in ${Math.ceil(total / PART)} parts of 10 MiB.`,
          `- Completion (\`multipart-complete\`: parts assembled into one file with its sha256 computed from the bytes as they are written, then the database rows): ${fmt(complete)} MB/s; ` +
            `for comparison, reading the baseline file back through sha256: ${fmt(readHash)} MB/s.`,
          `- Where the time goes (same client, 5 parts of 10 MiB in flight, to a bare \`node:http\` server in the server's child process): loopback HTTP that drops the bytes ${fmt(discard)} MB/s; ` +
            `HTTP into a temp file with MD5 and fsync, as the store writes a part, ${fmt(plainFile)} MB/s (${fmt(plainFile / write, 2)} x fs write); the app itself reaches ${fmt(upload)} MB/s (${fmt(upload / plainFile, 2)} x that).`,
          `- Whole upload (init to completion answered): ${fmt(whole)} MB/s, ${fmt(pairedWhole, 2)} x the fs write baseline.`,
          `- Memory: the server process's RSS, sampled every 100 ms during each upload, peaked at +${mib(rssGrowth)} MiB over its value at the start of the upload (median; highest round +${mib(rssMax)} MiB) for a ${sizeMiB} MiB file, ` +
            `and at +${mib(warm.rssPeak - warm.rssStart)} MiB for the ${mib(warmSize)} MiB warm-up: the bytes are streamed, the growth is the parts in flight (5 x 10 MiB) and garbage not yet collected, not the file.`,
        ],
        tables: [
          {
            caption: 'Every round (MB/s; RSS growth in MiB, peak over the upload minus RSS at its start)',
            columns: [
              'round',
              'parts MB/s',
              'completion MB/s',
              'whole MB/s',
              'fs write MB/s',
              'read+sha256 MB/s',
              'HTTP discard MB/s',
              'HTTP file+md5 MB/s',
              'upload / fs write',
              'peak RSS growth MiB',
              'RSS samples',
            ],
            rows: ups.map((u, i) => [
              i + 1,
              fmt(mbps(total, u.uploadMs)),
              fmt(mbps(total, u.completeMs)),
              fmt(mbps(total, u.totalMs)),
              fmt(mbps(total, bases[i].writeMs)),
              fmt(mbps(total, bases[i].readHashMs)),
              fmt(mbps(total, bases[i].discardMs)),
              fmt(mbps(total, bases[i].fileMs)),
              fmt(bases[i].writeMs / u.uploadMs, 2),
              mib(u.rssPeak - u.rssStart),
              u.samples,
            ]),
          },
        ],
        notes: [
          STATE === 'cold'
            ? '- Page-cache state (BENCH_UPLOAD_STATE=cold, the default): every timed run starts after `sync` and an 8 s pause, by which this VM has handed freed memory back to its host, so the baseline and the upload both write into guest memory touched for the first time (about 2 ms per MB). Without it the run order decided the baseline: 250 to 800 MB/s. `BENCH_UPLOAD_STATE=warm` measures recycled pages instead (its own section below).'
            : '- Page-cache state (BENCH_UPLOAD_STATE=warm): every timed run starts right after `sync` and `drop_caches`, so its writes reuse pages the kernel just freed (plain fs writes of 1 GiB reach 1.6-1.7 GB/s; the fsync takes about 0.43 s). Here the baseline is close to a memory copy, and the upload is limited by CPU: loopback HTTP, the client and MD5 share the 2 cores.',
          `- Server: the app from \`buildApp\` with the local store (default), a temporary DATA_DIR under ${path.dirname(sr.dataDir)}, ${sr.dbKind === 'pglite' ? 'PGlite in memory' : 'PostgreSQL (BENCH_DATABASE_URL)'}, LOG_LEVEL=silent, in a child process of its own (bench/lib/upload-server-child.ts); the administrator's session made with \`createSession\` and MFA marked as set up. The client is ${CLIENT === 'http' ? "`node:http` with a keep-alive agent of 5 sockets (BENCH_UPLOAD_CLIENT=fetch uses undici's `fetch`, which takes more of the shared cores)" : '`fetch` (BENCH_UPLOAD_CLIENT=fetch)'} in the bench process; loopback only. Client, server and the baseline share the 2 cores.`,
          '- Part bytes: one 10 MiB random buffer, copied per part into one of 5 reused buffers with the part number over its first 8 bytes; nothing near the file size is held in memory. The signed URLs carry APP_URL `http://127.0.0.1` without the port the app listens on, so the client sends the signed path and query to that port.',
          '- Each part PUT hands the body, in 1 MiB batches copied off the socket, to a hash worker thread (server/src/platform/storage/hash-pool.ts) that computes its MD5 for the ETag and writes the temp file, fsynced before the PUT is answered; the part is then renamed into the upload folder. Completion joins the parts into one file on a worker, hashing each block (sha256) from the buffer it writes, then fsyncs; so completion moves the bytes twice more (read the parts, write the file) and is not part of the ratio.',
          '- Baseline (in the bench process): the same bytes in 10 MiB `write`s to one `createWriteStream(…, { flush: true })` file in DATA_DIR/objects (fsync on close), then read back through sha256. Upload and baseline take turns going first. One 100 MiB upload and baseline warm up first. With 23 GiB of memory the read-backs are served from the page cache.',
          '- Diagnostics beside the baseline: the same client PUTs (5 x 10 MiB in flight) to a bare `node:http` server in the server child process that drops the bytes (cost of loopback HTTP and the client alone), and one that hands each part to a hash worker that computes its MD5 and writes the temp file with fsync, as `LocalBlobStore.writePart` does, without Fastify, signatures, the presign call or the database.',
          '- The machine is shared with other work (see the load average): read the ratio and the per-round table rather than absolute MB/s.',
        ],
      };
    } finally {
      await server.stop();
    }
  },
};
