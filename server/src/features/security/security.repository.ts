import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';

/**
 * Counts one report against a user's window in a single statement: the counter row is created or bumped (a new
 * window starts once the old one is over) and read back under its row lock, so concurrent reports each see a
 * distinct count. Answers the count in the window and the seconds left in it.
 */
export async function countReport(db: Executor, userId: number, windowSeconds: number): Promise<{ count: number; retryAfter: number }> {
  const row = await db
    .insertInto('authThrottle')
    .values({ key: `client-report:${userId}`, failures: 1, windowStartedAt: sql<Date>`now()`, lockedUntil: null })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: sql<number>`case when auth_throttle.window_started_at <= now() - make_interval(secs => ${windowSeconds}) then 1 else auth_throttle.failures + 1 end`,
        windowStartedAt: sql<Date>`case when auth_throttle.window_started_at <= now() - make_interval(secs => ${windowSeconds}) then now() else auth_throttle.window_started_at end`,
      }),
    )
    .returning([
      'failures',
      sql<number>`greatest(1, ceil(extract(epoch from window_started_at + make_interval(secs => ${windowSeconds}) - now())))::int`.as(
        'retryAfter',
      ),
    ])
    .executeTakeFirstOrThrow();
  return { count: row.failures, retryAfter: Number(row.retryAfter) };
}
