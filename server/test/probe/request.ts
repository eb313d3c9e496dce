/** A probe request and how it is sent: through a cookie-keeping Client, as the browser would. */
import type { LightMyRequestResponse } from 'fastify';
import type { Client } from '../helpers.js';

export type QueryValue = string | string[];

export type ProbeRequest = {
  /** Who sends it; the samples table fills in the organization's administrator when absent. */
  client?: Client;
  /** A full path with query (e.g. a presigned URL's), instead of the operation's path + `query`. */
  url?: string;
  /** Sent to this path instead of the operation's (with `query`), e.g. a percent-encoded variant. */
  pathOverride?: string;
  query?: Record<string, QueryValue>;
  /** Appended as-is after the encoded `query` (the fuzz sends bytes URLSearchParams would not). */
  rawQuery?: string;
  /** JSON body (serialized here); leave out for calls without one. */
  body?: unknown;
  /** A body sent byte for byte, with its own content-type header. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
};

export function encodeQuery(query: Record<string, QueryValue> | undefined): string {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) for (const x of Array.isArray(v) ? v : [v]) sp.append(k, x);
  return sp.toString();
}

function urlOf(path: string, req: ProbeRequest): string {
  if (req.url) return req.url;
  const qs = [encodeQuery(req.query), req.rawQuery ?? ''].filter(Boolean).join('&');
  const p = req.pathOverride ?? path;
  return qs ? `${p}?${qs}` : p;
}

export async function send(client: Client, method: string, path: string, req: ProbeRequest): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...(req.headers ?? {}) };
  let payload: string | Buffer | undefined;
  if (req.rawBody !== undefined) payload = req.rawBody;
  else if (req.body !== undefined) {
    payload = JSON.stringify(req.body);
    headers['content-type'] ??= 'application/json';
  }
  return client.request({ method: method as 'GET', url: urlOf(path, req), payload, headers });
}

/** A short, stable description of an answer for reports: status, code and message. */
export function describe(res: LightMyRequestResponse): string {
  let tail = res.body.slice(0, 200);
  try {
    const j = res.json() as { code?: string; error?: string };
    if (j && typeof j === 'object' && ('code' in j || 'error' in j)) tail = `${j.code ?? ''} ${JSON.stringify(j.error ?? '')}`;
  } catch {
    /* not JSON */
  }
  return `${res.statusCode} ${tail}`;
}
