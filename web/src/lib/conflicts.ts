/**
 * Concurrency errors and the in-flight operation registry.
 *
 * A 409 is read by its `details.reason` (contracts' ERROR_REASONS):
 * - VERSION_MISMATCH is an optimistic-locking conflict: 'The resource was modified by another user.' It is NOT
 *   resent as is (the same stale version would fail again, and a resend with a fresh version would silently
 *   overwrite the other person's change); the dialog reloads and merges.
 * - RACE: 'Race condition detected during {op}. Please try again.'
 * - LOCKED: 'Resource is currently locked by another operation. Please try again.'
 *   These two are retried automatically: up to 3 times, 1 s doubling with jitter, or the server-given delay.
 * - Any other reason, or a field at fault (`details.field`: a name or number taken), is no concurrency error.
 * Strongroom's server gives every answer a code and every 409 a reason, so a 409 with a code but no reason is no
 * concurrency error either. Only an answer with no code and no reason (a proxy or gateway in front of the server)
 * is read by its words: 'version mismatch' or 'optimistic lock', 'concurrent' or 'race condition', 'locked' or
 * 'in use'.
 *
 * The registry records each mutation on a resource for 30 s (or until it settles); a second one on the same
 * resource meanwhile fails with a race-condition error, and so waits for the first through the retries.
 */
import { MSG, readErrorDetails, type ErrorReason } from '@strongroom/contracts';
import { ApiError, isApiError } from './api-error';

export type ConflictKind = 'optimistic-lock' | 'race' | 'locked';

export const RESOURCE_MODIFIED = MSG.resourceModified;
export const RESOURCE_LOCKED = MSG.resourceLocked;
const raceConditionText = MSG.raceCondition;

const MAX_CONFLICT_RETRIES = 3;
const CONFLICT_RETRY_BASE_MS = 1000;
export const IN_FLIGHT_TTL_MS = 30_000;

const KIND_BY_REASON: Partial<Record<ErrorReason, ConflictKind>> = { VERSION_MISMATCH: 'optimistic-lock', RACE: 'race', LOCKED: 'locked' };

function kindFromWords(message: string): ConflictKind | null {
  const m = message.toLowerCase();
  if (m.includes('version mismatch') || m.includes('optimistic lock')) return 'optimistic-lock';
  if (m.includes('concurrent') || m.includes('race condition')) return 'race';
  if (m.includes('locked') || m.includes('in use')) return 'locked';
  return null;
}

/**
 * A failed answer that carries no code and names no reason or field: not one of the server's own (they always
 * carry a code) but from something in front of it, a proxy or gateway. Only such answers are read by their words
 * or their status alone.
 */
export function isBareAnswer(error: ApiError): boolean {
  const { reason, field } = readErrorDetails(error.details);
  return reason === undefined && field === undefined && error.code === undefined;
}

/** Only 409 answers are read this way: other texts may contain the words ('Application version mismatch'). */
export function conflictKind(error: unknown): ConflictKind | null {
  if (!isApiError(error) || error.status !== 409) return null;
  const { reason } = readErrorDetails(error.details);
  if (reason) return KIND_BY_REASON[reason] ?? null;
  // A field at fault (the name "Locked" taken) is the user's to fix, and a server answer without a reason is no
  // concurrency error, whatever words the text holds.
  return isBareAnswer(error) ? kindFromWords(error.message) : null;
}

/**
 * The request field a refusal names as at fault (`details.field`), e.g. matterNumber when the number is taken.
 * A 409 read by its words (no code, reason or field) names `fallbackField` when its text says 'already exists'.
 */
export function conflictField(error: unknown, fallbackField?: string): string | undefined {
  if (!isApiError(error)) return undefined;
  const { reason, field } = readErrorDetails(error.details);
  if (field) return field;
  if (reason === 'NUMBER_TAKEN') return 'matterNumber';
  if (reason === 'NAME_TAKEN') return 'name';
  if (error.status !== 409 || !isBareAnswer(error)) return undefined;
  return error.message.toLowerCase().includes('already exists') ? fallbackField : undefined;
}

/** The text shown for a concurrency error, or null for any other error. */
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
    throw new ApiError({ status: 409, code: 'CONFLICT_ERROR', message: MSG.concurrentOperationOn(resource), details: { reason: 'RACE' } });
  }
  const token = Symbol(resource);
  inFlight.set(resource, { token, expiresAt: now() + IN_FLIGHT_TTL_MS });
  try {
    return await fn();
  } finally {
    if (inFlight.get(resource)?.token === token) inFlight.delete(resource);
  }
}
