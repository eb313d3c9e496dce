// The mixed load: N people sign in (password and authenticator), then browse the matter list, search, open matters,
// download files, create folders and upload small files (single PUT) and multipart files (a 10 MiB part and a small
// last one), with a think time between actions; each person runs from an address of their own. Every request is
// recorded (http-user.ts); every write that answered 2xx is kept so it can be checked in the database afterwards.
import { randomFillSync } from 'node:crypto';
import { PASSWORD, type Firm, type Person, type SeedMatter } from './seed.js';
import { addressOf, HttpUser, type Sample } from './http-user.js';
import { sleep } from './procs.js';

export type Written = { kind: 'folder' | 'file'; nodeId: string; name: string; matterId: string; at: number };
export type LoadRun = { samples: Sample[]; written: Written[]; signInFailures: number; users: HttpUser[] };

const SEARCH_TERMS = ['harbour', 'lease', 'merger', 'document 00', 'patent', 'holdings', 'tenancy', 'pension'];
/** Parts are cut as the web app cuts them: 10 MiB each, the last one smaller. */
const PART = 10 * 1024 * 1024;

/** A small seeded generator, so that runs of the same size make the same choices. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const bytes = (n: number) => {
  const b = Buffer.alloc(n);
  randomFillSync(b);
  return b;
};

type Ctx = { u: HttpUser; r: () => number; matters: SeedMatter[]; written: Written[]; tag: string; n: number };

async function download(c: Ctx, m: SeedMatter): Promise<void> {
  const f = m.files[Math.floor(c.r() * m.files.length)];
  if (!f) return;
  const res = await c.u.get('read', 'download-url', `/_api/nodes/download-url?nodeId=${f.nodeId}`);
  if (res.status !== 200) return;
  const { url } = res.json<{ url: string }>();
  const u = new URL(url);
  await c.u.get('download', 'object GET', u.pathname + u.search);
}

/** Single PUT: presign, PUT the bytes, complete. */
async function uploadSmall(c: Ctx, m: SeedMatter, size: number): Promise<void> {
  const fileName = `upload ${c.tag}-${c.n++}.pdf`;
  const meta = { fileName, fileType: 'application/pdf', matterId: m.id, parentId: null, fileSize: size };
  const signed = await c.u.post('write', 'upload presigned', '/_api/upload/presigned', meta);
  if (signed.status !== 200) return;
  const s = signed.json<{ url: string; s3Key: string; headers: Record<string, string> }>();
  const u = new URL(s.url);
  const put = await c.u.request('upload', 'object PUT', 'PUT', u.pathname + u.search, { body: bytes(size), headers: s.headers });
  if (put.status !== 200) return;
  const done = await c.u.post('write', 'upload complete', '/_api/upload/multipart-complete', { ...meta, s3Key: s.s3Key });
  if (done.status === 200)
    c.written.push({ kind: 'file', nodeId: done.json<{ file: { id: string } }>().file.id, name: fileName, matterId: m.id, at: Date.now() });
}

/** Multipart: init, part 1 (10 MiB) and part 2 (`tail` bytes) each presigned and PUT, complete. */
export async function uploadMultipart(c: Ctx, m: SeedMatter, tail: number, between?: () => Promise<HttpUser>): Promise<boolean> {
  const fileName = `multipart ${c.tag}-${c.n++}.pdf`;
  const meta = { fileName, fileType: 'application/pdf', matterId: m.id, parentId: null };
  const fileSize = PART + tail;
  const init = await c.u.post('write', 'multipart init', '/_api/upload/multipart-init', { ...meta, fileSize });
  if (init.status !== 200) return false;
  const { uploadId, s3Key } = init.json<{ uploadId: string; s3Key: string }>();
  const parts: Array<{ ETag: string; PartNumber: number }> = [];
  for (const [partNumber, size] of [
    [1, PART],
    [2, tail],
  ]) {
    if (partNumber === 2 && between) c.u = await between();
    const signed = await c.u.post('write', 'multipart presign part', '/_api/upload/presigned', { ...meta, partNumber, uploadId, s3Key });
    if (signed.status !== 200) return false;
    const u = new URL(signed.json<{ url: string }>().url);
    const put = await c.u.request('upload', 'object PUT part', 'PUT', u.pathname + u.search, { body: bytes(size) });
    if (put.status !== 200) return false;
    parts.push({ ETag: String(put.headers.etag ?? ''), PartNumber: partNumber });
  }
  const done = await c.u.post('write', 'multipart complete', '/_api/upload/multipart-complete', {
    ...meta,
    fileSize,
    uploadId,
    s3Key,
    parts,
  });
  if (done.status !== 200) return false;
  c.written.push({ kind: 'file', nodeId: done.json<{ file: { id: string } }>().file.id, name: fileName, matterId: m.id, at: Date.now() });
  return true;
}

async function createFolder(c: Ctx, m: SeedMatter): Promise<void> {
  const folderName = `Folder ${c.tag}-${c.n++}`;
  const res = await c.u.post('write', 'folder create', '/_api/nodes/create', { matterId: m.id, parentId: null, folderName });
  if (res.status === 200)
    c.written.push({
      kind: 'folder',
      nodeId: res.json<{ node: { id: string } }>().node.id,
      name: folderName,
      matterId: m.id,
      at: Date.now(),
    });
}

/** One action, chosen by weight. */
async function act(c: Ctx, weights: { multipart: number }): Promise<void> {
  const m = c.matters[Math.floor(c.r() * c.matters.length)];
  const x = c.r() * 100;
  if (x < 25) await c.u.get('read', 'matters list', `/_api/matters/list?page=1&pageSize=20&sortBy=created_at&sortDirection=desc`);
  else if (x < 40)
    await c.u.get('read', 'search', `/_api/search?q=${encodeURIComponent(SEARCH_TERMS[Math.floor(c.r() * SEARCH_TERMS.length)])}`);
  else if (x < 60) await c.u.get('read', 'matter detail', `/_api/matters/detail?matterId=${m.id}`);
  else if (x < 66) await c.u.get('read', 'dashboard activity', '/_api/dashboard/activity');
  else if (x < 82) await download(c, m);
  else if (x < 88) await createFolder(c, m);
  else if (x < 100 - weights.multipart) await uploadSmall(c, m, 8 * 1024 + Math.floor(c.r() * 56 * 1024));
  else await uploadMultipart(c, m, 64 * 1024);
}

/** Signs a person in, retrying twice a second apart (a refused sign-in is recorded either way). */
async function signInPerson(u: HttpUser, p: Person): Promise<boolean> {
  for (let i = 0; i < 3; i++) {
    if (await u.signIn(p.email, PASSWORD, p.totpSecret)) return true;
    await sleep(1000);
  }
  return false;
}

/**
 * Runs `users` people for `seconds` against `base`, each starting within the first `rampSeconds`. `beside` runs
 * alongside (the administrator's work, a kill) and is awaited too.
 */
export async function runMixedLoad(o: {
  base: string;
  firm: Firm;
  users: number;
  seconds: number;
  thinkMs: number;
  rampSeconds?: number;
  multipartPercent?: number;
  beside?: (run: LoadRun, deadline: number) => Promise<void>;
}): Promise<LoadRun> {
  const run: LoadRun = { samples: [], written: [], signInFailures: 0, users: [] };
  // Names must not repeat across runs on the same firm (a taken name is a 409).
  const runTag = Date.now().toString(36).slice(-5);
  const deadline = Date.now() + o.seconds * 1000;
  const ramp = (o.rampSeconds ?? Math.min(20, o.seconds / 3)) * 1000;
  const person = async (i: number) => {
    const p = o.firm.members[i % o.firm.members.length];
    const u = new HttpUser(o.base, addressOf(i), run.samples);
    run.users.push(u);
    const r = rng(i + 1);
    await sleep(r() * ramp);
    if (!(await signInPerson(u, p))) {
      run.signInFailures++;
      return;
    }
    const c: Ctx = { u, r, matters: o.firm.matters, written: run.written, tag: `${runTag}u${i}`, n: 0 };
    while (Date.now() < deadline) {
      await act(c, { multipart: o.multipartPercent ?? 1 });
      // Exponential think time (a person reads what they asked for), clipped to what is left.
      const think = Math.min(-Math.log(1 - r()) * o.thinkMs, deadline - Date.now());
      if (think > 0) await sleep(think);
    }
  };
  try {
    await Promise.all([...Array.from({ length: o.users }, (_, i) => person(i)), o.beside?.(run, deadline)]);
  } finally {
    for (const u of run.users) u.close();
  }
  return run;
}
