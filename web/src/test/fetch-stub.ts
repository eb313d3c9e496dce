import { vi } from 'vitest';

/** One request the app made: method, path and query, and the JSON body it sent. */
export type FetchCall = { method: string; url: URL; path: string; body: unknown };
export type FetchHandler = (call: FetchCall) => Response | Promise<Response>;

/**
 * Replaces the global fetch for the current test (vitest restores it: unstubGlobals) with `handler`, the server
 * at the network boundary. Answers the list of calls made, in order.
 */
export function stubFetch(handler: FetchHandler): FetchCall[] {
  const calls: FetchCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url, 'http://strongroom.test');
      const raw = init?.body;
      const call: FetchCall = {
        method: init?.method ?? 'GET',
        url,
        path: url.pathname,
        body: typeof raw === 'string' ? (JSON.parse(raw) as unknown) : undefined,
      };
      calls.push(call);
      return handler(call);
    }),
  );
  return calls;
}
