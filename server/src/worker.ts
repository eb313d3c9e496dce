// The worker process: `npm run worker` (node server/dist/worker.js). Runs the durable jobs apart from the app
// instances, which are then started with JOB_RUNNER=off. Exit codes: 78 configuration, 1 failure.
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { logOptions } from './app.js';
import { loadConfigOrExit, ownerOnlyFiles, secureDataDirOrExit, stopOnSignals } from './process.js';
import { startWorker, WorkerConfigError } from './worker-runtime.js';
import { registerSigningKeyAtStart } from './platform/signing-keys.js';

async function main(): Promise<void> {
  ownerOnlyFiles();
  const config = loadConfigOrExit();
  const log = pino(logOptions(config.logLevel)) as unknown as FastifyBaseLogger;
  // Without DATABASE_URL the worker refuses below and touches nothing.
  const { tightened } = config.databaseUrl ? secureDataDirOrExit(config) : { tightened: 0 };
  if (tightened > 0)
    log.warn({ dataDir: config.dataDir, tightened }, 'DATA_DIR held entries other accounts could read; they are now owner-only');
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
  // The worker signs certificates too: its key is published, or replaces the old one, as the app's does.
  const signingKeys = await registerSigningKeyAtStart(worker.ctx);
  log.info(
    { queues: worker.queues, objectStore: config.s3 ? 's3' : 'local', mail: worker.ctx.mailer.kind },
    'Strongroom worker is running',
  );

  stopOnSignals(log, 'worker shutting down: letting a running job finish', async () => {
    signingKeys.stop();
    await worker.close();
    log.info('worker stopped');
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
