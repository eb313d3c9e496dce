import type { MfaManageRequest, MfaManageResponse, MfaSettingsRequest, MfaStatusResponse, SystemMfaOperation } from '@strongroom/contracts';
import { MSG, SETTINGS_MSG } from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { badRequest, internalError } from '../../shared/errors.js';
import { deliverOr503 } from '../../shared/mail-delivery.js';
import type { AuthContext } from '../sessions/index.js';
import { lockUser, updateUser, type UserRow } from '../users/index.js';
import {
  consumeEmailCode,
  consumeTotp,
  consumeUserCode,
  createEmailCode,
  InvalidMfaCode,
  issueSystemToken,
  withCodeAttempt,
} from './mfa.service.js';
import { decryptTotpSecret, encryptTotpSecret } from './secret-box.js';
import { matchTotpStep, newTotpSecret, totpQrCode } from './totp.js';
import {
  clearRecoveryCodes,
  consumeCurrentFactor,
  issueRecoveryCodes,
  looksLikeRecoveryCode,
  remainingRecoveryCodes,
  tellRecoveryCodeUsed,
} from './recovery-codes.service.js';

/** Runs a step that checks a code: reserved before, counted as a failure after its transaction rolled back. */
function countingFailures<T>(ctx: AppContext, user: UserRow, operation: string, meta: RequestMeta, fn: () => Promise<T>): Promise<T> {
  return withCodeAttempt(ctx, user, operation, meta.ip, fn);
}

/**
 * POST /_api/settings/mfa-manage (the setup wall and the Profile tab). MFA can be switched
 * between methods but never turned off. While it is not set up yet, mfaToken is 'setup'; afterwards a
 * switch needs a code of the current method.
 */
export async function manageMfa(
  ctx: AppContext,
  auth: AuthContext,
  input: MfaManageRequest,
  meta: RequestMeta,
): Promise<MfaManageResponse> {
  const user = auth.user;
  const audit = auditFor(user, meta);
  const settingUp = !user.mfaEnabled;

  if (input.operation === 'generate_totp_secret') {
    const secret = newTotpSecret();
    await ctx.db.transaction().execute(async (trx) => {
      await updateUser(trx, user.id, { totpPendingSecret: await encryptTotpSecret(ctx.config, user.id, secret) });
      await audit(trx, 'MFA_SETUP_INITIATED', { table: 'users', id: user.id }, { method: 'totp' });
    });
    let qrCode: string;
    try {
      qrCode = await totpQrCode(secret, user.email, auth.org.name);
    } catch {
      throw internalError(MSG.qrFailed);
    }
    return { success: true, message: MSG.totpScanPrompt, qrCode, secret };
  }

  if (input.operation === 'switch_to_totp') {
    if (!input.totpToken) throw badRequest(MSG.totpTokenRequired);
    if (!settingUp && !input.mfaToken) throw badRequest(MSG.mfaTokenRequired);
    const result = await countingFailures(ctx, user, input.operation, meta, () =>
      ctx.db.transaction().execute(async (trx) => {
        const fresh = await lockUser(trx, user.id);
        if (!fresh?.totpPendingSecret) throw badRequest(MSG.noPendingTotpSecret);
        const proof = settingUp ? null : await consumeCurrentFactor(ctx, trx, user, input.mfaToken!, meta);
        if (!settingUp && !proof) throw new InvalidMfaCode();
        const pendingSecret = await decryptTotpSecret(ctx.config, user.id, fresh.totpPendingSecret);
        const step = matchTotpStep(pendingSecret, input.totpToken!);
        if (step === null) throw new InvalidMfaCode();
        await updateUser(trx, user.id, {
          totpSecret: await encryptTotpSecret(ctx.config, user.id, pendingSecret),
          totpPendingSecret: null,
          totpLastUsedStep: String(step),
          mfaEnabled: true,
          mfaPrimaryMethod: 'totp',
        });
        // A new authenticator comes with a new set of recovery codes, shown once in this answer.
        const recoveryCodes = await issueRecoveryCodes(ctx, trx, user);
        await audit(
          trx,
          'MFA_TOTP_ENABLED',
          { table: 'users', id: user.id },
          { previousMethod: user.mfaPrimaryMethod, recoveryCodes: recoveryCodes.length },
        );
        return {
          answer: { success: true, message: MSG.totpEnabled, mfaEnabled: true, mfaPrimaryMethod: 'totp' as const, recoveryCodes },
          recoveryLeft: proof?.via === 'recovery' ? proof.remaining : null,
        };
      }),
    );
    if (result.recoveryLeft !== null) await tellRecoveryCodeUsed(ctx, user, 'method-change', result.recoveryLeft);
    return result.answer;
  }

  // switch_to_email
  if (!settingUp && user.mfaPrimaryMethod === 'email') throw badRequest(MSG.emailAlreadyMethod);
  if (!settingUp) {
    // From an authenticator: the current TOTP code proves the switch, or one of the recovery codes when the phone is lost.
    const token = input.mfaToken;
    if (!token || !(/^\d{6}$/.test(token) || looksLikeRecoveryCode(token))) throw badRequest(MSG.mfaTokenRequired);
    const result = await countingFailures(ctx, user, input.operation, meta, () =>
      ctx.db.transaction().execute(async (trx) => {
        const proof = /^\d{6}$/.test(token)
          ? (await consumeTotp(ctx, trx, user.id, token))
            ? { via: 'code' as const }
            : null
          : await consumeCurrentFactor(ctx, trx, user, token, meta);
        if (!proof) throw new InvalidMfaCode();
        await updateUser(trx, user.id, { mfaPrimaryMethod: 'email', totpSecret: null, totpPendingSecret: null });
        await clearRecoveryCodes(trx, user.id);
        await audit(trx, 'MFA_EMAIL_ENABLED', { table: 'users', id: user.id }, { previousMethod: 'totp', via: proof.via });
        return {
          answer: { success: true, message: MSG.emailEnabled, mfaEnabled: true, mfaPrimaryMethod: 'email' as const },
          recoveryLeft: proof.via === 'recovery' ? proof.remaining : null,
        };
      }),
    );
    if (result.recoveryLeft !== null) await tellRecoveryCodeUsed(ctx, user, 'method-change', result.recoveryLeft);
    return result.answer;
  }
  if (!input.mfaToken || input.mfaToken === 'setup') {
    const mail = await ctx.db.transaction().execute(async (trx) => {
      const m = await createEmailCode(trx, user, 'setup');
      await audit(trx, 'MFA_SETUP_INITIATED', { table: 'users', id: user.id }, { method: 'email' });
      return m;
    });
    await deliverOr503(ctx, mail);
    return { success: true, codeSent: true, message: MSG.setupEmailSent };
  }
  const code = input.mfaToken;
  return countingFailures(ctx, user, input.operation, meta, () =>
    ctx.db.transaction().execute(async (trx) => {
      if (!/^\d{6}$/.test(code) || !(await consumeEmailCode(trx, user.id, 'setup', code))) throw new InvalidMfaCode();
      await updateUser(trx, user.id, { mfaEnabled: true, mfaPrimaryMethod: 'email', totpPendingSecret: null });
      await audit(trx, 'MFA_EMAIL_ENABLED', { table: 'users', id: user.id });
      return { success: true, message: MSG.emailEnabled, mfaEnabled: true, mfaPrimaryMethod: 'email' as const };
    }),
  );
}

/** Sends a signed-in user an emailed code for a sensitive action or the system MFA prompt. */
export async function sendActionEmailCode(ctx: AppContext, auth: AuthContext, meta: RequestMeta) {
  if (auth.user.mfaPrimaryMethod === 'totp') throw badRequest(MSG.useAuthenticatorCode);
  const mail = await ctx.db.transaction().execute(async (trx) => {
    const m = await createEmailCode(trx, auth.user, 'action');
    await auditFor(auth.user, meta)(trx, 'MFA_EMAIL_CODE_SENT', { table: 'users', id: auth.user.id }, { purpose: 'action' });
    return m;
  });
  await deliverOr503(ctx, mail);
  return { success: true, message: MSG.emailCodeSent };
}

/** POST /_api/auth/verifySystemMfa: a right code buys a 30-minute token bound to this session. */
export async function verifySystemMfa(
  ctx: AppContext,
  auth: AuthContext,
  input: { operation: SystemMfaOperation; mfaToken: string },
  meta: RequestMeta,
) {
  return countingFailures(ctx, auth.user, input.operation, meta, () =>
    ctx.db.transaction().execute(async (trx) => {
      if (!(await consumeUserCode(ctx, trx, auth.user, input.mfaToken))) throw new InvalidMfaCode();
      const { token, expiresAt } = await issueSystemToken(trx, auth, input.operation);
      await auditFor(auth.user, meta)(
        trx,
        'MFA_VERIFICATION_SUCCESS',
        { table: 'system_mfa_tokens', id: null },
        { operation: input.operation, validMinutes: 30 },
      );
      return { success: true as const, systemMfaToken: token, expiresAt: expiresAt.toISOString() };
    }),
  );
}

/** GET /_api/settings/mfa: the signed-in user's method and how many recovery codes are left. */
export async function mfaStatus(ctx: AppContext, auth: AuthContext): Promise<MfaStatusResponse> {
  const { user } = auth;
  return {
    mfaEnabled: user.mfaEnabled,
    mfaPrimaryMethod: user.mfaPrimaryMethod,
    recoveryCodesRemaining: user.mfaPrimaryMethod === 'totp' ? await remainingRecoveryCodes(ctx.db, user.id) : 0,
  };
}

/**
 * POST /_api/settings/mfa { enable, method, setup, token }: the older shape of the same operations as
 * mfa-manage, mapped onto them. MFA is never turned off, so enable false is refused.
 */
export async function mfaSettings(
  ctx: AppContext,
  auth: AuthContext,
  input: MfaSettingsRequest,
  meta: RequestMeta,
): Promise<MfaManageResponse> {
  if (!input.enable) throw badRequest(SETTINGS_MSG.mfaCannotDisable, { field: 'enable' });
  if (!input.method) throw badRequest(SETTINGS_MSG.mfaMethodRequired, { field: 'method' });
  const settingUp = !auth.user.mfaEnabled;
  if (input.method === 'totp') {
    if (input.setup || !input.token) return manageMfa(ctx, auth, { operation: 'generate_totp_secret' }, meta);
    return manageMfa(
      ctx,
      auth,
      { operation: 'switch_to_totp', totpToken: input.token, mfaToken: settingUp ? 'setup' : input.mfaToken },
      meta,
    );
  }
  // email: during first setup, setup (or no token) sends the code and the token completes it; from the
  // authenticator, the token is the current authenticator code (or mfaToken a recovery code).
  if (settingUp)
    return manageMfa(ctx, auth, { operation: 'switch_to_email', mfaToken: input.setup || !input.token ? 'setup' : input.token }, meta);
  return manageMfa(ctx, auth, { operation: 'switch_to_email', mfaToken: input.token ?? input.mfaToken }, meta);
}
