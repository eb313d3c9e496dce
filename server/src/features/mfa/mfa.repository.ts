import type { Executor } from '../../platform/db/database.js';

export type EmailCodePurpose = 'login' | 'setup' | 'action';

/** When the user's newest code of that purpose was made (of that pending sign-in, when one is named). */
export async function newestEmailCodeAt(
  db: Executor,
  userId: number,
  purpose: EmailCodePurpose,
  pendingLoginId: string | null,
): Promise<Date | undefined> {
  let q = db.selectFrom('mfaEmailCodes').select('createdAt').where('userId', '=', userId).where('purpose', '=', purpose);
  if (pendingLoginId) q = q.where('pendingLoginId', '=', pendingLoginId);
  const row = await q.orderBy('createdAt', 'desc').limit(1).executeTakeFirst();
  return row?.createdAt;
}

/** Marks every unused code of that purpose used. */
export async function spendEmailCodes(db: Executor, userId: number, purpose: EmailCodePurpose): Promise<void> {
  await db
    .updateTable('mfaEmailCodes')
    .set({ usedAt: new Date() })
    .where('userId', '=', userId)
    .where('purpose', '=', purpose)
    .where('usedAt', 'is', null)
    .execute();
}

export async function insertEmailCode(
  db: Executor,
  values: { userId: number; purpose: EmailCodePurpose; pendingLoginId: string | null; codeHash: string; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('mfaEmailCodes')
    .values({ ...values, usedAt: null })
    .execute();
}

/** The newest live code of that purpose, locked for the rest of the transaction. */
export function lockNewestLiveEmailCode(db: Executor, userId: number, purpose: EmailCodePurpose, pendingLoginId?: string) {
  let q = db
    .selectFrom('mfaEmailCodes')
    .select(['id', 'codeHash'])
    .where('userId', '=', userId)
    .where('purpose', '=', purpose)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', new Date());
  if (pendingLoginId) q = q.where('pendingLoginId', '=', pendingLoginId);
  return q.orderBy('createdAt', 'desc').limit(1).forUpdate().executeTakeFirst();
}

export async function markEmailCodeUsed(db: Executor, id: string): Promise<void> {
  await db.updateTable('mfaEmailCodes').set({ usedAt: new Date() }).where('id', '=', id).execute();
}

export async function insertSystemToken(
  db: Executor,
  values: { tokenHash: string; userId: number; sessionId: string; operation: string; expiresAt: Date },
): Promise<void> {
  await db.insertInto('systemMfaTokens').values(values).execute();
}

/** The operation a live system MFA token of this user and session was issued for, or undefined. */
export async function findLiveSystemTokenOperation(
  db: Executor,
  tokenHash: string,
  userId: number,
  sessionId: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('systemMfaTokens')
    .select('operation')
    .where('tokenHash', '=', tokenHash)
    .where('userId', '=', userId)
    .where('sessionId', '=', sessionId)
    .where('expiresAt', '>', new Date())
    .executeTakeFirst();
  return row?.operation;
}

// ---- Recovery codes ----------------------------------------------------------------------------------

/** Replaces the user's recovery codes with a new set of hashes. */
export async function replaceRecoveryCodes(db: Executor, organizationId: string, userId: number, codeHashes: string[]): Promise<void> {
  await db.deleteFrom('mfaRecoveryCodes').where('userId', '=', userId).execute();
  await db
    .insertInto('mfaRecoveryCodes')
    .values(codeHashes.map((codeHash) => ({ organizationId, userId, codeHash })))
    .execute();
}

export async function deleteRecoveryCodes(db: Executor, userId: number): Promise<void> {
  await db.deleteFrom('mfaRecoveryCodes').where('userId', '=', userId).execute();
}

/**
 * Spends the user's unused code with that hash, in one conditional UPDATE: of concurrent requests with the same
 * code, exactly one sees a row (the others wait on its row lock and then find used_at set). Answers whether one did.
 */
export async function spendRecoveryCode(db: Executor, userId: number, codeHash: string): Promise<boolean> {
  const row = await db
    .updateTable('mfaRecoveryCodes')
    .set({ usedAt: new Date() })
    .where('userId', '=', userId)
    .where('codeHash', '=', codeHash)
    .where('usedAt', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function countUnusedRecoveryCodes(db: Executor, userId: number): Promise<number> {
  const row = await db
    .selectFrom('mfaRecoveryCodes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('userId', '=', userId)
    .where('usedAt', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
