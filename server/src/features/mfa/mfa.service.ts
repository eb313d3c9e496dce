import type { SystemMfaOperation } from '@strongroom/contracts';
import { MAIL, MSG, riskClassOf, SYSTEM_MFA_OPERATIONS } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import type { MailMessage } from '../../platform/mail/mailer.js';
import type { AppContext } from '../../shared/context.js';
import { AppError, mfaRequired, tooManyRequests } from '../../shared/errors.js';
import { auditFor } from '../../shared/audit.js';
import { assertNotLocked, confirmFailure, releaseAttempt, reserveAttempt, type ThrottleRule } from '../../shared/throttle.js';
import { hashToken, newSixDigitCode, newToken, safeEqualHex } from '../../shared/tokens.js';
import type { StepUpOperation } from '../../shared/route-access.js';
import { countUserPasskeys } from '../passkeys/index.js';
import type { SessionContext } from '../sessions/index.js';
import { lockUser, setTotpState, type UserRow } from '../users/index.js';
import {
  findLiveSystemTokenOperation,
  insertEmailCode,
  insertSystemToken,
  lockNewestLiveEmailCode,
  markEmailCodeUsed,
  newestEmailCodeAt,
  spendEmailCodes,
} from './mfa.repository.js';
import { decryptTotpSecret, encryptTotpSecret, isEncryptedSecret } from './secret-box.js';
import { matchTotpStep } from './totp.js';
import { countThrottleRefusal } from '../../platform/metrics.js';

const EMAIL_CODE_MINUTES = 10;
const RESEND_SECONDS = 30;
const SYSTEM_TOKEN_MINUTES = 30;

const codeHash = (userId: number, code: string) => hashToken(`${userId}:${code}`);

function emailCodeMessage(to: string, code: string, purpose: 'login' | 'setup' | 'action'): MailMessage {
  return { to, ...MAIL.emailCode({ code, purpose, minutes: EMAIL_CODE_MINUTES }) };
}

/** Creates a new emailed code (earlier unused ones of the same purpose stop working) and answers the mail. */
export async function createEmailCode(
  trx: Executor,
  user: UserRow,
  purpose: 'login' | 'setup' | 'action',
  pendingLoginId: string | null = null,
): Promise<MailMessage> {
  // One code per 30 seconds: per pending sign-in (a new password step may ask at once), else per user.
  const last = await newestEmailCodeAt(trx, user.id, purpose, pendingLoginId);
  if (last && Date.now() - last.getTime() < RESEND_SECONDS * 1000) {
    const wait = Math.ceil((RESEND_SECONDS * 1000 - (Date.now() - last.getTime())) / 1000);
    countThrottleRefusal('email-code-resend');
    throw tooManyRequests(MSG.emailCodeWait(wait), wait);
  }
  await spendEmailCodes(trx, user.id, purpose);
  const code = newSixDigitCode();
  await insertEmailCode(trx, {
    userId: user.id,
    purpose,
    pendingLoginId,
    codeHash: codeHash(user.id, code),
    expiresAt: new Date(Date.now() + EMAIL_CODE_MINUTES * 60_000),
  });
  return emailCodeMessage(user.email, code, purpose);
}

/** Consumes the newest live code of that purpose if it matches. */
export async function consumeEmailCode(
  trx: Executor,
  userId: number,
  purpose: 'login' | 'setup' | 'action',
  code: string,
  pendingLoginId?: string,
): Promise<boolean> {
  const row = await lockNewestLiveEmailCode(trx, userId, purpose, pendingLoginId);
  if (!row || !safeEqualHex(row.codeHash, codeHash(userId, code))) return false;
  await markEmailCodeUsed(trx, row.id);
  return true;
}

/**
 * Whether two accounts use one authenticator (the same TOTP secret): one person holding both. A second approver
 * must be another person, so an approval by such an account is refused.
 */
export async function shareAuthenticator(
  ctx: AppContext,
  a: Pick<UserRow, 'id' | 'totpSecret'>,
  b: Pick<UserRow, 'id' | 'totpSecret'>,
): Promise<boolean> {
  if (!a.totpSecret || !b.totpSecret) return false;
  const [sa, sb] = await Promise.all([
    decryptTotpSecret(ctx.config, a.id, a.totpSecret),
    decryptTotpSecret(ctx.config, b.id, b.totpSecret),
  ]);
  return sa.replace(/\s|=/g, '').toUpperCase() === sb.replace(/\s|=/g, '').toUpperCase();
}

/**
 * Checks a TOTP code against the user's secret (or a given plain one) and records its step in the same
 * transaction; a step already used, or an older one, is refused so a code cannot be replayed. A secret still
 * stored in plain form is written back encrypted here, under the row lock.
 */
export async function consumeTotp(ctx: AppContext, trx: Executor, userId: number, code: string, secret?: string | null): Promise<boolean> {
  const user = await lockUser(trx, userId);
  if (!user) return false;
  let s = secret;
  if (!s && user.totpSecret) {
    s = await decryptTotpSecret(ctx.config, userId, user.totpSecret);
    if (!isEncryptedSecret(user.totpSecret)) {
      await setTotpState(trx, userId, { totpSecret: await encryptTotpSecret(ctx.config, userId, s) });
    }
  }
  if (!s) return false;
  const step = matchTotpStep(s, code);
  if (step === null) return false;
  if (user.totpLastUsedStep !== null && BigInt(user.totpLastUsedStep) >= BigInt(step)) return false;
  await setTotpState(trx, userId, { totpLastUsedStep: String(step) });
  return true;
}

/** A code for the user's current method: TOTP for authenticator users, an emailed 'action' code otherwise. */
export async function consumeUserCode(ctx: AppContext, trx: Executor, user: UserRow, code: string): Promise<boolean> {
  if (user.mfaEnabled && user.mfaPrimaryMethod === 'totp') return consumeTotp(ctx, trx, user.id, code);
  return consumeEmailCode(trx, user.id, 'action', code);
}

function availableMethods(user: UserRow): [method: 'totp' | 'email'] {
  return user.mfaEnabled && user.mfaPrimaryMethod === 'totp' ? ['totp'] : ['email'];
}

/** The risk classes of step-up are shared with the web (contracts): a token serves only its own class. */
export { riskClassOf } from '@strongroom/contracts';

export async function issueSystemToken(trx: Executor, auth: SessionContext, operation: SystemMfaOperation) {
  const token = newToken();
  const expiresAt = new Date(Date.now() + SYSTEM_TOKEN_MINUTES * 60_000);
  await insertSystemToken(trx, { tokenHash: hashToken(token), userId: auth.user.id, sessionId: auth.session.id, operation, expiresAt });
  return { token, expiresAt };
}

async function systemTokenValid(trx: Executor, auth: SessionContext, token: string, operation: string): Promise<boolean> {
  const issuedFor = await findLiveSystemTokenOperation(trx, hashToken(token), auth.user.id, auth.session.id);
  return issuedFor !== undefined && riskClassOf(issuedFor) === riskClassOf(operation);
}

/**
 * The MFA_REQUIRED answer for a change that only a fresh code may make: the client asks for a code and sends the
 * request again with it; a system MFA token of any class does not serve.
 */
export function freshCodeRequired(auth: SessionContext, operation: StepUpOperation): AppError {
  return mfaRequired(operation, availableMethods(auth.user), availableMethods(auth.user)[0]);
}

export class InvalidMfaCode extends AppError {
  constructor() {
    super(401, MSG.invalidCode, 'MFA_INVALID');
  }
}

/**
 * Second-factor guessing limits, per user, counted before each code is checked (see shared/throttle.ts):
 * - signing in: 10 wrong codes in 15 minutes, across every pending sign-in of the user, lock the second
 *   step for 15 minutes (a correct password does not reset this count);
 * - signed in (sensitive actions, the system MFA prompt, switching methods): 5 wrong codes in 15 minutes
 *   lock code checks for 15 minutes.
 * The failure that sets a lock is audited (MFA_VERIFICATION_LOCKED) and the user is told by email.
 */
const LOGIN_CODE_RULE: ThrottleRule = { name: 'mfa-login-code', limit: 10, windowSeconds: 900, lockSeconds: 900, message: MSG.mfaLocked };
const ACTION_CODE_RULE: ThrottleRule = { name: 'mfa-action-code', limit: 5, windowSeconds: 900, lockSeconds: 900, message: MSG.mfaLocked };
export type CodeScope = 'login' | 'action';
const codeThrottleKey = (scope: CodeScope, userId: number) => (scope === 'login' ? `mfa:login:${userId}` : `mfa:${userId}`);
const ruleOf = (scope: CodeScope) => (scope === 'login' ? LOGIN_CODE_RULE : ACTION_CODE_RULE);

/** Reserves one code check for the user (429 while locked or when the window's budget is spent). */
export function reserveCodeAttempt(ctx: AppContext, user: UserRow, scope: CodeScope): Promise<number> {
  return reserveAttempt(ctx.db, codeThrottleKey(scope, user.id), ruleOf(scope));
}

export function releaseCodeAttempt(db: Executor, user: UserRow, scope: CodeScope): Promise<void> {
  return releaseAttempt(db, codeThrottleKey(scope, user.id));
}

/**
 * Keeps a reserved check as a wrong code inside `trx` (with the caller's audit entry); answers true when
 * this failure locked the user's code checks. The caller then calls `tellLockout` after the commit.
 */
export async function confirmCodeFailure(
  trx: Executor,
  user: UserRow,
  scope: CodeScope,
  operation: string,
  ip: string | null,
): Promise<boolean> {
  const locked = await confirmFailure(trx, codeThrottleKey(scope, user.id), ruleOf(scope));
  if (locked) {
    await auditFor(user, { ip })(
      trx,
      'MFA_VERIFICATION_LOCKED',
      { table: 'users', id: user.id },
      { scope, operation, limit: ruleOf(scope).limit, lockMinutes: ruleOf(scope).lockSeconds / 60 },
    );
  }
  return locked;
}

/** Mails the user that their verification codes were locked (failure to send is logged, not thrown). */
export async function tellLockout(ctx: AppContext, user: UserRow, scope: CodeScope): Promise<void> {
  const rule = ruleOf(scope);
  try {
    await ctx.mailer.send({
      to: user.email,
      ...MAIL.codeLockout({ scope, limit: rule.limit, windowMinutes: rule.windowSeconds / 60, lockMinutes: rule.lockSeconds / 60 }),
    });
  } catch (err) {
    ctx.log.error({ err: (err as Error).message, userId: user.id }, 'sending the lockout notice failed');
  }
}

/**
 * Runs a step that checks a signed-in user's code: the check is reserved first, a wrong code
 * (InvalidMfaCode, after `fn`'s transaction rolled back) is counted with its audit entry, any other outcome
 * gives the reservation back.
 */
export async function withCodeAttempt<T>(
  ctx: AppContext,
  user: UserRow,
  operation: string,
  ip: string | null,
  fn: () => Promise<T>,
): Promise<T> {
  await reserveCodeAttempt(ctx, user, 'action');
  let result: T;
  try {
    result = await fn();
  } catch (err) {
    if (err instanceof InvalidMfaCode) await recordMfaFailure(ctx, user, operation, ip);
    else await releaseCodeAttempt(ctx.db, user, 'action');
    throw err;
  }
  await releaseCodeAttempt(ctx.db, user, 'action');
  return result;
}

export type FreshMfaResult = { via: 'code' | 'system-token' };

/**
 * The methods an MFA_REQUIRED answer offers: the person's code method, and a passkey where one serves (the person
 * has one and the step-up takes a system MFA token, which a passkey's assertion buys for the operation's class).
 */
async function stepUpMethods(ctx: AppContext, auth: SessionContext, operation: StepUpOperation, tokenServes: boolean) {
  const methods: string[] = [...availableMethods(auth.user)];
  const systemOperation = (SYSTEM_MFA_OPERATIONS as readonly string[]).includes(operation);
  if (tokenServes && systemOperation && (await countUserPasskeys(ctx.db, auth.user.organizationId, auth.user.id)) > 0)
    methods.push('passkey');
  return methods;
}

/**
 * The gate of a sensitive action, behind the access guard's `auth.stepUp.run` (routes declare their step-up; the
 * guard decides whether it applies). Check every rule of the request before calling it, so a code is never
 * spent on a request that was going to fail. Without mfaToken the answer is MFA_REQUIRED (the client asks
 * for a code and sends the same request again); with one it must be a live system MFA token of this session
 * whose risk class matches `operation`, or a fresh code of the user's method. A code check is reserved
 * before the transaction; `action` runs in the same transaction as the check, so the code is spent only if
 * the action commits.
 */
export async function withFreshMfa<T>(
  ctx: AppContext,
  auth: SessionContext,
  operation: StepUpOperation,
  mfaToken: string | undefined,
  ip: string | null,
  action: (trx: Executor, mfa: FreshMfaResult) => Promise<T>,
  tokenServes = true,
): Promise<T> {
  if (!mfaToken) throw mfaRequired(operation, await stepUpMethods(ctx, auth, operation, tokenServes), availableMethods(auth.user)[0]);
  if (/^\d{6}$/.test(mfaToken)) {
    return withCodeAttempt(ctx, auth.user, operation, ip, () =>
      ctx.db.transaction().execute(async (trx) => {
        if (!(await consumeUserCode(ctx, trx, auth.user, mfaToken))) throw new InvalidMfaCode();
        return action(trx, { via: 'code' });
      }),
    );
  }
  // A system MFA token is 256 random bits: it cannot be guessed, so checking one reserves nothing.
  await assertNotLocked(ctx.db, codeThrottleKey('action', auth.user.id), ACTION_CODE_RULE);
  return ctx.db.transaction().execute(async (trx) => {
    if (mfaToken.length <= 6 || !(await systemTokenValid(trx, auth, mfaToken, operation))) throw new InvalidMfaCode();
    return action(trx, { via: 'system-token' });
  });
}

/** Counts a wrong code of a signed-in user and writes its audit entry, outside the rolled-back action. */
export async function recordMfaFailure(ctx: AppContext, user: UserRow, operation: string, ip: string | null): Promise<void> {
  const locked = await ctx.db.transaction().execute(async (trx) => {
    const tripped = await confirmCodeFailure(trx, user, 'action', operation, ip);
    await auditFor(user, { ip })(trx, 'MFA_VERIFICATION_FAILED', { table: 'users', id: user.id }, { operation, locked: tripped });
    return tripped;
  });
  if (locked) await tellLockout(ctx, user, 'action');
}
