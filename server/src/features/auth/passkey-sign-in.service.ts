import { MSG, PASSKEY_MSG, type MfaVerifyResponse, type PasskeyAuthenticationResponse } from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { AppError, badRequest, forbidden, unauthenticated } from '../../shared/errors.js';
import { confirmFailure, releaseAttempt, reserveAttempt } from '../../shared/throttle.js';
import { assertionOptions, listUserPasskeys, passkeySignInAllowed, tellCloneSuspected, verifyAssertion } from '../passkeys/index.js';
import { createSession } from '../sessions/index.js';
import { findOrganization, findUserById, toSessionUser } from '../users/index.js';
import { IP_RULE, ipKey, type PendingLogin } from './auth.service.js';

/** POST /_api/auth/passkey-challenge: the options of a pending sign-in's passkey step, naming the person's passkeys. */
export async function passkeyChallenge(ctx: AppContext, pending: PendingLogin) {
  const passkeys = await listUserPasskeys(ctx.db, pending.user.organizationId, pending.user.id);
  if (passkeys.length === 0) throw badRequest(PASSKEY_MSG.noPasskeys);
  return assertionOptions(ctx, { purpose: 'second-factor', user: pending.user }, passkeys);
}

/** POST /_api/auth/passkey-login-options: a challenge naming nobody; the browser offers its discoverable passkeys. */
export function passkeyLoginOptions(ctx: AppContext) {
  return assertionOptions(ctx, { purpose: 'sign-in' });
}

/**
 * POST /_api/auth/login_with_passkey: a discoverable passkey with user verification is both factors (something
 * held, and the PIN or biometric that unlocked it). The attempt is counted against the client's IP address like a
 * password's; the credential names its person, whose organization must allow passkey sign-in (else 403, and the
 * attempt is given back). A clone (the counter went back) is refused and its owner told.
 */
export async function loginWithPasskey(
  ctx: AppContext,
  response: PasskeyAuthenticationResponse,
  meta: RequestMeta,
): Promise<{ sessionToken: string; answer: MfaVerifyResponse }> {
  await reserveAttempt(ctx.db, ipKey(meta.ip), IP_RULE);
  const result = await ctx.db
    .transaction()
    .execute(async (trx) => {
      const outcome = await verifyAssertion(ctx, trx, { purpose: 'sign-in', user: null }, response, meta);
      if (!outcome.ok) return { refused: outcome.why, passkey: outcome.passkey } as const;
      const user = await findUserById(trx, outcome.passkey.userId);
      if (!user || !user.isActive || user.organizationId !== outcome.passkey.organizationId) return { refused: 'invalid' } as const;
      if (!(await passkeySignInAllowed(trx, user.organizationId))) return { refused: 'policy', user } as const;
      await releaseAttempt(trx, ipKey(meta.ip));
      const { token, session } = await createSession(ctx, trx, user, meta, 'passkey');
      await auditFor(user, meta)(
        trx,
        'USER_LOGIN',
        { table: 'sessions', id: session.id },
        { method: 'passkey', passwordless: true, passkeyId: outcome.passkey.id, userAgent: meta.userAgent },
      );
      return { refused: null, token, user } as const;
    })
    .catch(async (err: unknown) => {
      await releaseAttempt(ctx.db, ipKey(meta.ip)).catch(() => undefined);
      throw err;
    });
  if (result.refused === 'policy') {
    await releaseAttempt(ctx.db, ipKey(meta.ip));
    throw forbidden(PASSKEY_MSG.signInNotAllowed);
  }
  if (result.refused !== null) {
    const passkey = 'passkey' in result ? result.passkey : undefined;
    const owner = passkey ? await findUserById(ctx.db, passkey.userId) : undefined;
    await ctx.db.transaction().execute(async (trx) => {
      await confirmFailure(trx, ipKey(meta.ip), IP_RULE);
      await auditFor(owner ?? null, meta)(
        trx,
        'USER_LOGIN_FAILED',
        { table: 'users', id: owner?.id ?? null },
        {
          method: 'passkey',
          reason: result.refused === 'clone' ? 'passkey_clone_suspected' : 'passkey_invalid',
          userAgent: meta.userAgent,
        },
      );
    });
    if (result.refused === 'clone' && passkey && owner) {
      await tellCloneSuspected(ctx, owner.email, passkey);
      throw unauthenticated(PASSKEY_MSG.cloneSuspected);
    }
    throw unauthenticated(PASSKEY_MSG.verificationFailed);
  }
  const org = await findOrganization(ctx.db, result.user.organizationId);
  if (!org) throw new AppError(403, MSG.accountSetupIncomplete, 'ORGANIZATION_MISSING');
  return { sessionToken: result.token, answer: { user: toSessionUser(result.user, org), message: PASSKEY_MSG.signedIn } };
}
