import { randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import pino from 'pino';
import type { FastifyBaseLogger } from 'fastify';
import { setupRequest } from '@strongroom/contracts';
import { ConfigError, loadConfig } from './config.js';
import { DataDirInUseError, migrateToLatest, migrateUpTo, openDatabase, type Database } from './platform/db/database.js';
import { createOrganizationFromCli } from './features/setup/setup.service.js';
import { runVaultVerification } from './features/vault/vault-verification.jobs.js';
import { createMailer } from './platform/mail/mailer.js';
import { createBlobStore } from './platform/storage/index.js';
import { newPrivateKeyPem, signerOfPem } from './platform/signing.js';
import { rotateFileSigningKey } from './platform/signing-keys.js';
import { AppError } from './shared/errors.js';
import { closeTextExtractor, readPendingTexts, reindexFromCli } from './features/search/index.js';
import { parseRunJobArgs, runJob, RunJobUsageError } from './run-job.js';
import { DataDirUnsafeError, ownerOnlyFiles, secureDataDir, usesDataDir } from './process.js';
import { runBackup } from './backup/backup.js';
import { BackupError } from './backup/manifest.js';
import { openBackup, runRestore } from './backup/restore.js';

const USAGE = `Usage: npm run admin -- create-org --name "Acme LLP" --admin-email ada@acme.test --admin-name "Ada Admin" --admin-password "..."
       npm run admin -- verify-vault    (checks every vaulted file now, within VAULT_VERIFY_BYTES_PER_HOUR)
       npm run admin -- rotate-signing-key [--print-new-key]    (new signing key; the old one stays published)
       npm run admin -- run-job <sign-audit-heads | archive-audit | retention-end | verify-vault | retention-mail | bin-purge | disposition-review> [--organization <id>] [--dry-run]
                        (runs a scheduled job's work now and prints what it did; --dry-run changes nothing)
       npm run admin -- reindex [--organization <id>] [--since <YYYY-MM-DD>] [--now]
                        (reads the text of files again for document search: by the running server or worker, or with
                        --now in this process, with progress)
       npm run admin -- backup --out <dir> [--include-keys]    (database rows and every stored object, with a manifest)
       npm run admin -- restore --from <dir>    (into an empty installation; checks files, certificates and audit chains)

Honours the same environment as the server (DATA_DIR, DATABASE_URL, ...). With the embedded database
(no DATABASE_URL) the server must be stopped first: one process at a time may open DATA_DIR.`;

async function createOrg(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      name: { type: 'string' },
      'admin-email': { type: 'string' },
      'admin-name': { type: 'string' },
      'admin-password': { type: 'string' },
    },
    strict: true,
  });
  const parsed = setupRequest.omit({ setupToken: true }).safeParse({
    organizationName: values.name,
    adminEmail: values['admin-email'],
    adminName: values['admin-name'],
    adminPassword: values['admin-password'],
  });
  if (!parsed.success) {
    const flags: Record<string, string> = {
      organizationName: '--name',
      adminEmail: '--admin-email',
      adminName: '--admin-name',
      adminPassword: '--admin-password',
    };
    for (const i of parsed.error.issues) console.error(`${flags[String(i.path[0])] ?? i.path.join('.')}: ${i.message}`);
    console.error(`\n${USAGE}`);
    process.exit(64);
  }
  const config = loadConfig();
  if (usesDataDir(config)) secureDataDir(config.dataDir);
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  try {
    await migrateToLatest(handle.db);
    const result = await createOrganizationFromCli(handle.db, {
      name: parsed.data.organizationName,
      adminName: parsed.data.adminName,
      adminEmail: parsed.data.adminEmail,
      adminPassword: parsed.data.adminPassword,
    });
    console.log(JSON.stringify(result));
  } finally {
    await handle.close();
  }
}

/** What a command that works on the installation gets: the database migrated, the store, mail and a log on stderr. */
type CliContext = Parameters<typeof runJob>[0];

/**
 * Opens what the server would (the same environment, DATA_DIR checks, migrations), runs `work` with it in this
 * process (no job queue: the work happens here, not through a worker), and closes it all again.
 */
async function withInstallation<T>(
  work: (ctx: CliContext) => Promise<T>,
  migrate: (db: Database) => Promise<unknown> = migrateToLatest,
): Promise<T> {
  const config = loadConfig();
  if (usesDataDir(config)) secureDataDir(config.dataDir);
  const log = pino({ level: config.logLevel === 'info' ? 'warn' : config.logLevel }, pino.destination(2)) as unknown as FastifyBaseLogger;
  const handle = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log });
  try {
    await migrate(handle.db);
    const store = createBlobStore({ dataDir: config.dataDir, appUrl: config.appUrl, signingKey: config.storageSigningKey, s3: config.s3 });
    return await work({ config, db: handle.db, dbKind: handle.kind, mailer, store, jobs: undefined as never, log });
  } finally {
    await mailer.close();
    await handle.close();
  }
}

/**
 * Runs the vault's continuous verification now, in this process: every vault object not checked since the run
 * began, within the hour's byte budget, recorded, audited and mailed exactly as the hourly job does. Prints the
 * run's counts as one line of JSON; exit 0 when nothing differed, 1 when a file failed its check.
 */
async function verifyVault(argv: string[]): Promise<void> {
  parseArgs({ args: argv, options: {}, strict: true });
  await withInstallation(async (ctx) => {
    const run = await runVaultVerification(ctx, { force: true });
    console.log(JSON.stringify(run));
    if (run.failed > 0) process.exitCode = 1;
  });
}

/**
 * Replaces the installation's signing key kept in DATA_DIR and prints the retired and the new key's ids as one
 * line of JSON. A key given as SIGNING_PRIVATE_KEY cannot be replaced from here (exit 78, saying what to do);
 * --print-new-key prints a fresh PKCS#8 PEM to set there and changes nothing.
 */
async function rotateSigningKey(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { 'print-new-key': { type: 'boolean' } }, strict: true });
  if (values['print-new-key']) {
    const pem = newPrivateKeyPem();
    process.stdout.write(pem.endsWith('\n') ? pem : `${pem}\n`);
    console.error(`fingerprint: ${signerOfPem(pem).keyId}`);
    return;
  }
  const config = loadConfig();
  if (config.signingPrivateKey !== undefined) {
    console.error(
      'SIGNING_PRIVATE_KEY is set, so the signing key cannot be replaced from here. Set SIGNING_PRIVATE_KEY to a new Ed25519 key\n' +
        '(npm run admin -- rotate-signing-key --print-new-key prints one) for every app server and the worker, and restart them:\n' +
        'the next start retires the old key, which stays published so that what it signed still verifies.',
    );
    process.exit(78);
  }
  await withInstallation(async (ctx) => {
    console.log(JSON.stringify(await rotateFileSigningKey(ctx)));
  });
}

/**
 * Runs a scheduled job's work now, in this process (run-job.ts): prints one line of JSON; exit 1 when the run
 * found a failure, 64 for a request the job cannot do.
 */
async function runJobNow(argv: string[]): Promise<void> {
  const args = parseRunJobArgs(argv);
  await withInstallation(async (ctx) => {
    const { result, failed } = await runJob(ctx, args);
    console.log(JSON.stringify(result));
    if (failed) process.exitCode = 1;
  });
}

/**
 * Writes a backup of the installation to --out (a new or empty directory): the database's rows read in one
 * snapshot, every object of the store, and DATA_DIR/keys only with --include-keys. Prints one line of JSON.
 */
async function backup(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { out: { type: 'string' }, 'include-keys': { type: 'boolean' } }, strict: true });
  if (!values.out) throw new CliUsageError('backup needs --out <dir>');
  await withInstallation(async (ctx) => {
    console.log(JSON.stringify(await runBackup(ctx, { out: values.out!, includeKeys: values['include-keys'] === true })));
  });
}

/**
 * Restores a backup into this (empty) installation and checks it. Prints one line of JSON with the counts, the
 * checks and any problem; exit 0 when all holds, 1 when a check failed, 65 when the restore was refused.
 */
async function restore(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { from: { type: 'string' } }, strict: true });
  if (!values.from) throw new CliUsageError('restore needs --from <dir>');
  const { manifest, migration } = await openBackup(values.from);
  await withInstallation(
    async (ctx) => {
      const summary = await runRestore(ctx, values.from!, manifest);
      console.log(JSON.stringify(summary));
      if (summary.problems.length > 0) process.exitCode = 1;
    },
    (db) => migrateUpTo(db, migration),
  );
}

/**
 * Sends the text of every file (of one organization, or uploaded since a day) back to be read for document
 * search. Prints one line of JSON per organization; with --now reads them here, with progress on stderr.
 */
async function reindex(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: { organization: { type: 'string' }, since: { type: 'string' }, now: { type: 'boolean' } },
    strict: true,
  });
  if (values.since !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(values.since)) throw new CliUsageError('--since takes a day: YYYY-MM-DD');
  if (values.organization !== undefined && !/^[0-9a-f-]{36}$/i.test(values.organization))
    throw new CliUsageError('--organization takes an organization id');
  await withInstallation(async (ctx) => {
    const since = values.since === undefined ? undefined : new Date(`${values.since}T00:00:00Z`);
    const runs = await reindexFromCli(ctx, { organizationId: values.organization, since });
    for (const run of runs) console.log(JSON.stringify(run));
    if (!values.now) return;
    const total = runs.reduce((n, r) => n + r.total, 0);
    try {
      const read = await readPendingTexts(ctx, `cli-${randomUUID()}`, (n) => {
        if (n % 25 === 0 || n === total) console.error(`read ${n} of ${total}`);
      });
      console.log(JSON.stringify({ read }));
    } finally {
      await closeTextExtractor(ctx);
    }
  });
}

class CliUsageError extends Error {}

async function main(): Promise<void> {
  ownerOnlyFiles();
  const [command, ...rest] = process.argv.slice(2);
  try {
    if (command === 'create-org') return await createOrg(rest);
    if (command === 'verify-vault') return await verifyVault(rest);
    if (command === 'rotate-signing-key') return await rotateSigningKey(rest);
    if (command === 'run-job') return await runJobNow(rest);
    if (command === 'reindex') return await reindex(rest);
    if (command === 'backup') return await backup(rest);
    if (command === 'restore') return await restore(rest);
    console.error(command ? `Unknown command: ${command}\n\n${USAGE}` : USAGE);
    process.exit(64);
  } catch (err) {
    if (err instanceof ConfigError || err instanceof DataDirInUseError || err instanceof DataDirUnsafeError) {
      console.error(err.message);
      process.exit(err instanceof DataDirInUseError ? 75 : 78);
    }
    if (err instanceof BackupError) {
      console.error(err.message);
      process.exit(65);
    }
    if (err instanceof RunJobUsageError || err instanceof CliUsageError) {
      console.error(`${err.message}\n\n${USAGE}`);
      process.exit(64);
    }
    if (err instanceof AppError) {
      console.error(err.message);
      process.exit(65);
    }
    if (err instanceof Error && 'code' in err && (err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      console.error(`${err.message}\n\n${USAGE}`);
      process.exit(64);
    }
    throw err;
  }
}

void main();
