import { DASHBOARD_LIMITS } from '@strongroom/contracts';
import { isApiError, isMfaRequiredError } from '@/lib/api-error';

/** Answers that asking again cannot change: signed out, refused, or gone. */
function isFinal(error: unknown): boolean {
  return isApiError(error) && (error.status === 401 || error.status === 403 || error.status === 404);
}

/** Dashboard widgets retry at most twice, never on 401, 403 or 404 (nor on a step-up demand). */
export function shouldRetryDashboard(failureCount: number, error: unknown): boolean {
  if (isFinal(error) || isMfaRequiredError(error)) return false;
  return failureCount < DASHBOARD_LIMITS.maxRetries;
}

/** 1 s before the first retry, doubling each time, never more than 30 s. */
export function dashboardRetryDelay(attempt: number): number {
  return Math.min(DASHBOARD_LIMITS.retryBaseMs * 2 ** attempt, DASHBOARD_LIMITS.retryMaxMs);
}

/** What every dashboard query shares: fresh 5 minutes, the retry rule above. */
export const DASHBOARD_QUERY = {
  staleTime: DASHBOARD_LIMITS.staleMs,
  retry: shouldRetryDashboard,
  retryDelay: dashboardRetryDelay,
} as const;

export const dashboardQueryKey = ['dashboard'] as const;
