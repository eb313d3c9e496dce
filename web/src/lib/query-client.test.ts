import { MutationObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import { createAppQueryClient, shouldRetryQuery } from './query-client';

const err = (status: number, code?: string) => new ApiError({ status, code, message: 'x' });

describe('shouldRetryQuery', () => {
  it('never retries 401, 403 or 404', () => {
    expect(shouldRetryQuery(0, err(401))).toBe(false);
    expect(shouldRetryQuery(0, err(403))).toBe(false);
    expect(shouldRetryQuery(0, err(404, 'NOT_FOUND'))).toBe(false);
  });

  it('retries other failures at most twice', () => {
    expect(shouldRetryQuery(0, err(500))).toBe(true);
    expect(shouldRetryQuery(1, new Error('boom'))).toBe(true);
    expect(shouldRetryQuery(2, err(500))).toBe(false);
  });
});

describe('mutations under concurrency', () => {
  const race = () =>
    new ApiError({
      status: 409,
      code: 'CONFLICT_ERROR',
      message: 'Concurrent operation detected. Please try again.',
      details: { reason: 'RACE', retryAfterSeconds: 0.01 },
    });

  it('a race is resent until it goes through', async () => {
    const client = createAppQueryClient();
    let calls = 0;
    const observer = new MutationObserver(client, {
      mutationFn: async () => {
        calls++;
        if (calls < 3) throw race();
        return 'saved';
      },
      meta: { handlesError: true },
    });
    await expect(observer.mutate()).resolves.toBe('saved');
    expect(calls).toBe(3);
  });

  it('gives up after 3 retries, and never resends an optimistic-lock conflict or a plain failure', async () => {
    const client = createAppQueryClient();
    const run = async (error: () => Error) => {
      let calls = 0;
      const observer = new MutationObserver(client, {
        mutationFn: async () => {
          calls++;
          throw error();
        },
        meta: { handlesError: true },
      });
      await observer.mutate().catch(() => {});
      return calls;
    };
    expect(await run(race)).toBe(4);
    expect(
      await run(
        () =>
          new ApiError({
            status: 409,
            code: 'CONFLICT_ERROR',
            message: 'Version mismatch: the matter was modified by another user.',
            details: { reason: 'VERSION_MISMATCH' },
          }),
      ),
    ).toBe(1);
    expect(await run(() => new ApiError({ status: 500, message: 'Something went wrong' }))).toBe(1);
  });
});
