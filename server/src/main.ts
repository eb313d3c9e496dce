import { buildApp } from './app.js';
import { loadConfigOrExit, ownerOnlyFiles, secureDataDirOrExit, stopOnSignals } from './process.js';
import { DataDirInUseError } from './platform/db/database.js';
import { prepareSetupToken } from './features/setup/setup.service.js';
import { registerSigningKeyAtStart } from './platform/signing-keys.js';
import { startAuditHeadSigning, startAuditSearchBackfill } from './features/audit/index.js';

async function main(): Promise<void> {
  ownerOnlyFiles();
  const config = loadConfigOrExit();
  const { tightened } = secureDataDirOrExit(config);
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
  if (tightened > 0)
    app.log.warn({ dataDir: config.dataDir, tightened }, 'DATA_DIR held entries other accounts could read; they are now owner-only');
  // The key certificates are signed with is published (and a newly configured one replaces the old) before any request.
  const signingKeys = await registerSigningKeyAtStart(ctx);
  await app.listen({ port: config.port, host: config.host });
  const setupToken = await prepareSetupToken(ctx);
  if (setupToken) {
    // Printed once, to the console of whoever started the server: it admits the first administrator. The JSON log
    // (which log collectors keep) says where to look, never the token itself.
    app.log.warn(`No organization exists yet. Open ${config.appUrl}/setup with the setup token printed on the console`);
    console.log(`\n  Strongroom first run: open ${config.appUrl}/setup with the setup token\n  ${setupToken}\n`);
  }
  app.log.info(
    { database: ctx.dbKind, objectStore: config.s3 ? 's3' : 'local', mail: ctx.mailer.kind, appUrl: config.appUrl },
    'Strongroom is ready',
  );

  // Chains that grew while the server was stopped are signed now, and the periodic signing is queued.
  startAuditHeadSigning(ctx).then(
    (run) => app.log.info({ signed: run.signed.length, failed: run.failed.length }, 'audit chain heads signed at start'),
    (err: unknown) => app.log.error({ err }, 'signing audit chain heads at start failed'),
  );

  // An audit log written before the list's search text existed has it filled in the background (once).
  startAuditSearchBackfill(ctx).then(
    (queued) => queued && app.log.info('audit search text backfill queued'),
    (err: unknown) => app.log.error({ err }, 'queueing the audit search text backfill failed'),
  );

  stopOnSignals(app.log, 'shutting down: finishing requests in flight', () => {
    signingKeys.stop();
    return built.close();
  });
}

void main();
