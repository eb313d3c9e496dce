// Child process for the upload-throughput scenario: the real app (startStrongroom) and two bare node:http
// sinks, so that the server side of an upload runs in a process of its own, apart from the client.
// Started with IPC; answers { id, result } / { id, error } to { id, cmd } messages; ends on 'close' or when the
// parent goes away, and in any case after 25 minutes.
import fs from 'node:fs/promises';
import http from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { api, passMfaWall } from './api-client.js';
import { startStrongroom } from './strongroom.js';
import { hashPool } from '../../server/src/platform/storage/hash-pool.js';

export type UploadServerInfo = {
  url: string;
  sessionCookie: string;
  dataDir: string;
  dbKind: 'pglite' | 'postgres';
  matterId: string;
  discardUrl: string;
  fileUrl: string;
};
export type RssWindow = { start: number; peak: number; samples: number };

setTimeout(() => process.exit(3), 25 * 60_000).unref();
process.on('disconnect', () => process.exit(4));

/** A sink: 'discard' drops the body; 'file' hands it to a hash worker that computes its MD5 and writes it to a temp file with fsync, as the store writes a part. */
async function sink(mode: 'discard' | 'file', dir: string): Promise<http.Server> {
  let n = 0;
  const server = http.createServer((req, res) => {
    const reply = (err?: unknown) => {
      res.statusCode = err ? 500 : 200;
      res.end();
    };
    if (mode === 'discard') {
      req.on('data', () => {});
      req.on('end', () => reply());
      req.on('error', reply);
      return;
    }
    const file = path.join(dir, `sink-${process.pid}-${n++}`);
    const job = hashPool.stream('md5', { file });
    pipeline(req, job.writable()).then(
      () => fs.rm(file, { force: true }).then(() => reply()),
      (err) =>
        job
          .abort()
          .then(() => fs.rm(file, { force: true }))
          .finally(() => reply(err)),
    );
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

async function main() {
  const sr = await startStrongroom();
  await passMfaWall(sr);
  const { matter } = await api<{ matter: { id: string } }>(sr, 'POST', '/_api/matters/create', {
    matterName: 'Upload bench',
    clientName: 'Bench Client',
    responsibleAttorney: 'Bench Lawyer',
  });
  const objects = path.join(sr.config.dataDir, 'objects');
  await fs.mkdir(objects, { recursive: true });
  const discard = await sink('discard', objects);
  const file = await sink('file', objects);
  const port = (s: http.Server) => (s.address() as AddressInfo).port;

  let window: RssWindow | undefined;
  const timer = setInterval(() => {
    if (!window) return;
    window.samples++;
    window.peak = Math.max(window.peak, process.memoryUsage().rss);
  }, 100);
  timer.unref();

  const close = async () => {
    clearInterval(timer);
    discard.closeAllConnections();
    discard.close();
    file.closeAllConnections();
    file.close();
    await sr.close();
  };

  process.on('message', async (msg: { id: number; cmd: string; key?: string }) => {
    try {
      let result: unknown = null;
      if (msg.cmd === 'rss-start') {
        const rss = process.memoryUsage().rss;
        window = { start: rss, peak: rss, samples: 1 };
      } else if (msg.cmd === 'rss-stop') {
        const w = window!;
        w.peak = Math.max(w.peak, process.memoryUsage().rss);
        w.samples++;
        window = undefined;
        result = w;
      } else if (msg.cmd === 'rm' && msg.key) {
        // Frees the disk between rounds (the file's node row stays); the key is the server-made s3Key.
        await fs.rm(path.join(objects, ...msg.key.split('/')), { force: true });
      } else if (msg.cmd === 'close') {
        await close();
        process.send!({ id: msg.id, result: null }, () => process.exit(0));
        return;
      }
      process.send!({ id: msg.id, result });
    } catch (err) {
      process.send!({ id: msg.id, error: (err as Error).message });
    }
  });

  const info: UploadServerInfo = {
    url: sr.url,
    sessionCookie: sr.sessionCookie,
    dataDir: sr.config.dataDir,
    dbKind: sr.dbKind,
    matterId: matter.id,
    discardUrl: `http://127.0.0.1:${port(discard)}/part`,
    fileUrl: `http://127.0.0.1:${port(file)}/part`,
  };
  process.send!({ ready: info });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
