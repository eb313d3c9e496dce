// The worker process: `npm run worker` (node server/dist/worker.js). Runs the durable jobs apart from the app
// instances, which are then started with JOB_RUNNER=off. Exit codes: 78 configuration, 1 failure.
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { logOptions } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { startWorker, WorkerConfigError } from './worker-runtime.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78);
    }
    throw err;
  }
  const log = pino(logOptions(config.logLevel)) as unknown as FastifyBaseLogger;
  let worker;
  try {
    worker = await startWorker({ config, log });
  } catch (err) {
    if (err instanceof WorkerConfigError) {
      console.error(err.message);
      process.exit(78);
    }
    throw err;
  }
  log.info({ queues: worker.queues, objectStore: config.s3 ? 's3' : 'local', mail: worker.ctx.mailer.kind }, 'Strongroom worker is running');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'worker shutting down: letting a running job finish');
    const timer = setTimeout(() => {
      log.error('worker shutdown took longer than 25 s; exiting');
      process.exit(1);
    }, 25_000);
    timer.unref();
    try {
      await worker.close();
      log.info('worker stopped');
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'error during worker shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
