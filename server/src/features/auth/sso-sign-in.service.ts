import type { SsoPendingResponse } from '@strongroom/contracts';
import { SSO_MSG } from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { unauthenticated } from '../../shared/errors.js';
import { hashToken, newToken } from '../../shared/tokens.js';
import { createSession } from '../sessions/index.js';
import type { SsoOutcome } from '../sso/index.js';
import { findUserById } from '../users/index.js';
import { findLivePendingLogin, insertPendingLogin } from './auth.repository.js';
import { PENDING_LOGIN_MINUTES } from './auth.service.js';

type SignInOutcome = Extract<SsoOutcome, { kind: 'sign-in' }>;

/**
 * The provider vouched for the person. When the organization counts the provider's MFA and the ID token shows
 * one, the session opens here; otherwise the same pending sign-in the password opens is made, and Strongroom's own
 * second factor finishes it on /login. One transaction with SSO_SIGN_IN.
 */
export async function finishSsoSignIn(
  ctx: AppContext,
  outcome: SignInOutcome,
  meta: RequestMeta,
): Promise<{ sessionToken: string } | { pendingToken: string }> {
  const { user } = outcome;
  return ctx.db.transaction().execute(async (trx) => {
    const audit = auditFor(user, meta);
    if (outcome.providerMfa) {
      const { token, session } = await createSession(ctx, trx, user, meta, 'sso');
      await audit(
        trx,
        'SSO_SIGN_IN',
        { table: 'sessions', id: session.id },
        { providerName: outcome.providerName, issuer: outcome.issuer, secondFactor: 'provider', userAgent: meta.userAgent },
      );
      return { sessionToken: token };
    }
    const token = newToken();
    await insertPendingLogin(trx, {
      tokenHash: hashToken(token),
      userId: user.id,
      expiresAt: new Date(Date.now() + PENDING_LOGIN_MINUTES * 60_000),
      via: 'sso',
    });
    await audit(
      trx,
      'SSO_SIGN_IN',
      { table: 'users', id: user.id },
      { providerName: outcome.providerName, issuer: outcome.issuer, secondFactor: 'strongroom', userAgent: meta.userAgent },
    );
    return { pendingToken: token };
  });
}

/** GET /_api/auth/sso/pending: the person of the pending sign-in the provider started, for /login's second step. */
export async function ssoPendingSignIn(ctx: AppContext, token: string | undefined): Promise<SsoPendingResponse> {
  const row = token ? await findLivePendingLogin(ctx.db, hashToken(token)) : undefined;
  const user = row?.via === 'sso' ? await findUserById(ctx.db, row.userId) : undefined;
  if (!row || !user?.isActive) throw unauthenticated(SSO_MSG.noPendingSignIn);
  return { userId: user.id, email: user.email };
}
