import type { PasskeyAuthenticationResponse, SecondFactorMethod, SessionResponse } from '@strongroom/contracts';
import { API_VERSION, compareApiVersions, MSG, PASSKEY_MSG, SETTINGS_MSG, SSO_MSG } from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { AppError, forbidden, unauthenticated } from '../../shared/errors.js';
import { clearThrottle, confirmFailure, releaseAttempt, reserveAttempt, type ThrottleRule } from '../../shared/throttle.js';
import { hashToken, newToken } from '../../shared/tokens.js';
import { deliverOr503 } from '../../shared/mail-delivery.js';
import {
  confirmCodeFailure,
  consumeEmailCode,
  consumeTotp,
  createEmailCode,
  releaseCodeAttempt,
  reserveCodeAttempt,
  spendUserRecoveryCode,
  tellLockout,
  tellRecoveryCodeUsed,
} from '../mfa/index.js';
import { countUserPasskeys, tellCloneSuspected, verifyAssertion, type AssertionOutcome } from '../passkeys/index.js';
import { createSession, revokeSession, sessionExpiresAt, type AuthContext } from '../sessions/index.js';
import { ssoPolicy } from '../sso/index.js';
import { findOrganization, findUserByEmail, findUserById, toSessionUser, verifyPassword, type UserRow } from '../users/index.js';
import { endPendingLogin, findLivePendingLogin, insertPendingLogin, reservePendingLoginAttempt } from './auth.repository.js';

export const PENDING_LOGIN_MINUTES = 10;
const MAX_CODE_FAILURES = 5;

/** Ten failed passwords for one address lock it for 15 minutes; fifty from one IP address do the same. */
const ACCOUNT_RULE: ThrottleRule = { name: 'login-account', limit: 10, windowSeconds: 900, lockSeconds: 900, message: MSG.tooManyAttempts };
export const IP_RULE: ThrottleRule = { name: 'login-ip', limit: 50, windowSeconds: 900, lockSeconds: 900, message: MSG.tooManyAttempts };

/** The throttle key of an address's password failures (a password reset clears it). */
export const accountKey = (email: string) => `login:acct:${email.trim().toLowerCase()}`;
export const ipKey = (ip: string) => `login:ip:${ip}`;

/**
 * Step one: the password. Answers a pending sign-in that only the second factor can turn into a session.
 * The attempt is counted against the address and the client's IP address before the password is checked,
 * so a burst of concurrent guesses cannot check more passwords than the limits allow.
 */
export async function loginWithPassword(ctx: AppContext, input: { email: string; password: string }, meta: RequestMeta) {
  const acctKey = accountKey(input.email);
  await reserveAttempt(ctx.db, acctKey, ACCOUNT_RULE);
  try {
    await reserveAttempt(ctx.db, ipKey(meta.ip), IP_RULE);
  } catch (err) {
    await releaseAttempt(ctx.db, acctKey);
    throw err;
  }
  const user = await findUserByEmail(ctx.db, input.email);
  const passwordOk = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !passwordOk || !user.isActive) {
    const reason = !user ? 'unknown_email' : !passwordOk ? 'wrong_password' : 'deactivated';
    await ctx.db.transaction().execute(async (trx) => {
      await confirmFailure(trx, acctKey, ACCOUNT_RULE);
      await confirmFailure(trx, ipKey(meta.ip), IP_RULE);
      await auditFor(user ?? null, meta)(
        trx,
        'USER_LOGIN_FAILED',
        { table: 'users', id: user?.id ?? null },
        { email: input.email.toLowerCase(), reason, userAgent: meta.userAgent },
      );
    });
    throw unauthenticated(MSG.invalidCredentials, 'UNAUTHENTICATED');
  }
  // Require SSO: members sign in at the provider; an administrator's password opens only the break-glass path.
  const policy = await ssoPolicy(ctx, user.organizationId);
  const breakGlass = !!policy?.requireSso && user.role === 'admin';
  if (policy?.requireSso && !breakGlass) {
    await ctx.db.transaction().execute(async (trx) => {
      await releaseAttempt(trx, acctKey);
      await releaseAttempt(trx, ipKey(meta.ip));
      await auditFor(user, meta)(
        trx,
        'USER_LOGIN_FAILED',
        { table: 'users', id: user.id },
        { email: user.email, reason: 'sso_required', userAgent: meta.userAgent },
      );
    });
    throw forbidden(SSO_MSG.passwordSignInOff(policy.providerName), { reason: 'SSO_REQUIRED' });
  }
  const token = newToken();
  await ctx.db.transaction().execute(async (trx) => {
    // The right password clears the address's password failures (never the second-factor count) and
    // gives back this request's attempt from the IP address's budget.
    await clearThrottle(trx, acctKey);
    await releaseAttempt(trx, ipKey(meta.ip));
    await insertPendingLogin(trx, {
      tokenHash: hashToken(token),
      userId: user.id,
      expiresAt: new Date(Date.now() + PENDING_LOGIN_MINUTES * 60_000),
    });
    await auditFor(user, meta)(
      trx,
      'LOGIN_PASSWORD_VERIFIED',
      { table: 'users', id: user.id },
      breakGlass ? { userAgent: meta.userAgent, breakGlass: true } : { userAgent: meta.userAgent },
    );
  });
  return {
    pendingToken: token,
    answer: breakGlass ? { userId: user.id, email: user.email, breakGlass } : { userId: user.id, email: user.email },
  };
}

export type PendingLogin = { id: string; user: UserRow; failedAttempts: number; via: 'password' | 'sso' };

/** The pending sign-in behind the cookie, which must belong to the user the call names. */
export async function requirePending(ctx: AppContext, token: string | undefined, userId: number): Promise<PendingLogin> {
  if (!token) throw unauthenticated(MSG.pendingLoginMissing);
  const row = await findLivePendingLogin(ctx.db, hashToken(token));
  if (!row || row.userId !== userId) throw unauthenticated(MSG.pendingLoginMissing);
  const user = await findUserById(ctx.db, row.userId);
  if (!user || !user.isActive) throw unauthenticated(MSG.pendingLoginMissing);
  return { id: row.id, user, failedAttempts: row.failedAttempts, via: row.via };
}

/**
 * A password sign-in of an organization that requires single sign-on (turned on after the password step, too): an
 * administrator finishes it only with a recovery code (break-glass); anyone else is refused.
 */
async function breakGlassRule(ctx: AppContext, pending: PendingLogin): Promise<'none' | 'recovery-only'> {
  if (pending.via !== 'password') return 'none';
  const policy = await ssoPolicy(ctx, pending.user.organizationId);
  if (!policy?.requireSso) return 'none';
  if (pending.user.role !== 'admin') throw forbidden(SSO_MSG.passwordSignInOff(policy.providerName), { reason: 'SSO_REQUIRED' });
  return 'recovery-only';
}

function challengeMethods(user: UserRow) {
  const totp = user.mfaEnabled && user.mfaPrimaryMethod === 'totp' && !!user.totpSecret;
  return {
    availableMethods: totp ? (['totp'] as const).slice() : (['email'] as const).slice(),
    preferredMethod: totp ? ('totp' as const) : ('email' as const),
  };
}

/** The methods of the second step: the code method, and a passkey when the person has one. */
async function secondStepMethods(ctx: AppContext, user: UserRow) {
  const methods = challengeMethods(user);
  const availableMethods: SecondFactorMethod[] = [...methods.availableMethods];
  if ((await countUserPasskeys(ctx.db, user.organizationId, user.id)) > 0) availableMethods.push('passkey');
  return { availableMethods, preferredMethod: methods.preferredMethod };
}

export async function startChallenge(ctx: AppContext, pending: PendingLogin, meta: RequestMeta) {
  const methods = await secondStepMethods(ctx, pending.user);
  await ctx.db
    .transaction()
    .execute((trx) =>
      auditFor(pending.user, meta)(
        trx,
        'MFA_CHALLENGE_STARTED',
        { table: 'users', id: pending.user.id },
        { availableMethods: methods.availableMethods },
      ),
    );
  return methods;
}

export async function sendLoginEmailCode(ctx: AppContext, pending: PendingLogin, meta: RequestMeta) {
  if ((await breakGlassRule(ctx, pending)) === 'recovery-only') throw forbidden(SSO_MSG.breakGlassRecoveryOnly, { reason: 'SSO_REQUIRED' });
  if (challengeMethods(pending.user).preferredMethod !== 'email') throw new AppError(400, MSG.emailAuthRequired, 'VALIDATION_ERROR');
  const mail = await ctx.db.transaction().execute(async (trx) => {
    const m = await createEmailCode(trx, pending.user, 'login', pending.id);
    await auditFor(pending.user, meta)(trx, 'MFA_EMAIL_CODE_SENT', { table: 'users', id: pending.user.id }, { purpose: 'login' });
    return m;
  });
  await deliverOr503(ctx, mail);
  return { success: true, message: MSG.emailCodeSent };
}

/**
 * Step two: the code. Before a code is checked, one attempt is reserved on the pending sign-in (at most five
 * per pending sign-in, in one conditional UPDATE, so concurrent requests cannot exceed it) and one on the
 * user's second-factor budget across all their pending sign-ins (LOGIN_CODE_RULE). A right code ends the
 * pending sign-in and opens a session; the fifth wrong one ends the pending sign-in, so the password has
 * to be given again.
 */
export async function verifyLoginCode(
  ctx: AppContext,
  pending: PendingLogin,
  method: 'totp' | 'email' | 'recovery' | 'passkey',
  code: string | PasskeyAuthenticationResponse,
  meta: RequestMeta,
) {
  const expected = challengeMethods(pending.user).preferredMethod;
  const breakGlass = (await breakGlassRule(ctx, pending)) === 'recovery-only';
  if (breakGlass && method !== 'recovery') throw forbidden(SSO_MSG.breakGlassRecoveryOnly, { reason: 'SSO_REQUIRED' });
  await reserveCodeAttempt(ctx, pending.user, 'login');
  const attempts = await reservePendingLoginAttempt(ctx.db, pending.id, MAX_CODE_FAILURES);
  if (attempts === undefined) {
    await releaseCodeAttempt(ctx.db, pending.user, 'login');
    throw unauthenticated(MSG.pendingLoginLocked, 'UNAUTHENTICATED', { reason: 'SIGN_IN_ENDED' });
  }
  const result = await ctx.db
    .transaction()
    .execute(async (trx) => {
      // A recovery code stands in for the authenticator (it exists only while the authenticator is the method).
      let recoveryLeft: number | null = null;
      // A passkey's assertion: its challenge is consumed and a clone is recorded whatever the verdict (this
      // transaction commits on a refusal too).
      let passkey: AssertionOutcome | undefined;
      if (typeof code !== 'string') {
        passkey = await verifyAssertion(ctx, trx, { purpose: 'second-factor', user: pending.user }, code, meta);
      } else if (method === 'recovery') recoveryLeft = await spendUserRecoveryCode(ctx, trx, pending.user, code, 'login', meta);
      const ok =
        passkey !== undefined
          ? passkey.ok
          : typeof code !== 'string'
            ? false
            : method === 'recovery'
              ? recoveryLeft !== null
              : method === expected &&
                (method === 'totp'
                  ? await consumeTotp(ctx, trx, pending.user.id, code)
                  : await consumeEmailCode(trx, pending.user.id, 'login', code, pending.id));
      if (!ok) return { ok: false as const, passkey };
      await endPendingLogin(trx, pending.id);
      await releaseCodeAttempt(trx, pending.user, 'login');
      const { token, session } = await createSession(ctx, trx, pending.user, meta, pending.via);
      await auditFor(pending.user, meta)(
        trx,
        method === 'email' ? 'USER_LOGIN_MFA_EMAIL_SUCCESS' : 'USER_LOGIN',
        { table: 'sessions', id: session.id },
        breakGlass ? { method, userAgent: meta.userAgent, breakGlass } : { method, userAgent: meta.userAgent },
      );
      return { ok: true as const, token, recoveryLeft };
    })
    .catch(async (err: unknown) => {
      // Not a verdict on the code (a database fault): the attempt is given back to the user's budget.
      await releaseCodeAttempt(ctx.db, pending.user, 'login').catch(() => undefined);
      throw err;
    });
  if (!result.ok) {
    if (result.passkey?.ok === false && result.passkey.why === 'clone' && result.passkey.passkey)
      await tellCloneSuspected(ctx, pending.user.email, result.passkey.passkey);
    const ended = attempts >= MAX_CODE_FAILURES;
    const lockedOut = await ctx.db.transaction().execute(async (trx) => {
      if (ended) await endPendingLogin(trx, pending.id);
      const tripped = await confirmCodeFailure(trx, pending.user, 'login', 'login', meta.ip);
      await auditFor(pending.user, meta)(
        trx,
        'MFA_VERIFICATION_FAILED',
        { table: 'users', id: pending.user.id },
        { method, attempts, pendingLoginEnded: ended, locked: tripped },
      );
      return tripped;
    });
    if (lockedOut) await tellLockout(ctx, pending.user, 'login');
    if (ended) throw unauthenticated(MSG.pendingLoginLocked, 'UNAUTHENTICATED', { reason: 'SIGN_IN_ENDED' });
    if (result.passkey?.ok === false)
      throw unauthenticated(result.passkey.why === 'clone' ? PASSKEY_MSG.cloneSuspected : PASSKEY_MSG.verificationFailed);
    throw unauthenticated(MSG.invalidCode);
  }
  const org = await findOrganization(ctx.db, pending.user.organizationId);
  if (!org) throw new AppError(403, MSG.accountSetupIncomplete, 'ORGANIZATION_MISSING');
  const user = (await findUserById(ctx.db, pending.user.id))!;
  if (result.recoveryLeft !== null) {
    await tellRecoveryCodeUsed(ctx, user, 'login', result.recoveryLeft);
    return {
      sessionToken: result.token,
      answer: { user: toSessionUser(user, org), message: SETTINGS_MSG.recoveryLoginVerified, recoveryCodesRemaining: result.recoveryLeft },
    };
  }
  return { sessionToken: result.token, answer: { user: toSessionUser(user, org), message: MSG.loginVerified } };
}

export async function logout(ctx: AppContext, auth: AuthContext | null, meta: RequestMeta) {
  if (!auth) return;
  await ctx.db.transaction().execute(async (trx) => {
    await revokeSession(trx, auth.session.id, 'logout');
    await auditFor(auth.user, meta)(trx, 'USER_LOGOUT', { table: 'sessions', id: auth.session.id });
  });
}

/** The session answer, with the verdict on the client's API version (compatible, deprecated or critical). */
export function sessionAnswer(ctx: AppContext, auth: AuthContext, clientVersion: string | undefined): SessionResponse {
  const verdict = compareApiVersions(clientVersion, API_VERSION);
  if (verdict.severity === 'critical') {
    throw new AppError(400, MSG.apiVersionMismatch, 'API_VERSION_MISMATCH', { status: verdict.status, server: API_VERSION });
  }
  return {
    user: toSessionUser(auth.user, auth.org),
    session: {
      expiresAt: sessionExpiresAt(auth.session).toISOString(),
      absoluteExpiresAt: auth.session.absoluteExpiresAt.toISOString(),
      idleTimeoutSeconds: ctx.config.session.idleMinutes * 60,
    },
    apiVersion: { server: API_VERSION, status: verdict.status },
  };
}
