import type { SystemMfaOperation } from '@strongroom/contracts';
import { MSG } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import type { MailMessage } from '../../platform/mail/mailer.js';
import type { AppContext } from '../../shared/context.js';
import { AppError, mfaRequired, tooManyRequests, unauthenticated } from '../../shared/errors.js';
import { appendAudit } from '../../shared/audit.js';
import { assertNotLocked, recordHit, type ThrottleRule } from '../../shared/throttle.js';
import { hashToken, newSixDigitCode, newToken, safeEqualHex } from '../../shared/tokens.js';
import type { AuthContext } from '../sessions/sessions.service.js';
import { lockUser, type UserRow } from '../users/users.repository.js';
import { matchTotpStep } from './totp.js';

export const EMAIL_CODE_MINUTES = 10;
const RESEND_SECONDS = 30;
export const SYSTEM_TOKEN_MINUTES = 30;

/** Wrong codes for a signed-in user (sensitive actions, system prompt): five in 15 minutes lock it for 15. */
export const ACTION_CODE_RULE: ThrottleRule = { limit: 5, windowSeconds: 900, lockSeconds: 900, message: MSG.tooManyRequests };

const codeHash = (userId: number, code: string) => hashToken(`${userId}:${code}`);

export function emailCodeMessage(to: string, code: string, purpose: 'login' | 'setup' | 'action'): MailMessage {
  const why = purpose === 'login' ? 'to finish signing in' : purpose === 'setup' ? 'to turn on email verification' : 'to confirm a protected action';
  return {
    to,
    subject: `Your Strongroom verification code: ${code}`,
    text: `Your Strongroom verification code is ${code}\n\nEnter it ${why}. It expires in ${EMAIL_CODE_MINUTES} minutes and works once.\nIf you did not ask for it, someone may know your password: change it and tell your administrator.\n`,
  };
}

/** Creates a new emailed code (earlier unused ones of the same purpose stop working) and answers the mail. */
export async function createEmailCode(
  trx: Executor,
  user: UserRow,
  purpose: 'login' | 'setup' | 'action',
  pendingLoginId: string | null = null,
): Promise<MailMessage> {
  // One code per 30 seconds: per pending sign-in (a new password step may ask at once), else per user.
  let lastQuery = trx.selectFrom('mfaEmailCodes').select('createdAt').where('userId', '=', user.id).where('purpose', '=', purpose);
  if (pendingLoginId) lastQuery = lastQuery.where('pendingLoginId', '=', pendingLoginId);
  const last = await lastQuery.orderBy('createdAt', 'desc').limit(1).executeTakeFirst();
  if (last && Date.now() - last.createdAt.getTime() < RESEND_SECONDS * 1000) {
    const wait = Math.ceil((RESEND_SECONDS * 1000 - (Date.now() - last.createdAt.getTime())) / 1000);
    throw tooManyRequests(`Please wait ${wait} seconds before asking for another code.`, wait);
  }
  await trx.updateTable('mfaEmailCodes').set({ usedAt: new Date() }).where('userId', '=', user.id).where('purpose', '=', purpose).where('usedAt', 'is', null).execute();
  const code = newSixDigitCode();
  await trx
    .insertInto('mfaEmailCodes')
    .values({ userId: user.id, purpose, pendingLoginId, codeHash: codeHash(user.id, code), expiresAt: new Date(Date.now() + EMAIL_CODE_MINUTES * 60_000), usedAt: null })
    .execute();
  return emailCodeMessage(user.email, code, purpose);
}

/** Consumes the newest live code of that purpose if it matches. */
export async function consumeEmailCode(trx: Executor, userId: number, purpose: 'login' | 'setup' | 'action', code: string, pendingLoginId?: string): Promise<boolean> {
  let q = trx
    .selectFrom('mfaEmailCodes')
    .select(['id', 'codeHash'])
    .where('userId', '=', userId)
    .where('purpose', '=', purpose)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', new Date());
  if (pendingLoginId) q = q.where('pendingLoginId', '=', pendingLoginId);
  const row = await q.orderBy('createdAt', 'desc').limit(1).forUpdate().executeTakeFirst();
  if (!row || !safeEqualHex(row.codeHash, codeHash(userId, code))) return false;
  await trx.updateTable('mfaEmailCodes').set({ usedAt: new Date() }).where('id', '=', row.id).execute();
  return true;
}

/**
 * Checks a TOTP code against the user's secret (or a given one) and records its step in the same
 * transaction; a step already used, or an older one, is refused so a code cannot be replayed.
 */
export async function consumeTotp(trx: Executor, userId: number, code: string, secret?: string | null): Promise<boolean> {
  const user = await lockUser(trx, userId);
  const s = secret ?? user?.totpSecret;
  if (!user || !s) return false;
  const step = matchTotpStep(s, code);
  if (step === null) return false;
  if (user.totpLastUsedStep !== null && BigInt(user.totpLastUsedStep) >= BigInt(step)) return false;
  await trx.updateTable('users').set({ totpLastUsedStep: step }).where('id', '=', userId).execute();
  return true;
}

/** A code for the user's current method: TOTP for authenticator users, an emailed 'action' code otherwise. */
export async function consumeUserCode(trx: Executor, user: UserRow, code: string): Promise<boolean> {
  if (user.mfaEnabled && user.mfaPrimaryMethod === 'totp') return consumeTotp(trx, user.id, code);
  return consumeEmailCode(trx, user.id, 'action', code);
}

export function availableMethods(user: UserRow): Array<'totp' | 'email'> {
  return user.mfaEnabled && user.mfaPrimaryMethod === 'totp' ? ['totp'] : ['email'];
}

export async function issueSystemToken(trx: Executor, auth: AuthContext, operation: SystemMfaOperation) {
  const token = newToken();
  const expiresAt = new Date(Date.now() + SYSTEM_TOKEN_MINUTES * 60_000);
  await trx.insertInto('systemMfaTokens').values({ tokenHash: hashToken(token), userId: auth.user.id, sessionId: auth.session.id, operation, expiresAt }).execute();
  return { token, expiresAt };
}

async function systemTokenValid(trx: Executor, auth: AuthContext, token: string): Promise<boolean> {
  const row = await trx
    .selectFrom('systemMfaTokens')
    .select('id')
    .where('tokenHash', '=', hashToken(token))
    .where('userId', '=', auth.user.id)
    .where('sessionId', '=', auth.session.id)
    .where('expiresAt', '>', new Date())
    .executeTakeFirst();
  return !!row;
}

export type FreshMfaResult = { via: 'code' | 'system-token' };

/**
 * The gate of a sensitive action: without mfaToken the answer is MFA_REQUIRED (the client asks for a code
 * and sends the same request again); with one it must be a live system MFA token of this session or a
 * fresh code of the user's method. Call it inside the action's transaction, so a code is spent only if the
 * action commits; a wrong code is counted by `recordMfaFailure` outside that transaction.
 */
export async function checkFreshMfa(
  ctx: AppContext,
  trx: Executor,
  auth: AuthContext,
  operation: string,
  mfaToken: string | undefined,
): Promise<FreshMfaResult> {
  if (!mfaToken) throw mfaRequired(operation, availableMethods(auth.user), availableMethods(auth.user)[0]);
  await assertNotLocked(trx, `mfa:${auth.user.id}`, MSG.tooManyRequests);
  if (mfaToken.length > 6 && (await systemTokenValid(trx, auth, mfaToken))) return { via: 'system-token' };
  if (/^\d{6}$/.test(mfaToken) && (await consumeUserCode(trx, auth.user, mfaToken))) return { via: 'code' };
  throw new InvalidMfaCode();
}

export class InvalidMfaCode extends AppError {
  constructor() {
    super(401, MSG.invalidCode, 'MFA_INVALID');
  }
}

/**
 * Counts a wrong code and writes its audit entry, outside the action's transaction (which rolled back);
 * the fifth wrong code in 15 minutes locks further tries for 15 minutes.
 */
export async function recordMfaFailure(ctx: AppContext, user: UserRow, operation: string, ip: string | null): Promise<void> {
  await ctx.db.transaction().execute(async (trx) => {
    const locked = await recordHit(trx, `mfa:${user.id}`, ACTION_CODE_RULE);
    await appendAudit(trx, {
      organizationId: user.organizationId,
      actor: { id: user.id, name: user.fullName, email: user.email },
      action: 'MFA_VERIFICATION_FAILED',
      targetTable: 'users',
      targetId: user.id,
      details: { operation, locked },
      ipAddress: ip,
    });
  });
}

export function requirePendingOr401(found: unknown): asserts found {
  if (!found) throw unauthenticated(MSG.pendingLoginMissing, 'UNAUTHENTICATED');
}
