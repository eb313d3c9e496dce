import type { InviteUserRequest } from '@strongroom/contracts';
import { DEFAULT_PERMISSIONS, MAIL, MSG } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { conflict, forbidden, notFound, serviceUnavailable } from '../../shared/errors.js';
import { hashToken, newToken } from '../../shared/tokens.js';
import { isFlagEnabled } from '../feature-flags/feature-flags.service.js';
import { withFreshMfa } from '../mfa/index.js';
import type { AuthContext } from '../sessions/sessions.service.js';
import { findUserByEmail, hashPassword, insertUser } from '../users/users.service.js';
import {
  findOpenInvitation,
  insertInvitation,
  lockOpenInvitation,
  markInvitationAccepted,
  revokeOpenInvitations,
} from './invitations.repository.js';

const INVITATION_DAYS = 7;

/**
 * Admins, and users holding canInviteUsers, invite; only admins may invite an admin.
 *
 * Every rule of the request is checked before the second factor is asked for, so a code is never spent on
 * a request that was going to fail. An address that already has an account in another organization is
 * answered exactly like a new one (the same status, body and one mail sent), so no admin can learn which
 * addresses hold accounts elsewhere: its owner is told by mail instead, and the invitation row kept for the
 * answer carries a token nobody ever receives. An address that is already a member of this organization
 * is still refused as such.
 */
export async function inviteUser(ctx: AppContext, auth: AuthContext, input: InviteUserRequest, meta: RequestMeta) {
  const { user } = auth;
  if (user.role !== 'admin' && !user.permissions.canInviteUsers) throw forbidden();
  if (input.role === 'admin' && user.role !== 'admin') throw forbidden(MSG.inviteAdminOnly);
  const email = input.email.trim().toLowerCase();
  const assertNotMember = async (db: Executor) => {
    const existing = await findUserByEmail(db, email);
    if (existing && existing.organizationId === user.organizationId) throw conflict(MSG.inviteAlreadyMember, { reason: 'ALREADY_MEMBER' });
    return existing;
  };
  await assertNotMember(ctx.db);
  const needsMfa = await isFlagEnabled(ctx.db, user.organizationId, 'MFA_USER_MANAGEMENT');
  const token = newToken();
  const save = async (trx: Executor) => {
    const existing = await assertNotMember(trx);
    await revokeOpenInvitations(trx, user.organizationId, email);
    const row = await insertInvitation(trx, {
      organizationId: user.organizationId,
      email,
      role: input.role,
      // For an address with an account elsewhere the stored hash is of a token that is never sent.
      tokenHash: hashToken(existing ? newToken() : token),
      invitedBy: user.id,
      expiresAt: new Date(Date.now() + INVITATION_DAYS * 86_400_000),
    });
    await auditFor(user, meta)(trx, 'INVITE_USER', { table: 'invitations', id: row.id }, { email, role: input.role });
    return { row, hasAccount: !!existing };
  };
  const { row: invitation, hasAccount } = needsMfa
    ? await withFreshMfa(ctx, auth, 'MFA_USER_MANAGEMENT', input.mfaToken, meta.ip, (trx) => save(trx))
    : await ctx.db.transaction().execute(save);
  const link = `${ctx.config.appUrl}/accept-invitation?token=${encodeURIComponent(token)}`;
  const inviter = { inviterName: user.fullName, inviterEmail: user.email, organization: auth.org.name };
  try {
    await ctx.mailer.send({
      to: email,
      ...(hasAccount ? MAIL.invitationRefused(inviter) : MAIL.invitation({ ...inviter, link, days: INVITATION_DAYS })),
    });
  } catch (err) {
    ctx.log.error({ err: (err as Error).message }, 'sending the invitation mail failed');
    throw serviceUnavailable(MSG.invitationMailFailed);
  }
  return {
    success: true as const,
    message: MSG.inviteSent(email),
    invitation: { id: invitation.id, email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt.toISOString() },
  };
}

export async function verifyInvitation(ctx: AppContext, token: string) {
  const inv = await findOpenInvitation(ctx.db, hashToken(token));
  if (!inv) throw notFound(MSG.invitationInvalid);
  return { organizationName: inv.organizationName, email: inv.email };
}

/** Creates the account with the role's default permissions; the token works once. */
export async function acceptInvitation(ctx: AppContext, input: { token: string; fullName: string; password: string }, meta: RequestMeta) {
  const passwordHash = await hashPassword(input.password);
  await ctx.db.transaction().execute(async (trx) => {
    const inv = await lockOpenInvitation(trx, hashToken(input.token));
    if (!inv) throw notFound(MSG.invitationInvalid);
    if (await findUserByEmail(trx, inv.email)) throw conflict(MSG.invitationAccountExists, { reason: 'ACCOUNT_EXISTS' });
    const user = await insertUser(trx, {
      organizationId: inv.organizationId,
      email: inv.email,
      fullName: input.fullName.trim(),
      passwordHash,
      role: inv.role,
      permissions: DEFAULT_PERMISSIONS[inv.role],
    });
    await markInvitationAccepted(trx, inv.id);
    await auditFor(user, meta)(trx, 'ACCEPT_INVITATION', { table: 'invitations', id: inv.id }, { userId: user.id, role: inv.role });
  });
  return { success: true, message: MSG.invitationWelcome };
}
