import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';

// Pending sign-ins: the password step passed, the second factor not yet.

export async function insertPendingLogin(
  db: Executor,
  values: { tokenHash: string; userId: number; expiresAt: Date; via?: 'password' | 'sso' },
): Promise<void> {
  await db
    .insertInto('pendingLogins')
    .values({ ...values, endedAt: null })
    .execute();
}

/** The live (not ended, not expired) pending sign-in with this token hash. */
export function findLivePendingLogin(db: Executor, tokenHash: string) {
  return db
    .selectFrom('pendingLogins')
    .select(['id', 'userId', 'failedAttempts', 'via'])
    .where('tokenHash', '=', tokenHash)
    .where('endedAt', 'is', null)
    .where('expiresAt', '>', new Date())
    .executeTakeFirst();
}

/**
 * Counts one code check on a live pending sign-in that has fewer than `maxAttempts` checks, in one conditional
 * statement; answers the new count, or undefined when the pending sign-in is ended, expired or spent.
 */
export async function reservePendingLoginAttempt(db: Executor, id: string, maxAttempts: number): Promise<number | undefined> {
  const row = await db
    .updateTable('pendingLogins')
    .set({ failedAttempts: sql`failed_attempts + 1` })
    .where('id', '=', id)
    .where('endedAt', 'is', null)
    .where('expiresAt', '>', new Date())
    .where('failedAttempts', '<', maxAttempts)
    .returning('failedAttempts')
    .executeTakeFirst();
  return row?.failedAttempts;
}

export async function endPendingLogin(db: Executor, id: string): Promise<void> {
  await db.updateTable('pendingLogins').set({ endedAt: new Date() }).where('id', '=', id).execute();
}

export async function endUserPendingLogins(db: Executor, userId: number): Promise<void> {
  await db.updateTable('pendingLogins').set({ endedAt: new Date() }).where('userId', '=', userId).where('endedAt', 'is', null).execute();
}

// Password reset links.

export async function spendUserResetTokens(db: Executor, userId: number): Promise<void> {
  await db
    .updateTable('passwordResetTokens')
    .set({ usedAt: new Date() })
    .where('userId', '=', userId)
    .where('usedAt', 'is', null)
    .execute();
}

export async function insertResetToken(db: Executor, values: { tokenHash: string; userId: number; expiresAt: Date }): Promise<void> {
  await db
    .insertInto('passwordResetTokens')
    .values({ ...values, usedAt: null })
    .execute();
}

/** The live reset token with this hash and whether its user is active, locked for the rest of the transaction. */
export function lockLiveResetToken(db: Executor, tokenHash: string) {
  return db
    .selectFrom('passwordResetTokens')
    .innerJoin('users', 'users.id', 'passwordResetTokens.userId')
    .select(['passwordResetTokens.id as tokenId', 'users.id as userId', 'users.isActive'])
    .where('passwordResetTokens.tokenHash', '=', tokenHash)
    .where('passwordResetTokens.usedAt', 'is', null)
    .where('passwordResetTokens.expiresAt', '>', new Date())
    .forUpdate()
    .executeTakeFirst();
}

export async function markResetTokenUsed(db: Executor, id: string): Promise<void> {
  await db.updateTable('passwordResetTokens').set({ usedAt: new Date() }).where('id', '=', id).execute();
}
