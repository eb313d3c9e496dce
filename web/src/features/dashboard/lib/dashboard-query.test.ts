import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-error';
import { dashboardRetryDelay, shouldRetryDashboard } from './dashboard-query';

const failure = (status: number) => new ApiError({ status, code: 'X', message: 'failed' });

describe('dashboard query retries', () => {
  it('retries a failure at most twice', () => {
    expect(shouldRetryDashboard(0, failure(500))).toBe(true);
    expect(shouldRetryDashboard(1, failure(500))).toBe(true);
    expect(shouldRetryDashboard(2, failure(500))).toBe(false);
    expect(shouldRetryDashboard(0, new TypeError('network'))).toBe(true);
  });

  it('never retries 401, 403 or 404', () => {
    for (const status of [401, 403, 404]) expect(shouldRetryDashboard(0, failure(status))).toBe(false);
  });

  it('waits 1 s, doubling, never more than 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map(dashboardRetryDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
});
