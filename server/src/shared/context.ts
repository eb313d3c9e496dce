import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../platform/db/database.js';
import type { JobQueue } from '../platform/jobs/job-queue.js';
import type { Mailer } from '../platform/mail/mailer.js';
import type { BlobStore } from '../platform/storage/blob-store.js';

/** What every service needs from the outside world; built once in app.ts. */
export type AppContext = {
  config: Config;
  db: Database;
  dbKind: 'pglite' | 'postgres';
  mailer: Mailer;
  store: BlobStore;
  /** Durable background jobs; enqueue inside the transaction of the change that needs them. */
  jobs: JobQueue;
  log: FastifyBaseLogger;
};

/** Who is asking, as far as the audit log and the throttle need to know. */
export type RequestMeta = { ip: string; userAgent: string | null };
