import type { InviteUserRequest } from '@strongroom/contracts';
import { DEFAULT_PERMISSIONS, MSG } from '@strongroom/contracts';
import { appendAudit } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { AppError, conflict, forbidden, notFound } from '../../shared/errors.js';
import { hashToken, newToken } from '../../shared/tokens.js';
import { isFlagEnabled } from '../feature-flags/feature-flags.service.js';
import { checkFreshMfa, InvalidMfaCode, recordMfaFailure } from '../mfa/mfa.service.js';
import type { AuthContext } from '../sessions/sessions.service.js';
import { findUserByEmail, insertUser } from '../users/users.repository.js';
import { auditActor, hashPassword } from '../users/users.service.js';

export const INVITATION_DAYS = 7;

/** Admins, and users holding canInviteUsers, invite; only admins may invite an admin. */
export async function inviteUser(ctx: AppContext, auth: AuthContext, input: InviteUserRequest, meta: RequestMeta) {
  const { user } = auth;
  if (user.role !== 'admin' && !user.permissions.canInviteUsers) throw forbidden();
  if (input.role === 'admin' && user.role !== 'admin') throw forbidden(MSG.inviteAdminOnly);
  const email = input.email.trim().toLowerCase();
  const needsMfa = await isFlagEnabled(ctx.db, user.organizationId, 'MFA_USER_MANAGEMENT');
  const token = newToken();
  let invitation;
  try {
    invitation = await ctx.db.transaction().execute(async (trx) => {
      if (needsMfa) await checkFreshMfa(ctx, trx, auth, 'MFA_USER_MANAGEMENT', input.mfaToken);
      const existing = await findUserByEmail(trx, email);
      if (existing && existing.organizationId === user.organizationId) throw conflict(MSG.inviteAlreadyMember);
      await trx
        .updateTable('invitations')
        .set({ revokedAt: new Date() })
        .where('organizationId', '=', user.organizationId)
        .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
        .where('acceptedAt', 'is', null)
        .where('revokedAt', 'is', null)
        .execute();
      const row = await trx
        .insertInto('invitations')
        .values({ organizationId: user.organizationId, email, role: input.role, tokenHash: hashToken(token), invitedBy: user.id, expiresAt: new Date(Date.now() + INVITATION_DAYS * 86_400_000), acceptedAt: null, revokedAt: null })
        .returning(['id', 'email', 'role', 'expiresAt'])
        .executeTakeFirstOrThrow();
      await appendAudit(trx, { organizationId: user.organizationId, actor: auditActor(user), action: 'INVITE_USER', targetTable: 'invitations', targetId: row.id, details: { email, role: input.role }, ipAddress: meta.ip });
      return row;
    });
  } catch (err) {
    if (err instanceof InvalidMfaCode) await recordMfaFailure(ctx, user, 'MFA_USER_MANAGEMENT', meta.ip);
    throw err;
  }
  const link = `${ctx.config.appUrl}/accept-invitation?token=${encodeURIComponent(token)}`;
  try {
    await ctx.mailer.send({
      to: email,
      subject: `${user.fullName} invited you to ${auth.org.name} on Strongroom`,
      text: `${user.fullName} (${user.email}) invited you to join ${auth.org.name} on Strongroom, its legal archive.\n\nCreate your account here (the link works once, for ${INVITATION_DAYS} days):\n${link}\n`,
    });
  } catch (err) {
    ctx.log.error({ err: (err as Error).message }, 'sending the invitation mail failed');
    throw new AppError(503, 'The invitation was saved but the email could not be sent. Please try again.');
  }
  return {
    success: true as const,
    message: MSG.inviteSent(email),
    invitation: { id: invitation.id, email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt.toISOString() },
  };
}

async function openInvitation(ctx: AppContext, token: string) {
  return ctx.db
    .selectFrom('invitations')
    .innerJoin('organizations', 'organizations.id', 'invitations.organizationId')
    .select(['invitations.id', 'invitations.email', 'invitations.role', 'invitations.organizationId', 'organizations.name as organizationName'])
    .where('invitations.tokenHash', '=', hashToken(token))
    .where('invitations.acceptedAt', 'is', null)
    .where('invitations.revokedAt', 'is', null)
    .where('invitations.expiresAt', '>', new Date())
    .executeTakeFirst();
}

export async function verifyInvitation(ctx: AppContext, token: string) {
  const inv = await openInvitation(ctx, token);
  if (!inv) throw notFound(MSG.invitationInvalid);
  return { organizationName: inv.organizationName, email: inv.email };
}

/** Creates the account with the role's default permissions; the token works once. */
export async function acceptInvitation(ctx: AppContext, input: { token: string; fullName: string; password: string }, meta: RequestMeta) {
  const passwordHash = await hashPassword(input.password);
  await ctx.db.transaction().execute(async (trx) => {
    const inv = await trx
      .selectFrom('invitations')
      .selectAll()
      .where('tokenHash', '=', hashToken(input.token))
      .where('acceptedAt', 'is', null)
      .where('revokedAt', 'is', null)
      .where('expiresAt', '>', new Date())
      .forUpdate()
      .executeTakeFirst();
    if (!inv) throw notFound(MSG.invitationInvalid);
    if (await findUserByEmail(trx, inv.email)) throw conflict(MSG.invitationAccountExists);
    const user = await insertUser(trx, { organizationId: inv.organizationId, email: inv.email, fullName: input.fullName.trim(), passwordHash, role: inv.role, permissions: DEFAULT_PERMISSIONS[inv.role] });
    await trx.updateTable('invitations').set({ acceptedAt: new Date() }).where('id', '=', inv.id).execute();
    await appendAudit(trx, { organizationId: inv.organizationId, actor: auditActor(user), action: 'ACCEPT_INVITATION', targetTable: 'invitations', targetId: inv.id, details: { userId: user.id, role: inv.role }, ipAddress: meta.ip });
  });
  return { success: true, message: MSG.invitationWelcome };
}
