import { randomInt } from 'node:crypto';
import type { RecoveryCodesResponse } from '@strongroom/contracts';
import { MAIL, SETTINGS_LIMITS, SETTINGS_MSG } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { badRequest } from '../../shared/errors.js';
import type { AuthContext } from '../sessions/index.js';
import type { UserRow } from '../users/index.js';
import { countUnusedRecoveryCodes, deleteRecoveryCodes, replaceRecoveryCodes, spendRecoveryCode } from './mfa.repository.js';
import { consumeUserCode } from './mfa.service.js';
import { recoveryCodeHash } from './secret-box.js';

/**
 * Recovery codes: 10 one-time codes an authenticator user receives when the authenticator is set up (and again,
 * as a new set, when they ask with a fresh code). Each is 10 characters of Crockford's base32 (50 random bits),
 * shown as two groups of five; only a keyed hash is stored. A code replaces an authenticator code once: at the
 * second step of signing in, or to change the verification method after the phone is lost. Codes exist only
 * while the authenticator is the method: switching to email, or an administrator's MFA reset, deletes them.
 */
const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const CODE_LENGTH = 10;

/** The code as stored: no spaces or hyphens, lower case, and the letters people mistake for digits read as those digits. */
function normalizeRecoveryCode(input: string): string {
  return input.replace(/[\s-]/g, '').toLowerCase().replace(/o/g, '0').replace(/[il]/g, '1');
}

/** Whether a token is shaped like a recovery code (and not like a 6-digit code or a system token). */
export function looksLikeRecoveryCode(token: string): boolean {
  return new RegExp(`^[${ALPHABET}]{${CODE_LENGTH}}$`).test(normalizeRecoveryCode(token));
}

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

const shown = (code: string) => `${code.slice(0, 5)}-${code.slice(5)}`;

/** Makes a new set of codes for the user inside `trx` (the old set stops working) and answers them as shown. */
export async function issueRecoveryCodes(ctx: AppContext, trx: Executor, user: UserRow): Promise<string[]> {
  const codes = new Set<string>();
  while (codes.size < SETTINGS_LIMITS.recoveryCodeCount) codes.add(newRecoveryCode());
  const hashes = await Promise.all([...codes].map((c) => recoveryCodeHash(ctx.config, user.id, c)));
  await replaceRecoveryCodes(trx, user.organizationId, user.id, hashes);
  return [...codes].map(shown);
}

export function clearRecoveryCodes(trx: Executor, userId: number): Promise<void> {
  return deleteRecoveryCodes(trx, userId);
}

export function remainingRecoveryCodes(db: Executor, userId: number): Promise<number> {
  return countUnusedRecoveryCodes(db, userId);
}

/**
 * Spends one of the user's recovery codes inside `trx` and writes MFA_RECOVERY_CODE_USED; answers the number of
 * codes left, or null when the code is not one of the user's unused codes.
 */
export async function spendUserRecoveryCode(
  ctx: AppContext,
  trx: Executor,
  user: UserRow,
  code: string,
  purpose: 'login' | 'method-change',
  meta: RequestMeta,
): Promise<number | null> {
  // Codes serve only while the authenticator is the method: after a switch to email or an administrator's MFA
  // reset, any code still stored is refused.
  if (user.mfaPrimaryMethod !== 'totp' || !user.totpSecret || !looksLikeRecoveryCode(code)) return null;
  const hash = await recoveryCodeHash(ctx.config, user.id, normalizeRecoveryCode(code));
  if (!(await spendRecoveryCode(trx, user.id, hash))) return null;
  const remaining = await countUnusedRecoveryCodes(trx, user.id);
  await auditFor(user, meta)(trx, 'MFA_RECOVERY_CODE_USED', { table: 'users', id: user.id }, { purpose, remaining });
  return remaining;
}

/** Mails the user that a recovery code was used (a failed send is logged, not thrown: the change is made). */
export async function tellRecoveryCodeUsed(ctx: AppContext, user: UserRow, purpose: 'login' | 'method-change', remaining: number) {
  try {
    await ctx.mailer.send({ to: user.email, ...MAIL.recoveryCodeUsed({ purpose, remaining }) });
  } catch (err) {
    ctx.log.error({ err: (err as Error).message, userId: user.id }, 'sending the recovery-code notice failed');
  }
}

/**
 * Proof of the current factor for changing the method: a code of the user's method, or, for an authenticator
 * user who lost the phone, one of their recovery codes. Answers how it was proved, or null.
 */
export async function consumeCurrentFactor(
  ctx: AppContext,
  trx: Executor,
  user: UserRow,
  token: string,
  meta: RequestMeta,
): Promise<{ via: 'code' } | { via: 'recovery'; remaining: number } | null> {
  if (/^\d{6}$/.test(token)) return (await consumeUserCode(ctx, trx, user, token)) ? { via: 'code' } : null;
  if (user.mfaPrimaryMethod !== 'totp') return null;
  const remaining = await spendUserRecoveryCode(ctx, trx, user, token, 'method-change', meta);
  return remaining === null ? null : { via: 'recovery', remaining };
}

/**
 * POST /_api/settings/mfa/recovery-codes: a new set for an authenticator user, always behind a fresh code of the
 * authenticator (a system MFA token is not enough: these codes are a second factor themselves).
 */
export async function regenerateRecoveryCodes(ctx: AppContext, auth: AuthContext, meta: RequestMeta): Promise<RecoveryCodesResponse> {
  const user = auth.user;
  if (!user.mfaEnabled || user.mfaPrimaryMethod !== 'totp') throw badRequest(SETTINGS_MSG.recoveryCodeNoTotp);
  const recoveryCodes = await auth.stepUp.run(async (trx) => {
    const codes = await issueRecoveryCodes(ctx, trx, user);
    await auditFor(user, meta)(trx, 'MFA_RECOVERY_CODES_REGENERATED', { table: 'users', id: user.id }, { count: codes.length });
    return codes;
  });
  return { success: true, message: SETTINGS_MSG.recoveryCodesRegenerated, recoveryCodes };
}
