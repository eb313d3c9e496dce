// Vault transfer: 1 GiB in 1,000 files of a vaulted matter moved into the vault by the transfer job, through the
// local store (copy under the lock, sha256 read back, rows, working copies deleted, the signed certificate),
// against copying and hashing the same bytes with plain Node (stream copy with sha256, fsync) in the same run.
import { createHash, randomFillSync } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { spawnSync } from 'node:child_process';
import { buildApp, type BuiltApp } from '../../server/src/app.js';
import { loadConfig } from '../../server/src/config.js';
import { migrateToLatest, openPglite, type DatabaseHandle } from '../../server/src/platform/db/database.js';
import { createOrganizationFromCli } from '../../server/src/features/setup/setup.service.js';
import { runVaultTransfer } from '../../server/src/features/vault/vault-transfer.jobs.js';
import { LocalBlobStore } from '../../server/src/platform/storage/index.js';
import { envInt, fmt, fmtInt } from '../lib/stats.js';
import type { Scenario } from '../lib/types.js';

const MiB = 1024 * 1024;
/** MB/s with MB = 10^6 bytes. */
const mbps = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);
const TARGET_RATIO = 0.8;
/** Files the job copies at once (COPY_CONCURRENCY in vault-transfer.jobs.ts); the parallel baseline does the same. */
const COPY_IN_FLIGHT = 3;

/** Copies a file to another while hashing it (sha256), then fsyncs the copy: what the vault copy has to do at least. */
async function copyAndHash(from: string, to: string): Promise<string> {
  const hash = createHash('sha256');
  const out = createWriteStream(to, { flags: 'wx' });
  await pipeline(
    createReadStream(from, { highWaterMark: MiB }),
    new Transform({
      transform(chunk: Buffer, _enc, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    }),
    out,
  );
  const handle = await fs.open(to, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

export const scenario: Scenario = {
  name: 'vault-transfer',
  title: 'Vault transfer of 1 GiB in 1,000 files (local store)',
  order: 60,
  description:
    'The durable vault transfer job moves a vaulted matter of 1,000 files (1 GiB) into the vault through the local store: each file copied under ' +
    'the lock and made read-only, its sha256 read back and checked, its row written, its working copy deleted, then the signed certificate. ' +
    'Its throughput is compared with copying and hashing the same bytes with plain Node streams (and an fsync per file) in the same run.',
  async run(ctx) {
    const files = envInt('BENCH_VAULT_FILES', 1000, 10, 10_000);
    const totalBytes = envInt('BENCH_VAULT_BYTES', 1024 * MiB, 10 * MiB, 8 * 1024 * MiB);
    const size = Math.floor(totalBytes / files);
    const bytes = size * files;
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'strongroom-bench-vault-'));
    let database: DatabaseHandle | undefined;
    let built: BuiltApp | undefined;
    try {
      const config = loadConfig(
        {
          NODE_ENV: 'production',
          DATA_DIR: dataDir,
          LOG_LEVEL: 'silent',
          HOST: '127.0.0.1',
          PORT: '0',
          APP_URL: 'http://127.0.0.1',
          JOB_RUNNER: 'off',
        },
        { webDist: path.join(dataDir, 'no-web') },
      );
      database = await openPglite(undefined);
      await migrateToLatest(database.db);
      built = await buildApp({ config, database, migrate: false, logger: false });
      const app = built;
      const db = database.db;
      const store = app.ctx.store;
      if (!(store instanceof LocalBlobStore)) throw new Error('the vault transfer bench runs on the local store');
      const { organizationId, userId } = await createOrganizationFromCli(db, {
        name: 'Bench Vault LLP',
        adminName: 'Bench Admin',
        adminEmail: `bench.vault.${Date.now().toString(36)}@firm.test`,
        adminPassword: 'correct horse battery staple',
      });
      const matter = await db
        .insertInto('matters')
        .values({
          organizationId,
          matterName: 'Bench vault matter',
          matterNumber: null,
          clientName: 'Bench Client',
          description: null,
          responsibleLawyer: null,
          createdBy: userId,
          updatedBy: userId,
          holdReason: null,
          retentionExpiresAt: null,
          vaultedAt: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();

      // The working copies, stored through the store as uploads store them; a plain copy of each for the baseline.
      ctx.log(`writing ${files} files of ${fmtInt(size)} bytes (${fmt(bytes / MiB, 0)} MiB) through the local store...`);
      const plainDir = path.join(dataDir, 'plain');
      await fs.mkdir(path.join(plainDir, 'src'), { recursive: true });
      const buf = Buffer.alloc(size);
      randomFillSync(buf);
      for (let i = 0; i < files; i++) {
        buf.writeUInt32BE(i, 0);
        const key = `org/${organizationId}/matters/${matter.id}/${crypto.randomUUID()}`;
        await store.writeObject(key, Readable.from([buf]), { length: size, contentType: 'application/pdf' });
        await fs.writeFile(path.join(plainDir, 'src', `${i}`), buf);
        await db
          .insertInto('nodes')
          .values({
            organizationId,
            matterId: matter.id,
            parentId: null,
            name: `file-${String(i).padStart(4, '0')}.pdf`,
            nodeType: 'file',
            fileSize: size,
            mimeType: 'application/pdf',
            sha256Hash: createHash('sha256').update(buf).digest('hex'),
            storagePath: key,
            uploadId: null,
            uploadStatus: 'completed',
            uploadProgress: 100,
            createdBy: userId,
          })
          .execute();
      }
      // Vaulted as the vault start leaves it: the matter marked, its transfer pending.
      const vaultedAt = new Date();
      const retentionExpiresAt = new Date(vaultedAt);
      retentionExpiresAt.setUTCFullYear(retentionExpiresAt.getUTCFullYear() + 7);
      await db
        .updateTable('matters')
        .set({ isVaulted: true, status: 'Vaulted', vaultedAt, retentionExpiresAt, legalHold: true, holdReason: 'Bench' })
        .where('id', '=', matter.id)
        .execute();
      await db
        .insertInto('vaultTransfers')
        .values({
          matterId: matter.id,
          organizationId,
          retentionExpiresAt,
          filesTotal: files,
          bytesTotal: bytes,
          startedAt: vaultedAt,
          state: 'pending',
          lastError: null,
          completedAt: null,
        })
        .execute();
      spawnSync('sync', { stdio: 'ignore', timeout: 120_000 });

      // The baseline twice: file by file, and three at a time as the job copies; the ratio is taken against the faster.
      const plainRun = async (inFlight: number, dst: string) => {
        await fs.mkdir(path.join(plainDir, dst), { recursive: true });
        let next = 0;
        const started = performance.now();
        const lane = async () => {
          while (next < files) {
            const i = next++;
            await copyAndHash(path.join(plainDir, 'src', `${i}`), path.join(plainDir, dst, `${i}`));
          }
        };
        await Promise.all(Array.from({ length: inFlight }, lane));
        const ms = performance.now() - started;
        await fs.rm(path.join(plainDir, dst), { recursive: true, force: true });
        spawnSync('sync', { stdio: 'ignore', timeout: 120_000 });
        return ms;
      };
      ctx.log('plain Node: stream copy with sha256 and fsync, file by file...');
      const plainSerialMs = await plainRun(1, 'dst1');
      ctx.log('plain Node: the same, three files at a time...');
      const plainParallelMs = await plainRun(COPY_IN_FLIGHT, 'dst3');
      const plainMs = Math.min(plainSerialMs, plainParallelMs);
      await fs.rm(plainDir, { recursive: true, force: true });

      ctx.log('the vault transfer job...');
      const t0 = performance.now();
      const outcome = await runVaultTransfer(app.ctx, { organizationId, matterId: matter.id });
      const transferMs = performance.now() - t0;
      if (outcome !== 'completed') throw new Error(`the transfer answered ${outcome}`);
      const transfer = await db.selectFrom('vaultTransfers').selectAll().where('matterId', '=', matter.id).executeTakeFirstOrThrow();
      if (transfer.state !== 'completed' || transfer.filesDone !== files)
        throw new Error(`the transfer ended ${transfer.state} with ${transfer.filesDone} files`);

      const plainRate = mbps(bytes, plainMs);
      const transferRate = mbps(bytes, transferMs);
      const ratio = transferRate / plainRate;
      const verdict = ratio >= TARGET_RATIO ? 'meets' : 'misses';
      return {
        summary: [
          `- Vault transfer: **${fmt(transferRate, 0)} MB/s** (${fmt(transferMs / 1000, 1)} s for ${fmtInt(files)} files, ${fmt(bytes / MiB, 0)} MiB).`,
          `- Plain Node copy + sha256 + fsync of the same bytes, the faster of one and three at a time: ${fmt(plainRate, 0)} MB/s (${fmt(plainMs / 1000, 1)} s).`,
          `- Ratio: **${fmt(ratio, 2)}** (target at least ${TARGET_RATIO}: ${verdict} it).`,
        ],
        tables: [
          {
            columns: ['Run', 'Files', 'Bytes', 'Seconds', 'MB/s', 'Per file (ms)'],
            rows: [
              [
                'Plain Node copy + sha256 + fsync, one at a time',
                fmtInt(files),
                fmtInt(bytes),
                fmt(plainSerialMs / 1000, 2),
                fmt(mbps(bytes, plainSerialMs), 0),
                fmt(plainSerialMs / files, 2),
              ],
              [
                'Plain Node copy + sha256 + fsync, three at a time',
                fmtInt(files),
                fmtInt(bytes),
                fmt(plainParallelMs / 1000, 2),
                fmt(mbps(bytes, plainParallelMs), 0),
                fmt(plainParallelMs / files, 2),
              ],
              [
                'Vault transfer job (three at a time)',
                fmtInt(files),
                fmtInt(bytes),
                fmt(transferMs / 1000, 2),
                fmt(transferRate, 0),
                fmt(transferMs / files, 2),
              ],
            ],
          },
        ],
        notes: [
          'MB = 10^6 bytes. One run of each (plain Node one at a time, then three at a time, then the job), each after `sync`, on the same filesystem (a temporary DATA_DIR). The ratio is taken against the faster plain run.',
          'The job per file: the kernel copies the file into the vault, the copy is fsynced and read back once by a hash worker for its MD5 ' +
            '(checked against the source) and its sha256 (checked against the one recorded at upload), made read-only (0400), its lock written; one transaction (vault object row, node, progress, the durable delete job); the working copy deleted. Three files ' +
            'are in flight at once. At the end, the completion audit entry and the signed certificate stored under the lock.',
          'The database is PGlite in memory in the same process. Sizes: BENCH_VAULT_FILES (default 1000) and BENCH_VAULT_BYTES (default 1 GiB).',
        ],
        headline: `vault transfer ${fmt(transferRate, 0)} MB/s vs plain ${fmt(plainRate, 0)} MB/s: ratio ${fmt(ratio, 2)} (target ${TARGET_RATIO})`,
      };
    } finally {
      await built?.close().catch(() => {});
      await database?.close().catch(() => {});
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  },
};
