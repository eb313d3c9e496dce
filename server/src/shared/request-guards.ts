import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_VERSION, MAX_REQUEST_DEPTH, MSG, jsonProblem } from '@strongroom/contracts';

/**
 * Whether a request is an /_api call, judged by the path the router matched (or, for a path no route matched, the
 * decoded path), never by the raw URL: `/%5Fapi/...` reaches the same routes as `/_api/...` and must meet the
 * same checks.
 */
function isApiRequest(request: FastifyRequest): boolean {
  const query = request.url.indexOf('?');
  const raw = query === -1 ? request.url : request.url.slice(0, query);
  // Without an escape the path is its own decoded form, and any route it matched has the same beginning.
  if (!raw.includes('%')) return raw.startsWith('/_api/') || raw === '/_api';
  const routed = request.routeOptions?.url;
  if (routed && routed.startsWith('/_api/')) return true;
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    /* a malformed escape: the raw path is all there is */
  }
  return decoded.startsWith('/_api/') || decoded === '/_api';
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function isPlainJson(body: unknown): boolean {
  if (typeof body === 'string') return true;
  if (body === null || typeof body !== 'object') return false;
  if (Array.isArray(body)) return true;
  const proto = Object.getPrototypeOf(body);
  return proto === Object.prototype || proto === null;
}

/**
 * The checks every request meets before any route sees it:
 * - /_api calls are for the Strongroom web app on its own origin. A browser that says the call comes from another
 *   site (Sec-Fetch-Site cross-site or same-site) is refused, GETs included, so that a link or a form elsewhere
 *   cannot make a signed-in user download or change anything; a state-changing call with a foreign Origin is
 *   refused too (older browsers send no Sec-Fetch-Site). Calls without these headers (scripts, the CLI, tests)
 *   are not browser cross-site requests and pass. The one exception is a route that another site sends the
 *   browser to by design (the identity provider's redirect back after single sign-on): a GET top-level
 *   navigation to a route declaring `crossSiteEntry` passes, and the route proves the request its own way.
 * - No text anywhere in a JSON body, query string or path parameter may hold NUL or a lone surrogate, and no body
 *   or query may nest deeper than MAX_REQUEST_DEPTH: one rule here, so that no route can forget it.
 * - /_api answers are never cached, and every answer names the API version.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** Why another site may send the browser here (a top-level GET), and what proves the request instead. */
    crossSiteEntry?: string;
  }
}

export function registerRequestGuards(app: FastifyInstance, opts: { appUrl: string }): void {
  const allowedOrigins = new Set([new URL(opts.appUrl).origin]);
  const originAllowed = (request: FastifyRequest, origin: string) => {
    const host = request.headers.host;
    return allowedOrigins.has(origin) || (!!host && (origin === `http://${host}` || origin === `https://${host}`));
  };

  // Callback hooks rather than async ones: every request meets them, and a promise per hook is work for nothing.
  app.addHook('onRequest', (request, reply, done) => {
    if (!isApiRequest(request)) return done();
    const origin = typeof request.headers.origin === 'string' ? request.headers.origin : undefined;
    const site = request.headers['sec-fetch-site'];
    const fromOtherSite = site === 'cross-site' || site === 'same-site';
    const entry =
      request.method === 'GET' && request.headers['sec-fetch-mode'] === 'navigate' && !!request.routeOptions.config?.crossSiteEntry;
    if (
      (fromOtherSite && !entry && !(origin && originAllowed(request, origin))) ||
      (STATE_CHANGING.has(request.method) && origin && !originAllowed(request, origin))
    ) {
      reply.status(403).send({ error: MSG.forbiddenOrigin, code: 'FORBIDDEN_ORIGIN' });
      return;
    }
    done();
  });

  app.addHook('preValidation', (request, reply, done) => {
    const problem =
      jsonProblem(request.query, MAX_REQUEST_DEPTH) ??
      jsonProblem(request.params, MAX_REQUEST_DEPTH) ??
      (isPlainJson(request.body) ? jsonProblem(request.body, MAX_REQUEST_DEPTH) : null);
    if (problem === 'text') {
      reply.status(400).send({ error: MSG.textNotAllowed, code: 'VALIDATION_ERROR' });
      return;
    }
    if (problem === 'depth') {
      reply.status(400).send({ error: MSG.requestTooDeep, code: 'VALIDATION_ERROR' });
      return;
    }
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    if (isApiRequest(request)) reply.header('cache-control', 'no-store');
    reply.header('x-api-version', API_VERSION);
    done(null, payload);
  });
}
