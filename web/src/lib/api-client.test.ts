import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '@strongroom/contracts';
import { apiRequest, errorFromAnswer } from './api-client';
import { ApiError } from './api-error';
import { getCurrentMfaRequest, resetMfaRequestsForTest, subscribeMfaRequests, type MfaRequest } from './mfa-bridge';

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

const mfaRequired = () =>
  json(401, {
    error: 'MFA_REQUIRED',
    code: 'MFA_REQUIRED',
    mfaRequired: true,
    message: MSG.mfaRequired,
    details: { operation: 'MFA_USER_MANAGEMENT', availableMethods: ['totp', 'email'], mfaMethod: 'email' },
  });

/** Resolves with the MFA request the client queues for the dialog. */
function nextMfaRequest(): Promise<MfaRequest> {
  return new Promise((resolve) => {
    const current = getCurrentMfaRequest();
    if (current) return resolve(current);
    const stop = subscribeMfaRequests(() => {
      const r = getCurrentMfaRequest();
      if (r) {
        stop();
        resolve(r);
      }
    });
  });
}

type Call = { url: string; init: RequestInit };

describe('apiRequest', () => {
  let calls: Call[];
  let answers: Array<() => Response | Promise<Response>>;

  beforeEach(() => {
    calls = [];
    answers = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit) => {
        calls.push({ url, init });
        const next = answers.shift();
        if (!next) throw new Error('unexpected fetch');
        return next();
      }),
    );
  });

  afterEach(() => {
    resetMfaRequestsForTest();
    vi.useRealTimers();
  });

  it("hands over a matter's dates as dates, in a matter and in a list of matters, and leaves the rest as sent", async () => {
    const sent = {
      id: 'm1',
      createdAt: '2026-01-02T10:00:00.000Z',
      updatedAt: '2026-01-03T11:30:00.000Z',
      vaultedAt: null,
      retentionExpiresAt: '2033-01-02T10:00:00.000Z',
    };
    const node = { id: 'n1', createdAt: '2026-01-02T10:00:00.000Z', updatedAt: '2026-01-02T10:00:00.000Z' };
    answers.push(() => json(200, { matter: sent, nodes: [node] }));
    const detail = await apiRequest<{ matter: typeof sent; nodes: (typeof node)[] }>('/_api/matters/detail');
    expect(detail.matter.createdAt).toBeInstanceOf(Date);
    expect(detail.matter.createdAt.toISOString()).toBe('2026-01-02T10:00:00.000Z');
    expect(detail.matter.updatedAt.getTime()).toBe(Date.parse('2026-01-03T11:30:00.000Z'));
    expect(detail.matter.retentionExpiresAt?.getUTCFullYear()).toBe(2033);
    expect(detail.matter.vaultedAt).toBeNull();
    expect(detail.matter.id).toBe('m1');
    // Only the matter's own dates: the tree beside it is as the server sent it.
    expect(detail.nodes).toEqual([node]);

    answers.push(() => json(200, { matters: [sent, { ...sent, id: 'm2', createdAt: 'not a date' }], totalCount: 2 }));
    const list = await apiRequest<{ matters: (typeof sent)[]; totalCount: number }>('/_api/matters/list');
    expect(list.matters[0]!.createdAt).toEqual(new Date('2026-01-02T10:00:00.000Z'));
    // A value that is not an ISO date-time is left alone rather than turned into an invalid date.
    expect(list.matters[1]!.createdAt as unknown).toBe('not a date');
    expect(list.totalCount).toBe(2);

    answers.push(() => json(200, { createdAt: '2026-01-02T10:00:00.000Z' }));
    await expect(apiRequest<{ createdAt: string }>('/_api/x')).resolves.toEqual({ createdAt: '2026-01-02T10:00:00.000Z' });
  });

  it("hands over the session's end times as dates", async () => {
    const session = { expiresAt: '2026-11-26T15:00:00.000Z', absoluteExpiresAt: '2026-11-27T01:00:00.000Z', idleTimeoutSeconds: 1800 };
    answers.push(() => json(200, { user: { id: 1 }, session, apiVersion: { server: '1', status: 'compatible' } }));
    const answer = await apiRequest<{ user: { id: number }; session: typeof session }>('/_api/auth/session');
    expect(answer.session.expiresAt).toEqual(new Date('2026-11-26T15:00:00.000Z'));
    expect(answer.session.absoluteExpiresAt).toEqual(new Date('2026-11-27T01:00:00.000Z'));
    expect(answer.session.idleTimeoutSeconds).toBe(1800);
    expect(answer.user).toEqual({ id: 1 });
  });

  it('sends JSON and returns the parsed answer', async () => {
    answers.push(() => json(200, { ok: 1 }));
    await expect(apiRequest('/_api/x', { body: { a: 1 } })).resolves.toEqual({ ok: 1 });
    expect(calls[0]!.init.method).toBe('POST');
    expect(calls[0]!.init.body).toBe('{"a":1}');
    expect((calls[0]!.init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('throws an ApiError with the error text, code and details of a failed answer', async () => {
    answers.push(() => json(409, { error: 'Name taken.', code: 'CONFLICT_ERROR', details: { field: 'name' } }));
    const error = await apiRequest('/_api/x', { body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'CONFLICT_ERROR', message: 'Name taken.', details: { field: 'name' } });
  });

  it('turns a network failure into the connection message', async () => {
    answers.push(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(apiRequest('/_api/x')).rejects.toMatchObject({ code: 'NETWORK_ERROR', message: MSG.networkError });
  });

  it('times out after 15 s with the given message', async () => {
    vi.useFakeTimers();
    answers.push(
      () =>
        new Promise<Response>((_resolve, reject) => {
          const signal = calls[calls.length - 1]!.init.signal!;
          signal.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const pending = apiRequest('/_api/auth/session', { timeoutMessage: MSG.authTimeout }).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(15_000);
    await expect(pending).resolves.toMatchObject({ code: 'TIMEOUT', message: MSG.authTimeout });
  });

  it('on MFA_REQUIRED asks for a code and sends the same request again with it', async () => {
    answers.push(mfaRequired, () => json(200, { success: true }));
    const result = apiRequest('/_api/settings/users/invite', { body: { email: 'a@b.co', role: 'user' } });

    const request = await nextMfaRequest();
    expect(request.demand).toEqual({ operation: 'MFA_USER_MANAGEMENT', method: 'email', availableMethods: ['totp', 'email'] });
    await request.submit('123456');

    await expect(result).resolves.toEqual({ success: true });
    expect(calls).toHaveLength(2);
    expect(calls[1]!.url).toBe('/_api/settings/users/invite');
    expect(calls[1]!.init.method).toBe('POST');
    expect(JSON.parse(calls[1]!.init.body as string)).toEqual({ email: 'a@b.co', role: 'user', mfaToken: '123456' });
    expect((calls[1]!.init.headers as Record<string, string>)['x-mfa-token']).toBe('123456');
    expect(getCurrentMfaRequest()).toBeNull();
  });

  it('keeps the request open after a refused code, and succeeds with the next one', async () => {
    answers.push(mfaRequired, mfaRequired, () => json(200, { done: true }));
    const result = apiRequest('/_api/x', { body: { a: 1 } });
    const request = await nextMfaRequest();

    await expect(request.submit('000000')).rejects.toBeInstanceOf(ApiError);
    expect(getCurrentMfaRequest()).toBe(request);

    await request.submit('654321');
    await expect(result).resolves.toEqual({ done: true });
    expect(JSON.parse(calls[2]!.init.body as string)).toEqual({ a: 1, mfaToken: '654321' });
  });

  it('rejects with MFA_CANCELLED when the dialog is closed', async () => {
    answers.push(mfaRequired);
    const result = apiRequest('/_api/x', { body: {} }).catch((e: unknown) => e);
    const request = await nextMfaRequest();
    request.cancel();
    await expect(result).resolves.toMatchObject({ code: 'MFA_CANCELLED', message: MSG.mfaRequired });
    expect(calls).toHaveLength(1);
  });

  it('treats mfaRequired: true as a demand even without the code', async () => {
    answers.push(
      () => json(403, { error: 'Verify first.', mfaRequired: true }),
      () => json(200, { ok: true }),
    );
    const result = apiRequest('/_api/x', { body: {} });
    const request = await nextMfaRequest();
    expect(request.demand.method).toBe('totp');
    await request.submit('111111');
    await expect(result).resolves.toEqual({ ok: true });
  });

  it('does not open the dialog when the call opts out', async () => {
    answers.push(mfaRequired);
    await expect(apiRequest('/_api/auth/mfa-verify-totp', { body: {}, mfaRetry: false })).rejects.toMatchObject({
      code: 'MFA_REQUIRED',
      message: MSG.mfaRequired,
    });
    expect(getCurrentMfaRequest()).toBeNull();
  });
});

describe('errorFromAnswer', () => {
  it('falls back to a text by status when the body has none', () => {
    expect(errorFromAnswer(500, undefined).message).toBe(MSG.internalError);
    expect(errorFromAnswer(429, {}).message).toBe(MSG.tooManyRequests);
    expect(errorFromAnswer(418, 'teapot').message).toBe(MSG.unexpected);
  });
});

describe('the failure text of a call', () => {
  it("is the server's error text when the body has one, else the call's fallback, else a text by status", () => {
    expect(errorFromAnswer(409, { error: 'Name taken.', code: 'CONFLICT_ERROR' }, 'Failed to rename item.').message).toBe('Name taken.');
    expect(errorFromAnswer(502, '<html>Bad gateway</html>', 'Failed to rename item.').message).toBe('Failed to rename item.');
    expect(errorFromAnswer(500, undefined, 'Failed to create folder.').message).toBe('Failed to create folder.');
    expect(errorFromAnswer(400, { error: '   ' }, 'Failed to move item.').message).toBe('Failed to move item.');
    expect(errorFromAnswer(500, undefined).message).toBe(MSG.internalError);
  });

  it('keeps the status and code when the fallback is used', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 503 })),
    );
    const error = await apiRequest('/_api/x', { body: {}, fallbackMessage: 'Failed to delete item.' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, message: 'Failed to delete item.' });
  });
});
