import type { InvitationActionRequest, InvitationActionResponse, InviteUserRequest, PendingInvitation, Role } from '@strongroom/contracts';
import { DEFAULT_PERMISSIONS, MAIL, MSG, TEAM_MSG, invitableRoles } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import type { StepUpDeclaration } from '../../shared/route-access.js';
import { conflict, forbidden, notFound, serviceUnavailable } from '../../shared/errors.js';
import { hashToken, newToken } from '../../shared/tokens.js';
import type { AuthContext } from '../sessions/index.js';
import { findUserByEmail, hashPassword, insertUser } from '../users/index.js';
import {
  findOpenInvitation,
  findPendingInvitationByEmail,
  insertInvitation,
  listOpenInvitations,
  lockInvitationAddress,
  lockInvitationById,
  lockOpenInvitation,
  markInvitationAccepted,
  renewInvitation,
  revokeInvitation,
  revokeOpenInvitations,
} from './invitations.repository.js';

const INVITATION_DAYS = 7;

type Inviter = Pick<AuthContext['user'], 'role' | 'permissions'>;

/** The roles a person may invite: the contract's rule, the same one the web's Invite User buttons follow. */
export { invitableRoles };

/** Managing people asks for a fresh code (or a token of the people class) while MFA_USER_MANAGEMENT is on. */
export const PEOPLE_STEP_UP = {
  operation: 'MFA_USER_MANAGEMENT',
  flag: 'MFA_USER_MANAGEMENT',
  accepts: 'code-or-token',
} as const satisfies StepUpDeclaration;

/**
 * Refuses an invitation of `role` by someone who may not send it (the route already let through only people who
 * may invite someone).
 */
function requireMayInvite(user: Inviter, role: Role): void {
  const roles = invitableRoles(user);
  if (role === 'admin' && user.role !== 'admin') throw forbidden(MSG.inviteAdminOnly);
  if (!roles.includes(role)) throw forbidden(TEAM_MSG.inviteGuestsOnly);
}

/**
 * Admins invite anyone; users holding canManageUsers invite users and guests; users holding only
 * canInviteUsers invite guests. Only admins may invite an admin. An address with a pending invitation is
 * refused (409 ALREADY_INVITED): the first link stays valid, and the Team list resends or revokes it.
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
  requireMayInvite(user, input.role);
  const email = input.email.trim().toLowerCase();
  const assertInvitable = async (db: Executor) => {
    const existing = await findUserByEmail(db, email);
    if (existing && existing.organizationId === user.organizationId) throw conflict(MSG.inviteAlreadyMember, { reason: 'ALREADY_MEMBER' });
    if (await findPendingInvitationByEmail(db, user.organizationId, email)) {
      throw conflict(TEAM_MSG.alreadyInvited, { reason: 'ALREADY_INVITED', field: 'email' });
    }
    return existing;
  };
  await assertInvitable(ctx.db);
  const token = newToken();
  const save = async (trx: Executor) => {
    await lockInvitationAddress(trx, user.organizationId, email);
    const existing = await assertInvitable(trx);
    // Only expired invitations of the address are left open here: they are replaced.
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
  const { row: invitation, hasAccount } = await auth.stepUp.run(save);
  await sendInvitationMail(ctx, auth, email, token, hasAccount);
  return {
    success: true as const,
    message: MSG.inviteSent(email),
    invitation: { id: invitation.id, email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt.toISOString() },
  };
}

async function sendInvitationMail(ctx: AppContext, auth: AuthContext, email: string, token: string, hasAccount: boolean) {
  const { user } = auth;
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
}

/** The open invitations of the organization, for the Team list. */
export async function listPendingInvitations(db: Executor, organizationId: string): Promise<PendingInvitation[]> {
  const rows = await listOpenInvitations(db, organizationId);
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    role: r.role,
    invitedBy: r.invitedByName ? { name: r.invitedByName } : null,
    createdAt: r.createdAt.toISOString(),
    expiresAt: r.expiresAt.toISOString(),
  }));
}

/**
 * Sends an open invitation again with a new link (the old link stops working) and a fresh expiry. The same
 * people who may send an invitation of its role may resend it, behind the same second factor.
 */
export async function resendInvitation(
  ctx: AppContext,
  auth: AuthContext,
  input: InvitationActionRequest,
  meta: RequestMeta,
): Promise<InvitationActionResponse> {
  const { user } = auth;
  const found = await lockInvitationById(ctx.db, user.organizationId, input.invitationId);
  if (!found) throw notFound(TEAM_MSG.invitationNotFound);
  requireMayInvite(user, found.role);
  const token = newToken();
  const save = async (trx: Executor) => {
    const inv = await lockInvitationById(trx, user.organizationId, input.invitationId);
    if (!inv) throw notFound(TEAM_MSG.invitationNotFound);
    const existing = await findUserByEmail(trx, inv.email);
    if (existing && existing.organizationId === user.organizationId) throw conflict(MSG.inviteAlreadyMember, { reason: 'ALREADY_MEMBER' });
    const row = await renewInvitation(
      trx,
      inv,
      hashToken(existing ? newToken() : token),
      new Date(Date.now() + INVITATION_DAYS * 86_400_000),
    );
    await auditFor(user, meta)(trx, 'INVITATION_RESENT', { table: 'invitations', id: inv.id }, { email: inv.email, role: inv.role });
    return { row, hasAccount: !!existing };
  };
  const { row, hasAccount } = await auth.stepUp.run(save);
  await sendInvitationMail(ctx, auth, row.email, token, hasAccount);
  const [pending] = (await listPendingInvitations(ctx.db, user.organizationId)).filter((p) => p.id === row.id);
  return { success: true, message: TEAM_MSG.invitationResent(row.email), ...(pending ? { invitation: pending } : {}) };
}

/** Revokes an open invitation: its link stops working. Whoever may send an invitation of its role may revoke it. */
export async function revokeInvitationById(
  ctx: AppContext,
  auth: AuthContext,
  input: InvitationActionRequest,
  meta: RequestMeta,
): Promise<InvitationActionResponse> {
  const { user } = auth;
  await ctx.db.transaction().execute(async (trx) => {
    const inv = await lockInvitationById(trx, user.organizationId, input.invitationId);
    if (!inv) throw notFound(TEAM_MSG.invitationNotFound);
    requireMayInvite(user, inv.role);
    await revokeInvitation(trx, inv);
    await auditFor(user, meta)(trx, 'INVITATION_REVOKED', { table: 'invitations', id: inv.id }, { email: inv.email, role: inv.role });
  });
  return { success: true, message: TEAM_MSG.invitationRevoked };
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
    await markInvitationAccepted(trx, inv);
    await auditFor(user, meta)(trx, 'ACCEPT_INVITATION', { table: 'invitations', id: inv.id }, { userId: user.id, role: inv.role });
  });
  return { success: true, message: MSG.invitationWelcome };
}
