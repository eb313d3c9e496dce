import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';

/** One response header: its name as sent and its value. */
export type SecurityHeader = readonly [name: string, value: string];

/** The browser-facing origin of the object store, which the web app talks to directly for uploads and downloads. */
function objectStoreOrigins(s3: Config['s3']): string[] {
  if (!s3) return [];
  return [s3.endpoint ? new URL(s3.endpoint).origin : 'https://*.amazonaws.com'];
}

/**
 * The Content-Security-Policy of every Strongroom answer: scripts only from Strongroom itself (no inline script),
 * inline styles allowed (the UI library sets style attributes), images and fonts from Strongroom or data:/blob: URLs,
 * network calls to Strongroom and the object store only, no plugins, no <base> or form posts elsewhere, never framed.
 * Over https, the browser also upgrades any plain-http subresource.
 */
function contentSecurityPolicy(opts: { https: boolean; s3: Config['s3'] }): string {
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'"]],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    ['img-src', ["'self'", 'data:', 'blob:']],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', ["'self'", ...objectStoreOrigins(opts.s3)]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  if (opts.https) directives.push(['upgrade-insecure-requests', []]);
  return directives.map(([name, values]) => [name, ...values].join(' ')).join(';');
}

/**
 * Every security header Strongroom sends, computed once when the app is built (never per request). The set is the
 * one Strongroom has always sent: a strict CSP, same-origin opener and resource policies, no referrer, no MIME
 * sniffing, no framing, no DNS prefetch, and HSTS for a year (with subdomains) when the app is served over https.
 * A route may still replace one of them for its own answers (object downloads send a sandboxing CSP).
 */
export function buildSecurityHeaders(config: Pick<Config, 'secureCookies' | 's3'>): readonly SecurityHeader[] {
  const https = config.secureCookies;
  return Object.freeze([
    ['Content-Security-Policy', contentSecurityPolicy({ https, s3: config.s3 })],
    ['Cross-Origin-Opener-Policy', 'same-origin'],
    ['Cross-Origin-Resource-Policy', 'same-origin'],
    ['Origin-Agent-Cluster', '?1'],
    ['Referrer-Policy', 'no-referrer'],
    ...(https ? [['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'] as const] : []),
    ['X-Content-Type-Options', 'nosniff'],
    ['X-DNS-Prefetch-Control', 'off'],
    ['X-Download-Options', 'noopen'],
    ['X-Frame-Options', 'SAMEORIGIN'],
    ['X-Permitted-Cross-Domain-Policies', 'none'],
    ['X-XSS-Protection', '0'],
  ] satisfies SecurityHeader[]);
}

/**
 * Puts the prepared headers on every answer, as the first thing done for a request, so that answers refused by later
 * hooks (cross-site calls, unknown paths, errors) carry them too. They go among the reply's own headers, which Node
 * then writes with the status line in one pass (headers set on the raw response would make it check every header
 * of the answer one by one); a route that sets one of them itself (through reply.header) replaces it for its own
 * answer.
 */
export function registerSecurityHeaders(app: FastifyInstance, headers: readonly SecurityHeader[]): void {
  const lowered: Record<string, string> = Object.freeze(Object.fromEntries(headers.map(([name, value]) => [name.toLowerCase(), value])));
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(lowered);
    done();
  });
}
