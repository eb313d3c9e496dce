// What the server and worker processes share: configuration or exit 78, and a graceful stop on SIGTERM/SIGINT.
import { ConfigError, loadConfig, type Config } from './config.js';

/** The configuration from the environment; prints what is wrong and exits 78 when it is bad. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(78);
    }
    throw err;
  }
}

type Log = { info(obj: object, msg?: string): void; error(obj: unknown, msg?: string): void };

/**
 * On SIGTERM or SIGINT: logs `stopping`, runs `close` once, exits 0 (1 on an error, or when it takes longer than
 * 25 s).
 */
export function stopOnSignals(log: Log, stopping: string, close: () => Promise<void>): void {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, stopping);
    const timer = setTimeout(() => {
      log.error({}, 'shutdown took longer than 25 s; exiting');
      process.exit(1);
    }, 25_000);
    timer.unref();
    try {
      await close();
      process.exit(0);
    } catch (err) {
      log.error({ err }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
