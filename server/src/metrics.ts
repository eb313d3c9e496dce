/**
 * The metrics of an app or worker process (platform/metrics.ts), with the readers that need the features'
 * queries, and the ways Prometheus reaches them: METRICS_PORT (a listener of its own) and/or METRICS_TOKEN
 * (GET /metrics on the main port behind a bearer token). Without either, /metrics answers 404 on the main port.
 */
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from './platform/db/database.js';
import { bearerTokenMatches, createMetrics, observeHttpRequest, type Metrics } from './platform/metrics.js';
import { startMetricsServer, type MetricsServer } from './platform/metrics-server.js';
import type { AppContext } from './shared/context.js';
import { notFound, unauthenticated } from './shared/errors.js';
import { signingHeadAges } from './features/audit/index.js';

/** The refusal of a scrape without the right token (operators read it, in Prometheus's target errors). */
const METRICS_TOKEN_NEEDED = 'The metrics are served with the bearer token configured as METRICS_TOKEN';

export type ProcessMetrics = { metrics: Metrics; server: MetricsServer | null; close(): Promise<void> };

/** The process's metrics, and their listener when METRICS_PORT is set. */
export async function startProcessMetrics(ctx: AppContext, database: Pick<DatabaseHandle, 'pool'>): Promise<ProcessMetrics> {
  const metrics = createMetrics({
    pool: database.pool,
    queues: () => ctx.jobs.queueStats(),
    signingHeads: () => signingHeadAges(ctx),
    onReadError: (err, what) => ctx.log.warn({ err, what }, 'metrics: reading %s failed', what),
  });
  const { port, host } = ctx.config.metrics;
  const server = port === undefined ? null : await startMetricsServer({ port, host, metrics, log: ctx.log });
  if (server) ctx.log.info({ url: server.url }, 'metrics served on their own port');
  return { metrics, server, close: async () => server?.close() };
}

/**
 * Times every request (one histogram observation, labelled by the route's pattern) and adds GET /metrics to the
 * main port: served with the METRICS_TOKEN bearer token, refused (401) without it or with another, and 404 when
 * no token is configured.
 */
export function registerMetricsRoutes(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  app.addHook('onResponse', (request, reply, done) => {
    observeHttpRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.get(
    '/metrics',
    {
      schema: { hide: true },
      config: {
        access: {
          who: 'public',
          why: 'Prometheus scrapes it with the METRICS_TOKEN bearer token, checked here in constant time; 404 without a token configured',
        },
      },
    },
    async (request, reply) => {
      if (!token) throw notFound();
      if (!bearerTokenMatches(request.headers.authorization, token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw unauthenticated(METRICS_TOKEN_NEEDED);
      }
      const text = await metrics.render();
      return reply.type(metrics.contentType).header('cache-control', 'no-store').send(text);
    },
  );
}
