import { MSG } from '@strongroom/contracts';
import { appendAudit } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { badRequest } from '../../shared/errors.js';
import { consume, type ThrottleRule } from '../../shared/throttle.js';
import { hashToken, newToken } from '../../shared/tokens.js';
import { revokeUserSessions } from '../sessions/sessions.service.js';
import { findUserByEmail, updateUser } from '../users/users.repository.js';
import { auditActor, hashPassword } from '../users/users.service.js';

export const RESET_TOKEN_MINUTES = 60;
const RESET_IP_RULE: ThrottleRule = { limit: 20, windowSeconds: 900, lockSeconds: 900, message: MSG.tooManyRequests };

/**
 * Answers the same whether or not the address exists; the mail goes out after the answer so that its
 * timing does not tell either.
 */
export async function requestPasswordReset(ctx: AppContext, email: string, meta: RequestMeta) {
  await consume(ctx.db, `reset:ip:${meta.ip}`, RESET_IP_RULE);
  const user = await findUserByEmail(ctx.db, email);
  const mail = await ctx.db.transaction().execute(async (trx) => {
    if (!user || !user.isActive) {
      await appendAudit(trx, { organizationId: null, actor: null, action: 'PASSWORD_RESET_REQUESTED', details: { email: email.toLowerCase(), accountFound: false }, ipAddress: meta.ip });
      return null;
    }
    await trx.updateTable('passwordResetTokens').set({ usedAt: new Date() }).where('userId', '=', user.id).where('usedAt', 'is', null).execute();
    const token = newToken();
    await trx
      .insertInto('passwordResetTokens')
      .values({ tokenHash: hashToken(token), userId: user.id, expiresAt: new Date(Date.now() + RESET_TOKEN_MINUTES * 60_000), usedAt: null })
      .execute();
    await appendAudit(trx, { organizationId: user.organizationId, actor: auditActor(user), action: 'PASSWORD_RESET_REQUESTED', targetTable: 'users', targetId: user.id, details: { accountFound: true }, ipAddress: meta.ip });
    const link = `${ctx.config.appUrl}/password-reset?token=${encodeURIComponent(token)}`;
    return {
      to: user.email,
      subject: 'Reset your Strongroom password',
      text: `Someone asked to reset the password of your Strongroom account.\n\nSet a new password here (the link works once, for ${RESET_TOKEN_MINUTES} minutes):\n${link}\n\nIf it was not you, ignore this message; your password stays as it is.\n`,
    };
  });
  if (mail) {
    ctx.mailer.send(mail).catch((err: Error) => ctx.log.error({ err: err.message }, 'sending the password reset mail failed'));
  }
  return { success: true, message: MSG.resetRequested };
}

/** Sets the new password, spends the token, and ends every session and pending sign-in of the account. */
export async function resetPassword(ctx: AppContext, input: { token: string; newPassword: string }, meta: RequestMeta) {
  const passwordHash = await hashPassword(input.newPassword);
  await ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('passwordResetTokens')
      .innerJoin('users', 'users.id', 'passwordResetTokens.userId')
      .select(['passwordResetTokens.id as tokenId', 'users.id as userId', 'users.isActive'])
      .where('passwordResetTokens.tokenHash', '=', hashToken(input.token))
      .where('passwordResetTokens.usedAt', 'is', null)
      .where('passwordResetTokens.expiresAt', '>', new Date())
      .forUpdate()
      .executeTakeFirst();
    if (!row || !row.isActive) throw badRequest(MSG.resetTokenInvalid);
    await trx.updateTable('passwordResetTokens').set({ usedAt: new Date() }).where('id', '=', row.tokenId).execute();
    const user = await updateUser(trx, row.userId, { passwordHash });
    const ended = await revokeUserSessions(trx, user.id, 'password_reset');
    await trx.updateTable('pendingLogins').set({ endedAt: new Date() }).where('userId', '=', user.id).where('endedAt', 'is', null).execute();
    await trx.deleteFrom('authThrottle').where('key', '=', `login:acct:${user.email.toLowerCase()}`).execute();
    await appendAudit(trx, { organizationId: user.organizationId, actor: auditActor(user), action: 'PASSWORD_RESET_COMPLETED', targetTable: 'users', targetId: user.id, details: { sessionsEnded: ended }, ipAddress: meta.ip });
  });
  return { success: true, message: MSG.resetSuccess };
}
