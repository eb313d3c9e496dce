/**
 * Concurrency errors (spec part 2, section 8) and the in-flight operation registry (section 4).
 *
 * - A message with 'version mismatch' or 'optimistic lock' is an optimistic-locking conflict: 'The resource was
 *   modified by another user.' It is NOT resent as is (the same stale version would fail again, and a resend
 *   with a fresh version would silently overwrite the other person's change); the dialog reloads and merges.
 * - 'concurrent' or 'race condition': 'Race condition detected during {op}. Please try again.'
 * - 'locked' or 'in use': 'Resource is currently locked by another operation. Please try again.'
 *   These two are retried automatically: up to 3 times, 1 s doubling with jitter, or the server-given delay.
 * - The registry records each mutation on a resource for 30 s (or until it settles); a second one on the same
 *   resource meanwhile fails with a race-condition error, and so waits for the first through the retries.
 */
import { ApiError, isApiError } from './api-error';

export type ConflictKind = 'optimistic-lock' | 'race' | 'locked';

export const RESOURCE_MODIFIED = 'The resource was modified by another user.';
export const RESOURCE_LOCKED = 'Resource is currently locked by another operation. Please try again.';
export const raceConditionText = (operation: string) => `Race condition detected during ${operation}. Please try again.`;

export const MAX_CONFLICT_RETRIES = 3;
export const CONFLICT_RETRY_BASE_MS = 1000;
export const IN_FLIGHT_TTL_MS = 30_000;

/** Only 409 answers are read this way: other texts may contain the words ('Application version mismatch'). */
export function conflictKind(error: unknown): ConflictKind | null {
  if (!isApiError(error) || error.status !== 409) return null;
  const m = error.message.toLowerCase();
  if (m.includes('version mismatch') || m.includes('optimistic lock')) return 'optimistic-lock';
  if (m.includes('concurrent') || m.includes('race condition')) return 'race';
  if (m.includes('locked') || m.includes('in use')) return 'locked';
  return null;
}

/** The spec's text for a concurrency error, or null for any other error. */
export function conflictText(error: unknown, operation: string): string | null {
  switch (conflictKind(error)) {
    case 'optimistic-lock':
      return RESOURCE_MODIFIED;
    case 'race':
      return raceConditionText(operation);
    case 'locked':
      return RESOURCE_LOCKED;
    default:
      return null;
  }
}

/** TanStack `retry` for mutations: only races and locks, at most 3 times. */
export function shouldRetryMutation(failureCount: number, error: unknown): boolean {
  const kind = conflictKind(error);
  return (kind === 'race' || kind === 'locked') && failureCount < MAX_CONFLICT_RETRIES;
}

/** TanStack `retryDelay`: the server's delay when it gave one, else 1 s doubling per attempt with ±50 % jitter. */
export function conflictRetryDelay(failureCount: number, error: unknown, random: () => number = Math.random): number {
  const given = isApiError(error) ? (error.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds : undefined;
  if (typeof given === 'number' && given > 0) return given * 1000;
  const base = CONFLICT_RETRY_BASE_MS * 2 ** Math.max(0, failureCount - 1);
  return Math.round(base * (0.5 + random()));
}

const inFlight = new Map<string, { token: symbol; expiresAt: number }>();

/**
 * Runs `fn` as the one operation on `resource` (e.g. 'node 3f2…'); while it runs (at most 30 s) another call
 * for the same resource fails at once with 'Concurrent operation detected on {resource}. Please try again.'
 */
export async function withInFlight<T>(resource: string, fn: () => Promise<T>, now: () => number = Date.now): Promise<T> {
  const held = inFlight.get(resource);
  if (held && held.expiresAt > now()) {
    throw new ApiError({ status: 409, code: 'CONFLICT_ERROR', message: `Concurrent operation detected on ${resource}. Please try again.` });
  }
  const token = Symbol(resource);
  inFlight.set(resource, { token, expiresAt: now() + IN_FLIGHT_TTL_MS });
  try {
    return await fn();
  } finally {
    if (inFlight.get(resource)?.token === token) inFlight.delete(resource);
  }
}
