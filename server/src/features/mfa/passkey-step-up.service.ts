import {
  PASSKEY_MSG,
  type PasskeyStepUpOptionsRequest,
  type PasskeyStepUpRequest,
  type VerifySystemMfaResponse,
} from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { AppError, badRequest } from '../../shared/errors.js';
import { assertionOptions, listUserPasskeys, tellCloneSuspected, verifyAssertion } from '../passkeys/index.js';
import type { AuthContext } from '../sessions/index.js';
import { issueSystemToken, recordMfaFailure, releaseCodeAttempt, reserveCodeAttempt } from './mfa.service.js';

/** POST /_api/auth/passkey-step-up-options: a challenge bound to this session and operation, naming one's passkeys. */
export async function passkeyStepUpOptions(ctx: AppContext, auth: AuthContext, input: PasskeyStepUpOptionsRequest) {
  const passkeys = await listUserPasskeys(ctx.db, auth.user.organizationId, auth.user.id);
  if (passkeys.length === 0) throw badRequest(PASSKEY_MSG.noPasskeys);
  return assertionOptions(ctx, { purpose: 'step-up', user: auth.user, sessionId: auth.session.id, operation: input.operation }, passkeys);
}

/**
 * POST /_api/auth/passkey-step-up: a passkey's assertion stands for a fresh code. It buys the system MFA token of
 * the operation's risk class (as POST /_api/auth/verifySystemMfa does for a code), which the client sends as
 * mfaToken; so every step-up that takes a token takes a passkey, without a change to its route. It is counted on the
 * person's code budget like a code: a refused assertion is a failure with its audit entry.
 */
export async function passkeyStepUp(
  ctx: AppContext,
  auth: AuthContext,
  input: PasskeyStepUpRequest,
  meta: RequestMeta,
): Promise<VerifySystemMfaResponse> {
  const { user } = auth;
  await reserveCodeAttempt(ctx, user, 'action');
  const result = await ctx.db
    .transaction()
    .execute(async (trx) => {
      const outcome = await verifyAssertion(
        ctx,
        trx,
        { purpose: 'step-up', user, sessionId: auth.session.id, operation: input.operation },
        input.response,
        meta,
      );
      if (!outcome.ok) return { outcome } as const;
      const { token, expiresAt } = await issueSystemToken(trx, auth, input.operation);
      await auditFor(user, meta)(
        trx,
        'MFA_VERIFICATION_SUCCESS',
        { table: 'system_mfa_tokens', id: null },
        { operation: input.operation, method: 'passkey', passkeyId: outcome.passkey.id, validMinutes: 30 },
      );
      return { outcome, token, expiresAt } as const;
    })
    .catch(async (err: unknown) => {
      await releaseCodeAttempt(ctx.db, user, 'action').catch(() => undefined);
      throw err;
    });
  if (!result.outcome.ok) {
    await recordMfaFailure(ctx, user, input.operation, meta.ip);
    const clone = result.outcome.why === 'clone';
    if (clone && result.outcome.passkey) await tellCloneSuspected(ctx, user.email, result.outcome.passkey);
    throw new AppError(401, clone ? PASSKEY_MSG.cloneSuspected : PASSKEY_MSG.verificationFailed, 'MFA_INVALID');
  }
  await releaseCodeAttempt(ctx.db, user, 'action');
  return { success: true, systemMfaToken: result.token!, expiresAt: result.expiresAt!.toISOString() };
}
