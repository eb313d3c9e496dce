import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirInUseError } from './platform/db/database.js';
import { prepareSetupToken } from './features/setup/setup.service.js';

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
  let built;
  try {
    built = await buildApp({ config });
  } catch (err) {
    if (err instanceof DataDirInUseError) {
      console.error(err.message);
      process.exit(75);
    }
    throw err;
  }
  const { app, ctx } = built;
  await app.listen({ port: config.port, host: config.host });
  const setupToken = await prepareSetupToken(ctx);
  if (setupToken) {
    // Printed once, to the console of whoever started the server: it admits the first administrator.
    app.log.warn(`No organization exists yet. Open ${config.appUrl}/setup and enter this setup token: ${setupToken}`);
    console.log(`\n  Strongroom first run: open ${config.appUrl}/setup with the setup token\n  ${setupToken}\n`);
  }
  app.log.info({ database: ctx.dbKind, objectStore: config.s3 ? 's3' : 'local', mail: ctx.mailer.kind, appUrl: config.appUrl }, 'Strongroom is ready');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing requests in flight');
    const timer = setTimeout(() => {
      app.log.error('shutdown took longer than 25 s; exiting');
      process.exit(1);
    }, 25_000);
    timer.unref();
    try {
      await built.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

void main();
