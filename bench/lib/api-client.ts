// Small helpers for scenarios that call the JSON API of a running Strongroom (see strongroom.ts).
import type { Strongroom } from './strongroom.js';

/** Marks the bench administrator's MFA as set up (email), so that the setup wall does not stand before the API. */
export async function passMfaWall(sr: Strongroom): Promise<void> {
  await sr.built.ctx.db
    .updateTable('users')
    .set({ mfaEnabled: true, mfaPrimaryMethod: 'email' })
    .where('id', '=', sr.admin.userId)
    .execute();
}

/** One JSON call with the administrator's session cookie; throws on a non-2xx answer (with its body). */
export async function api<T>(
  sr: Pick<Strongroom, 'url' | 'sessionCookie'>,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(sr.url + path, {
    method,
    headers: { cookie: sr.sessionCookie, 'x-api-version': 'v1.0.0', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}
