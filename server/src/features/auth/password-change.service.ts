import { MSG } from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { badRequest } from '../../shared/errors.js';
import { confirmFailure, releaseAttempt, reserveAttempt, type ThrottleRule } from '../../shared/throttle.js';
import { revokeUserSessions, type AuthContext } from '../sessions/index.js';
import { hashPassword, updateUser, verifyPassword } from '../users/index.js';
import { endUserPendingLogins, spendUserResetTokens } from './auth.repository.js';

const WRONG_CURRENT_RULE: ThrottleRule = {
  name: 'password-change',
  limit: 5,
  windowSeconds: 900,
  lockSeconds: 900,
  message: MSG.tooManyAttempts,
};

/** Changes the signed-in user's password and ends every other session of the account. */
export async function changePassword(
  ctx: AppContext,
  auth: AuthContext,
  input: { currentPassword: string; newPassword: string },
  meta: RequestMeta,
) {
  const key = `pwchange:${auth.user.id}`;
  // The check is counted before the current password is verified, so concurrent guesses share the limit.
  await reserveAttempt(ctx.db, key, WRONG_CURRENT_RULE);
  if (!(await verifyPassword(auth.user.passwordHash, input.currentPassword))) {
    await confirmFailure(ctx.db, key, WRONG_CURRENT_RULE);
    throw badRequest(MSG.currentPasswordWrong);
  }
  await releaseAttempt(ctx.db, key);
  const passwordHash = await hashPassword(input.newPassword);
  await ctx.db.transaction().execute(async (trx) => {
    await updateUser(trx, auth.user.id, { passwordHash });
    const ended = await revokeUserSessions(trx, auth.user.id, 'password_change', auth.session.id);
    await endUserPendingLogins(trx, auth.user.id);
    await spendUserResetTokens(trx, auth.user.id);
    await auditFor(auth.user, meta)(trx, 'USER_PASSWORD_CHANGE', { table: 'users', id: auth.user.id }, { otherSessionsEnded: ended });
  });
  return { success: true, message: MSG.passwordChanged };
}
