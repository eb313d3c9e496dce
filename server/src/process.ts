// What the server and worker processes share: configuration or exit 78, and a graceful stop on SIGTERM/SIGINT.
import fs from 'node:fs';
import path from 'node:path';
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

/**
 * Everything a Strongroom process creates (database files, the WAL with password hashes, stored objects, the
 * mail outbox) is for the account that runs it alone: directories 0700, files 0600. Called first thing by every
 * entry point, before any file exists.
 */
export function ownerOnlyFiles(): void {
  process.umask(0o077);
}

/** DATA_DIR cannot be trusted: the process refuses to start rather than read or write it. */
export class DataDirUnsafeError extends Error {}

/**
 * Creates DATA_DIR owner-only, or checks an existing one before anything reads it. A directory (DATA_DIR or any
 * below it) that group or others may write is refused: someone else could have put or swapped files there, and
 * only the operator can tell. Files and directories merely readable by others are tightened to owner-only
 * (chmod go-rwx), because that is always safe and closes the leak at once. Symbolic links are not followed.
 * Answers how many entries were tightened.
 */
export function secureDataDir(dir: string): { tightened: number } {
  const fix = `Run \`chmod -R go-rwx ${dir}\` (as the account that runs Strongroom) after checking its contents, then start again.`;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const root = fs.statSync(dir);
  if (!root.isDirectory()) throw new DataDirUnsafeError(`DATA_DIR ${dir} is not a directory.`);
  if (typeof process.getuid === 'function' && root.uid !== process.getuid()) {
    throw new DataDirUnsafeError(
      `DATA_DIR ${dir} belongs to another account (uid ${root.uid}); it must belong to the account that runs Strongroom.`,
    );
  }
  let tightened = 0;
  const visit = (p: string, st: fs.Stats) => {
    if (st.isDirectory() && (st.mode & 0o022) !== 0) {
      throw new DataDirUnsafeError(
        `DATA_DIR ${dir} is not safe: ${p === dir ? 'it' : p} can be written by other accounts (mode ${(st.mode & 0o777).toString(8)}). ${fix}`,
      );
    }
    if ((st.mode & 0o077) !== 0) {
      fs.chmodSync(p, st.mode & 0o700);
      tightened += 1;
    }
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p)) {
        const child = path.join(p, name);
        const cst = fs.lstatSync(child);
        if (cst.isSymbolicLink()) continue;
        visit(child, cst);
      }
    }
  };
  visit(dir, root);
  return { tightened };
}

/** Whether this configuration keeps anything in DATA_DIR (the embedded database, local objects, the mail outbox). */
export function usesDataDir(config: Config): boolean {
  return !config.databaseUrl || !config.s3 || !config.smtpUrl;
}

/** secureDataDir for the entry points: an unsafe DATA_DIR is explained and the process exits 78. */
export function secureDataDirOrExit(config: Config): { tightened: number } {
  if (!usesDataDir(config)) return { tightened: 0 };
  try {
    return secureDataDir(config.dataDir);
  } catch (err) {
    if (err instanceof DataDirUnsafeError) {
      console.error(err.message);
      process.exit(78);
    }
    throw err;
  }
}
