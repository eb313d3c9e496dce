import { sql } from 'kysely';
import type { Executor } from '../platform/db/database.js';
import { tooManyRequests } from './errors.js';

/**
 * Counters in PostgreSQL, so that every app instance sees the same limits. A key collects failures (or
 * hits) in a window; at `limit` it is locked until `lockSeconds` have passed.
 */
export type ThrottleRule = { limit: number; windowSeconds: number; lockSeconds: number; message: string };

export async function assertNotLocked(db: Executor, key: string, message: string): Promise<void> {
  const row = await db.selectFrom('authThrottle').select('lockedUntil').where('key', '=', key).executeTakeFirst();
  if (row?.lockedUntil && row.lockedUntil.getTime() > Date.now()) {
    throw tooManyRequests(message, Math.ceil((row.lockedUntil.getTime() - Date.now()) / 1000));
  }
}

/** Counts one event against the key; returns true when this event reached the limit (and locked it). */
export async function recordHit(db: Executor, key: string, rule: ThrottleRule): Promise<boolean> {
  const row = await db
    .insertInto('authThrottle')
    .values({ key, failures: 1, windowStartedAt: new Date(), lockedUntil: null })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql`case when auth_throttle.window_started_at < now() - make_interval(secs => ${rule.windowSeconds}) then 1 else auth_throttle.failures + 1 end`,
        windowStartedAt: sql`case when auth_throttle.window_started_at < now() - make_interval(secs => ${rule.windowSeconds}) then now() else auth_throttle.window_started_at end`,
      }),
    )
    .returning(['failures'])
    .executeTakeFirstOrThrow();
  if (row.failures >= rule.limit) {
    await db
      .updateTable('authThrottle')
      .set({ lockedUntil: new Date(Date.now() + rule.lockSeconds * 1000), failures: 0, windowStartedAt: new Date() })
      .where('key', '=', key)
      .execute();
    return true;
  }
  return false;
}

/** Counts one use and refuses uses past `limit` in the window (for plain rate limits). */
export async function consume(db: Executor, key: string, rule: ThrottleRule): Promise<void> {
  await assertNotLocked(db, key, rule.message);
  if (await recordHit(db, key, { ...rule, limit: rule.limit + 1 })) throw tooManyRequests(rule.message, rule.lockSeconds);
}

export async function clearThrottle(db: Executor, key: string): Promise<void> {
  await db.deleteFrom('authThrottle').where('key', '=', key).execute();
}
