/**
 * The metrics listener (METRICS_PORT): a plain HTTP server of its own, on 127.0.0.1 unless METRICS_HOST says
 * otherwise, that serves GET /metrics and nothing else. It answers without a token: whoever can reach the port
 * may read the figures, so it is meant for loopback or a network only the monitoring reaches.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Metrics } from './metrics.js';

export type MetricsServer = { url: string; close(): Promise<void> };

export async function startMetricsServer(opts: {
  port: number;
  host: string;
  metrics: Metrics;
  log: FastifyBaseLogger;
}): Promise<MetricsServer> {
  const { metrics, log } = opts;
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: this port serves only GET /metrics\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('Only GET /metrics\n');
      return;
    }
    metrics.render().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        log.error({ err }, 'rendering the metrics failed');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('The metrics could not be read\n');
      },
    );
  });
  // A scrape is one short request; idle keep-alive connections do not hold the process at shutdown.
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
