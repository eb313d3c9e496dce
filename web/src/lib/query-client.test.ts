import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import { shouldRetryQuery } from './query-client';

const err = (status: number, code?: string) => new ApiError({ status, code, message: 'x' });

describe('shouldRetryQuery', () => {
  it('never retries 401 or 403', () => {
    expect(shouldRetryQuery(0, err(401))).toBe(false);
    expect(shouldRetryQuery(0, err(403))).toBe(false);
  });

  it('retries other failures at most twice', () => {
    expect(shouldRetryQuery(0, err(500))).toBe(true);
    expect(shouldRetryQuery(1, new Error('boom'))).toBe(true);
    expect(shouldRetryQuery(2, err(500))).toBe(false);
  });
});
