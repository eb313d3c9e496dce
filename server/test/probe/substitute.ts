/** Shared by the tenant and API token probes: a sample with another organization's ids, and what an answer tells. */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { RouteAccess } from '../../src/shared/route-access.js';
import type { IdKind, IdProbe } from '../probe-samples.js';
import type { ProbeRequest } from './request.js';

/** The request with the probe's inputs replaced by `value(kind)`. */
export function substitute(req: ProbeRequest, set: IdProbe['set'], value: (kind: IdKind) => string | number): ProbeRequest {
  const out: ProbeRequest = {
    ...req,
    body: req.body === undefined ? undefined : structuredClone(req.body),
    query: req.query ? { ...req.query } : undefined,
  };
  for (const [input, kind] of Object.entries(set)) {
    const [where, name] = [input.slice(0, input.indexOf('.')), input.slice(input.indexOf('.') + 1)];
    const v = value(kind);
    if (where === 'body') (out.body as Record<string, unknown>)[name] = v;
    else if (where === 'query') out.query = { ...(out.query ?? {}), [name]: String(v) };
    else throw new Error(`cannot substitute ${input}`);
  }
  return out;
}

/** What an answer tells the caller, with the values it was sent replaced by a placeholder. */
export function answerOf(res: LightMyRequestResponse, sent: Array<string | number>): { status: number; code?: string; error?: string } {
  let body: { code?: string; error?: string } = {};
  try {
    body = res.json();
  } catch {
    /* not JSON */
  }
  let error = typeof body?.error === 'string' ? body.error : undefined;
  for (const v of sent) error = error?.split(String(v)).join('<sent>');
  return { status: res.statusCode, code: body?.code, error };
}

/** The declaration of the route behind an operation of the document ("{name}" path parameters are wildcards). */
export function declaredAccess(app: FastifyInstance, key: string): RouteAccess | undefined {
  const normal = (k: string) => k.replace(/\{[^}]+\}|:[A-Za-z]+|\*/g, '*');
  for (const [routeKey, access] of app.routeAccess) if (normal(routeKey) === normal(key)) return access;
  return undefined;
}
