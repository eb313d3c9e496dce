import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteShorthandOptions } from 'fastify';
import cookie from '@fastify/cookie';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { MSG } from '@strongroom/contracts';
import type { Config } from './config.js';
import { defineJobs } from './jobs.js';
import { migrateToLatest, openDatabase, ping, type DatabaseHandle } from './platform/db/database.js';
import { createMailer, type Mailer } from './platform/mail/mailer.js';
import { buildSecurityHeaders, registerSecurityHeaders } from './platform/http/security-headers.js';
import { redactUrl } from './platform/http/redact-url.js';
import { createBlobStore, writeOnceCheck } from './platform/storage/index.js';
import type { BlobStore } from './platform/storage/blob-store.js';
import { LocalBlobStore } from './platform/storage/local-store.js';
import { localStoreRoutes } from './platform/storage/local-store.routes.js';
import type { AppContext } from './shared/context.js';
import { registerErrorHandler } from './shared/http-errors.js';
import { registerRequestGuards } from './shared/request-guards.js';
import { registerAccessGuard } from './features/access/index.js';
import { openApiOptions } from './features/access/openapi.js';
import { authRoutes } from './features/auth/auth.routes.js';
import { invitationsRoutes } from './features/invitations/invitations.routes.js';
import { mfaRoutes } from './features/mfa/mfa.routes.js';
import { securityRoutes } from './features/security/security.routes.js';
import { securityToolingRoutes } from './features/security-tooling/security-tooling.routes.js';
import { setupRoutes } from './features/setup/setup.routes.js';
import { mattersRoutes } from './features/matters/matters.routes.js';
import { nodeHistoryRoutes } from './features/nodes/node-history.routes.js';
import { nodesRoutes } from './features/nodes/nodes.routes.js';
import { uploadsRoutes } from './features/uploads/uploads.routes.js';
import { legalHoldRoutes } from './features/legal-hold/legal-hold.routes.js';
import { vaultRoutes } from './features/vault/vault.routes.js';
import { vaultQueriesRoutes } from './features/vault/vault-queries.routes.js';
import { undoRoutes } from './features/undo/undo.routes.js';
import { settingsRoutes } from './features/settings/settings.routes.js';
import { featureFlagsRoutes } from './features/feature-flags/feature-flags.routes.js';
import { undoMatterUpdate } from './features/matters/matters.service.js';
import { undoMoveNode, undoRenameNode } from './features/nodes/nodes-undo.service.js';
import { undoDeleteNode } from './features/nodes/bin.service.js';
import { teamRoutes } from './features/team/team.routes.js';
import { auditRoutes } from './features/audit/audit.routes.js';
import { archivalRoutes } from './features/archival/archival.routes.js';
import { dashboardRoutes } from './features/dashboard/index.js';
import { closeTextExtractor, searchRoutes } from './features/search/index.js';
import { approvalsRoutes } from './features/approvals/index.js';
import { apiTokensRoutes } from './features/api-tokens/index.js';
import { ssoRoutes } from './features/sso/index.js';
import { passkeysRoutes } from './features/passkeys/index.js';
import { notificationsRoutes } from './features/notifications/index.js';
import { dispositionRoutes } from './features/disposition/disposition.routes.js';
import { undoUserUpdate } from './features/team/team-members.service.js';
import { localObjectGuard } from './features/uploads/uploads.guard.js';
import { JobQueue } from './platform/jobs/job-queue.js';
import { signingKeysRoutes } from './platform/signing-keys.routes.js';
import { registerMetricsRoutes, startProcessMetrics } from './metrics.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The built web app: web/dist beside server/, from src/ (tests, dev) and from dist/ (production) alike. */
export const DEFAULT_WEB_DIST = path.resolve(here, '../../web/dist');

export type BuildOptions = {
  config: Config;
  database?: DatabaseHandle;
  mailer?: Mailer;
  store?: BlobStore;
  /** Run migrations on start (default true). */
  migrate?: boolean;
  logger?: boolean;
  /** A pino logger to use instead of the one built from config (tests read what is logged). */
  loggerInstance?: FastifyBaseLogger;
};

export type BuiltApp = {
  app: FastifyInstance;
  ctx: AppContext;
  /** Where the metrics listener (METRICS_PORT) answers, when there is one. */
  metricsUrl?: string;
  close(): Promise<void>;
};

/**
 * How /_api answers are compressed: JSON only, from 1 KB (smaller answers gain nothing), brotli or gzip. Brotli at
 * its fastest quality: on a matter's tree of 7 MB it took 18 ms against 90 ms at the usual 4, for an answer 8% larger.
 */
const API_COMPRESSION: Exclude<RouteShorthandOptions['compress'], false | undefined> = {
  encodings: ['br', 'gzip'],
  threshold: 1024,
  customTypes: /^application\/json(?:;|$)/,
  brotliOptions: {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT },
  },
  zlibOptions: { level: 1 },
};

/** Pino options: JSON lines without cookies, MFA tokens, or tokens and codes in URLs (redactUrl). */
export function logOptions(level: string) {
  return {
    level,
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'req.headers["x-mfa-token"]', 'res.headers["set-cookie"]'],
      remove: true,
    },
    serializers: {
      req: (req: { method: string; url: string; ip: string }) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
    },
  };
}

export async function buildApp(opts: BuildOptions): Promise<BuiltApp> {
  const { config } = opts;
  const loggerOptions = logOptions(config.logLevel);
  const app = Fastify({
    // At LOG_LEVEL=silent no logger is built at all: a silent pino still makes a child logger for every request.
    ...(opts.loggerInstance
      ? { loggerInstance: opts.loggerInstance }
      : { logger: opts.logger === false || config.logLevel === 'silent' ? false : loggerOptions }),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  const database = opts.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  if (opts.migrate !== false) await migrateToLatest(database.db);
  const mailer = opts.mailer ?? createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, log: app.log });
  const store =
    opts.store ??
    (await createBlobStore({ dataDir: config.dataDir, appUrl: config.appUrl, signingKey: config.storageSigningKey, s3: config.s3 }));
  const jobs = new JobQueue(database, { mode: config.jobRunner, backend: database.kind, log: app.log });
  const ctx: AppContext = { config, db: database.db, dbKind: database.kind, mailer, store, jobs, log: app.log };
  defineJobs(ctx);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  // Every answer is timed for the metrics (from the first hook on, so refusals of the guards below count too).
  const processMetrics = await startProcessMetrics(ctx, database);
  registerMetricsRoutes(app, processMetrics.metrics, config.metrics.token);

  await app.register(cookie);
  // Security headers (CSP, HSTS over https, ...) are worked out once here and copied onto every answer.
  registerSecurityHeaders(app, buildSecurityHeaders(config));

  // State-changing calls take JSON only (no form or text posts from other sites) ...
  app.removeContentTypeParser('text/plain');
  // ... and are refused when the browser says they come from another site; text and nesting are checked once for
  // every route; /_api answers are not cached.
  registerRequestGuards(app, { appUrl: config.appUrl });
  registerAccessGuard(app, ctx);

  // /_api JSON answers of 1 KB or more go out compressed (brotli or gzip, as the caller accepts). Nothing else is
  // compressed on the fly: object downloads must keep their exact length and byte ranges, and the web app's files
  // are compressed once when it is built. The hook must come before the plugin (both act as each route is added).
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/_api/') && route.compress === undefined) route.compress = API_COMPRESSION;
  });
  await app.register(compress, { global: false, globalDecompression: false });

  // The OpenAPI document: generated from the route declarations (schemas and access) as the routes are added.
  await app.register(swagger, openApiOptions({ appUrl: config.appUrl }));

  await app.register(authRoutes(ctx));
  await app.register(mfaRoutes(ctx));
  await app.register(invitationsRoutes(ctx));
  await app.register(securityRoutes(ctx));
  await app.register(securityToolingRoutes(ctx));
  await app.register(setupRoutes(ctx));
  await app.register(mattersRoutes(ctx));
  await app.register(nodesRoutes(ctx));
  await app.register(nodeHistoryRoutes(ctx));
  await app.register(uploadsRoutes(ctx));
  await app.register(legalHoldRoutes(ctx));
  await app.register(vaultRoutes(ctx));
  await app.register(settingsRoutes(ctx));
  await app.register(featureFlagsRoutes(ctx));
  await app.register(vaultQueriesRoutes(ctx));
  await app.register(auditRoutes(ctx));
  await app.register(archivalRoutes(ctx));
  await app.register(dashboardRoutes(ctx));
  await app.register(signingKeysRoutes(ctx));
  await app.register(searchRoutes(ctx));
  await app.register(approvalsRoutes(ctx));
  await app.register(apiTokensRoutes(ctx));
  await app.register(ssoRoutes(ctx));
  await app.register(passkeysRoutes(ctx));
  await app.register(notificationsRoutes(ctx));
  await app.register(dispositionRoutes(ctx));
  // Every kind of change that can be undone, with the feature that restores it.
  await app.register(teamRoutes(ctx));
  await app.register(
    undoRoutes(ctx, {
      'node.rename': undoRenameNode,
      'node.move': undoMoveNode,
      'node.delete': undoDeleteNode,
      'matter.update': undoMatterUpdate,
      'user.update': undoUserUpdate,
    }),
  );
  if (store instanceof LocalBlobStore) await app.register(localStoreRoutes, { prefix: '/_objects', store, guard: localObjectGuard(ctx) });

  app.get(
    '/_api/openapi.json',
    { schema: { hide: true }, config: { access: { who: 'public', why: 'the published description of this API' } } },
    async () => app.swagger(),
  );
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  // Vaulting is always possible, so start-up says at once when the store would not enforce write-once.
  void writeOnceCheck(store).then((vault) => {
    if (vault !== 'ok') app.log.warn({ vault }, 'Vault storage: %s', vault);
  });
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    const checks: Record<string, string> = {};
    await Promise.all([
      ping(ctx.db).then(
        () => (checks.database = 'ok'),
        () => (checks.database = 'failing'),
      ),
      store.ping().then(
        () => (checks.objectStore = 'ok'),
        () => (checks.objectStore = 'failing'),
      ),
      writeOnceCheck(store).then((vault) => (checks.vault = vault)),
    ]);
    // The vault check informs and does not gate: the archive stays usable while the bucket is being fixed.
    const ok = checks.database === 'ok' && checks.objectStore === 'ok';
    return reply.status(ok ? 200 : 503).send({ status: ok ? 'ready' : 'not ready', checks });
  });

  const webDist = config.webDist ?? DEFAULT_WEB_DIST;
  if (fs.existsSync(path.join(webDist, 'index.html'))) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The web build writes .br and .gz files beside its text files; the one the browser accepts is sent, with
      // Vary: Accept-Encoding, and the uncompressed file otherwise.
      preCompressed: true,
      setHeaders(res, file) {
        // Hashed assets never change; index.html must always be fetched anew.
        res.header('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    const indexHtml = fs.readFileSync(path.join(webDist, 'index.html'), 'utf8');
    // Every client route answers with the app shell; the router shows the page or Not Found.
    app.get(
      '/*',
      {
        schema: {
          operationId: 'getWebAppPage',
          summary: "Answers the web app's page shell (HTML) or one of its built files.",
          tags: ['web app'],
        },
        config: {
          access: {
            who: 'public',
            why: 'the web app shell and its assets; the pages behind sign-in check the session through /_api calls',
          },
        },
      },
      async (request, reply) => {
        const rel = decodeURIComponent((request.url.split('?')[0] ?? '/').replace(/^\/+/, ''));
        if (rel && !rel.includes('..') && fs.existsSync(path.join(webDist, rel)) && fs.statSync(path.join(webDist, rel)).isFile()) {
          return reply.sendFile(rel);
        }
        if (/^(_api|_objects)(\/|$)/.test(rel) || /\.[a-z0-9]+$/i.test(rel)) {
          return reply.status(404).send({ error: MSG.notFound, code: 'NOT_FOUND' });
        }
        return reply.type('text/html').header('cache-control', 'no-cache').send(indexHtml);
      },
    );
  }

  // Jobs are enqueued from the first request on; with JOB_RUNNER=embedded this process also runs them.
  await jobs.start();

  return {
    app,
    ctx,
    metricsUrl: processMetrics.server?.url,
    async close() {
      await app.close();
      await processMetrics.close();
      await jobs.stop();
      await closeTextExtractor(ctx);
      await mailer.close();
      if (!opts.database) await database.close();
    },
  };
}
