/**
 * The background worker: runs the durable jobs (object deletion after commit, upload clean-up, ...) in a process
 * of its own, next to app instances started with JOB_RUNNER=off. It needs PostgreSQL: the embedded PGlite
 * database belongs to the one app process, which then runs the jobs itself.
 *
 *   const worker = await startWorker({ config, log });
 *   ...
 *   await worker.close();   // lets a running job finish (up to 20 s), then closes the pool
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import { defineJobs } from './jobs.js';
import { openDatabase, migrateToLatest, type DatabaseHandle } from './platform/db/database.js';
import { JobQueue } from './platform/jobs/index.js';
import { createMailer } from './platform/mail/mailer.js';
import { createBlobStore } from './platform/storage/index.js';
import type { AppContext } from './shared/context.js';
import { startProcessMetrics } from './metrics.js';

export const WORKER_NEEDS_POSTGRES =
  'The worker needs DATABASE_URL (PostgreSQL). With the embedded database the app process runs the jobs itself (JOB_RUNNER=embedded, the default).';

export class WorkerConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WorkerConfigError';
  }
}

export type RunningWorker = { ctx: AppContext; queues: string[]; metricsUrl?: string; close(): Promise<void> };

export async function startWorker(opts: {
  config: Config;
  log: FastifyBaseLogger;
  database?: DatabaseHandle;
  migrate?: boolean;
}): Promise<RunningWorker> {
  const { config, log } = opts;
  if (!opts.database && !config.databaseUrl) throw new WorkerConfigError(WORKER_NEEDS_POSTGRES);
  const database = opts.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  try {
    if (database.kind !== 'postgres') throw new WorkerConfigError(WORKER_NEEDS_POSTGRES);
    // Safe beside app instances doing the same: the migrator holds a lock, and finished migrations are skipped.
    if (opts.migrate !== false) await migrateToLatest(database.db);
    const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log });
    const store = await createBlobStore({
      dataDir: config.dataDir,
      appUrl: config.appUrl,
      signingKey: config.storageSigningKey,
      s3: config.s3,
    });
    const jobs = new JobQueue(database, { mode: 'embedded', backend: database.kind, log });
    const ctx: AppContext = { config, db: database.db, dbKind: database.kind, mailer, store, jobs, log };
    defineJobs(ctx);
    // A worker has no HTTP port of its own: its metrics are served on METRICS_PORT, when set (a port in use stops
    // the start here, before any job runs).
    const processMetrics = await startProcessMetrics(ctx, database);
    await jobs.start();
    return {
      ctx,
      queues: jobs.names(),
      metricsUrl: processMetrics.server?.url,
      async close() {
        await processMetrics.close();
        await jobs.stop();
        await mailer.close();
        if (!opts.database) await database.close();
      },
    };
  } catch (err) {
    if (!opts.database) await database.close();
    throw err;
  }
}
