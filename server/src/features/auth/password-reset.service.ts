import { MAIL, MSG } from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { badRequest } from '../../shared/errors.js';
import { clearThrottle, consume, type ThrottleRule } from '../../shared/throttle.js';
import { hashToken, newToken } from '../../shared/tokens.js';
import { revokeUserSessions } from '../sessions/index.js';
import { findUserByEmail, hashPassword, updateUser } from '../users/index.js';
import { endUserPendingLogins, insertResetToken, lockLiveResetToken, markResetTokenUsed, spendUserResetTokens } from './auth.repository.js';
import { accountKey } from './auth.service.js';

const RESET_TOKEN_MINUTES = 60;
const RESET_IP_RULE: ThrottleRule = {
  name: 'password-reset-ip',
  limit: 20,
  windowSeconds: 900,
  lockSeconds: 900,
  message: MSG.tooManyRequests,
};

export const PASSWORD_RESET_MAIL_JOB = 'password-reset-mail';
export type PasswordResetMailJob = { email: string };

/**
 * Answers the same, and does the same work, whether or not the address has an account: one lookup, one
 * audit entry and one durable job in one transaction. Whether a token is made and a mail sent is decided by
 * the job, after the answer, so neither the answer nor its timing tells which addresses exist.
 */
export async function requestPasswordReset(ctx: AppContext, email: string, meta: RequestMeta) {
  await consume(ctx.db, `reset:ip:${meta.ip}`, RESET_IP_RULE);
  const address = email.trim().toLowerCase();
  await ctx.db.transaction().execute(async (trx) => {
    const user = await findUserByEmail(trx, address);
    const found = !!user && user.isActive;
    await auditFor(found ? user : null, meta)(trx, 'PASSWORD_RESET_REQUESTED', found ? { table: 'users', id: user.id } : null, {
      email: address,
      accountFound: found,
    });
    await ctx.jobs.enqueue<PasswordResetMailJob>(trx, PASSWORD_RESET_MAIL_JOB, { email: address });
  });
  return { success: true, message: MSG.resetRequested };
}

/**
 * The job behind a reset request: for an active account, a new one-time link (earlier ones stop working)
 * and its mail; for any other address, nothing. Run again after a failed send, it makes a new link.
 */
async function sendPasswordResetMail(ctx: AppContext, job: PasswordResetMailJob): Promise<void> {
  const mail = await ctx.db.transaction().execute(async (trx) => {
    const user = await findUserByEmail(trx, job.email);
    if (!user || !user.isActive) return null;
    await spendUserResetTokens(trx, user.id);
    const token = newToken();
    await insertResetToken(trx, {
      tokenHash: hashToken(token),
      userId: user.id,
      expiresAt: new Date(Date.now() + RESET_TOKEN_MINUTES * 60_000),
    });
    const link = `${ctx.config.appUrl}/password-reset?token=${encodeURIComponent(token)}`;
    return { to: user.email, ...MAIL.passwordReset({ link, minutes: RESET_TOKEN_MINUTES }) };
  });
  if (mail) await ctx.mailer.send(mail);
}

export function definePasswordResetJobs(ctx: AppContext): void {
  ctx.jobs.define<PasswordResetMailJob>({
    name: PASSWORD_RESET_MAIL_JOB,
    handler: (data) => sendPasswordResetMail(ctx, data),
    pollingIntervalSeconds: 1,
    retryLimit: 5,
    retryDelaySeconds: 30,
  });
}

/** Sets the new password, spends the token, and ends every session and pending sign-in of the account. */
export async function resetPassword(ctx: AppContext, input: { token: string; newPassword: string }, meta: RequestMeta) {
  const passwordHash = await hashPassword(input.newPassword);
  await ctx.db.transaction().execute(async (trx) => {
    const row = await lockLiveResetToken(trx, hashToken(input.token));
    if (!row || !row.isActive) throw badRequest(MSG.resetTokenInvalid);
    await markResetTokenUsed(trx, row.tokenId);
    const user = await updateUser(trx, row.userId, { passwordHash });
    const ended = await revokeUserSessions(trx, user.id, 'password_reset');
    await endUserPendingLogins(trx, user.id);
    // The new password also lifts a lock that failed passwords put on the address.
    await clearThrottle(trx, accountKey(user.email));
    await auditFor(user, meta)(trx, 'PASSWORD_RESET_COMPLETED', { table: 'users', id: user.id }, { sessionsEnded: ended });
  });
  return { success: true, message: MSG.resetSuccess };
}
