import { sql } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import { tooManyRequests } from './errors.js';
import { countThrottleRefusal } from '../platform/metrics.js';

/**
 * Counters in PostgreSQL, so that every app instance sees the same limits. A key collects attempts in a
 * window; once `limit` of them are counted no further attempt is allowed, and a confirmed failure at the
 * limit locks the key until `lockSeconds` have passed.
 *
 * An attempt is reserved (counted) in one atomic statement BEFORE the password or code is checked, and the
 * reservation commits at once: concurrent requests can never check more than `limit` secrets between them.
 * A successful check gives its reservation back (`releaseAttempt`); a failed one keeps it
 * (`confirmFailure`, which also locks the key when the budget is used up).
 */
export type ThrottleRule = {
  /** The limiter's name in the metrics (a fixed word such as 'login-ip', never the key it counts under). */
  name: string;
  limit: number;
  windowSeconds: number;
  lockSeconds: number;
  message: string;
};

/** Seconds until the key frees up again (its lock, or the end of a full window). */
async function retryAfter(db: Executor, key: string, rule: ThrottleRule): Promise<number> {
  const row = await db.selectFrom('authThrottle').select(['lockedUntil', 'windowStartedAt']).where('key', '=', key).executeTakeFirst();
  const until = row?.lockedUntil?.getTime() ?? (row ? row.windowStartedAt.getTime() + rule.windowSeconds * 1000 : Date.now());
  return Math.max(1, Math.ceil((until - Date.now()) / 1000));
}

/**
 * Counts one attempt against the key, or refuses it with 429 when the key is locked or its window already
 * holds `limit` attempts. Answers the attempt's number in the window. Run it on the pool (not inside a longer
 * transaction), so the count is visible to every other request at once.
 */
export async function reserveAttempt(db: Executor, key: string, rule: ThrottleRule): Promise<number> {
  const window = sql`make_interval(secs => ${rule.windowSeconds})`;
  // A lock that has run out, or a window that has passed without a lock, starts the count afresh.
  const fresh = sql`((t.locked_until is not null and t.locked_until <= now()) or (t.locked_until is null and t.window_started_at < now() - ${window}))`;
  const result = await sql<{ failures: number }>`
    insert into auth_throttle as t (key, failures, window_started_at, locked_until)
    values (${key}, 1, now(), null)
    on conflict (key) do update set
      failures = case when ${fresh} then 1 else t.failures + 1 end,
      window_started_at = case when ${fresh} then now() else t.window_started_at end,
      locked_until = case when ${fresh} then null else t.locked_until end
    where ${fresh} or (t.locked_until is null and t.failures < ${rule.limit})
    returning t.failures as failures`.execute(db);
  const row = result.rows[0];
  if (!row) {
    countThrottleRefusal(rule.name);
    throw tooManyRequests(rule.message, await retryAfter(db, key, rule));
  }
  return Number(row.failures);
}

/** Gives back an attempt whose secret turned out right (it does not lift a lock). */
export async function releaseAttempt(db: Executor, key: string): Promise<void> {
  await db
    .updateTable('authThrottle')
    .set({ failures: sql`greatest(failures - 1, 0)` })
    .where('key', '=', key)
    .execute();
}

/**
 * Keeps a reserved attempt as a failure; when the window's budget is used up it locks the key. Answers
 * true for the one failure that set the lock (the caller tells the user and writes the audit entry).
 */
export async function confirmFailure(db: Executor, key: string, rule: ThrottleRule): Promise<boolean> {
  const res = await db
    .updateTable('authThrottle')
    .set({ lockedUntil: sql`now() + make_interval(secs => ${rule.lockSeconds})` })
    .where('key', '=', key)
    .where('failures', '>=', rule.limit)
    .where((eb) => eb.or([eb('lockedUntil', 'is', null), eb('lockedUntil', '<=', sql<Date>`now()`)]))
    .executeTakeFirst();
  return Number(res.numUpdatedRows) > 0;
}

/** Refuses with 429 while the key is locked (a read-only look; it reserves nothing). */
export async function assertNotLocked(db: Executor, key: string, rule: Pick<ThrottleRule, 'name' | 'message'>): Promise<void> {
  const row = await db.selectFrom('authThrottle').select('lockedUntil').where('key', '=', key).executeTakeFirst();
  if (row?.lockedUntil && row.lockedUntil.getTime() > Date.now()) {
    countThrottleRefusal(rule.name);
    throw tooManyRequests(rule.message, Math.ceil((row.lockedUntil.getTime() - Date.now()) / 1000));
  }
}

/** Counts one use and refuses uses past `limit` in the window (for plain rate limits). */
export async function consume(db: Executor, key: string, rule: ThrottleRule): Promise<void> {
  await reserveAttempt(db, key, rule);
}

export async function clearThrottle(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('authThrottle').where('key', '=', key).execute();
}
