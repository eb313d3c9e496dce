/**
 * Team administration: the users of an organization, their roles, status and permissions, the reset of a
 * user's authenticator, and the matters shared with guests.
 *
 * Rules every change shares:
 * - only active admins and users holding canManageUsers manage users (guests never); a manager who is not an
 *   admin neither changes an admin nor makes someone one;
 * - the organization keeps at least one active admin holding canManageUsers: the change that would end that
 *   is refused with LAST_ADMIN_ERROR. Every change locks the organization's row first, so two admins demoting
 *   each other at the same moment run one after the other and the second is refused;
 * - a change names the version it was made against; another version answers CONFLICT_ERROR with who changed
 *   the user and when;
 * - every rule is checked before a second factor is asked for (MFA_USER_MANAGEMENT), so a code is never spent
 *   on a change that was going to be refused, and checked again under the locks;
 * - each administrator's user-management calls are rate-limited;
 * - one transaction per change with its audit entry (with the reason given) and its undo entry.
 *
 * Member changes are in team-members.service.ts, guest access in team-guests.service.ts.
 */
import type { ManagedUser, ResetMfaRequest, ResetMfaResponse, TeamListResponse } from '@strongroom/contracts';
import { TEAM_LIMITS, TEAM_MSG, may } from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { badRequest, notFound } from '../../shared/errors.js';
import { consume, type ThrottleRule } from '../../shared/throttle.js';
import { invitableRoles, listPendingInvitations } from '../invitations/index.js';
import { clearRecoveryCodes } from '../mfa/index.js';
import { removeUserPasskeys } from '../passkeys/index.js';
import type { AuthContext } from '../sessions/index.js';
import { clearMemberAuthenticator, lockMember, lockOrganization } from '../users/index.js';
import { findMember, listMembers, type MemberRow } from './team.repository.js';

export type Actor = AuthContext['user'];

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toManagedUser(m: MemberRow): ManagedUser {
  return {
    id: m.publicId,
    organizationId: m.organizationId,
    fullName: m.fullName,
    email: m.email,
    role: m.role,
    status: m.isActive ? 'active' : 'deactivated',
    permissions: m.permissions,
    mfaEnabled: m.mfaEnabled,
    mfaMethod: m.mfaEnabled ? (m.mfaPrimaryMethod ?? null) : null,
    version: m.version,
    updatedAt: m.updatedAt.toISOString(),
    updatedBy: m.updatedByName ? { name: m.updatedByName } : null,
    lastSignInAt: iso(m.lastSignInAt),
    guestMatterCount: m.guestMatterCount,
  };
}

/** The route lets only managers in; a change re-reads the actor under lock, and a manager demoted since is refused. */
export function mayManage(user: Pick<Actor, 'role' | 'permissions' | 'isActive'>): boolean {
  return may(user, 'manageUsers');
}

// ---- The list -----------------------------------------------------------------------------------

/**
 * GET /_api/settings/users: every user of the organization and the open invitations. Managers see it to
 * manage; people who may only invite see it read-only (canManage false), so they can tell who is a member.
 */
export async function listTeam(ctx: AppContext, auth: AuthContext): Promise<TeamListResponse> {
  const { user } = auth;
  const canManage = mayManage(user);
  const roles = invitableRoles(user);
  const [members, invitations] = await Promise.all([
    listMembers(ctx.db, user.organizationId),
    listPendingInvitations(ctx.db, user.organizationId),
  ]);
  return { users: members.map(toManagedUser), invitations, canManage, canInvite: roles.length > 0, invitableRoles: roles };
}

// ---- The rate limit of every change -------------------------------------------------------------

const RATE_RULE: ThrottleRule = {
  name: 'team-admin',
  limit: TEAM_LIMITS.rateLimitMax,
  windowSeconds: TEAM_LIMITS.rateLimitWindowSeconds,
  lockSeconds: TEAM_LIMITS.rateLimitWindowSeconds,
  message: TEAM_MSG.tooManyRequests,
};

/** Counts one user-management call of this person; past the limit in the window, 429 with Retry-After. */
export async function throttle(ctx: AppContext, user: Actor): Promise<void> {
  await consume(ctx.db, `team-admin:${user.id}`, RATE_RULE);
}

// ---- MFA reset --------------------------------------------------------------------------------------

/**
 * POST /_api/settings/users/reset-mfa: an admin removes an active user's authenticator (a lost phone); the
 * user signs in with emailed codes until they set up a new one. Always behind a fresh code of the admin.
 */
export async function resetUserMfa(
  ctx: AppContext,
  auth: AuthContext,
  input: ResetMfaRequest,
  meta: RequestMeta,
): Promise<ResetMfaResponse> {
  const { user } = auth;
  await throttle(ctx, user);
  const seen = await findMember(ctx.db, user.organizationId, input.userId);
  if (!seen) throw notFound(TEAM_MSG.userNotFound);
  if (!seen.isActive || !seen.mfaEnabled) throw badRequest(TEAM_MSG.resetMfaNotPossible);
  await auth.stepUp.run(async (trx) => {
    await lockOrganization(trx, user.organizationId);
    const target = await lockMember(trx, user.organizationId, input.userId);
    if (!target) throw notFound(TEAM_MSG.userNotFound);
    if (!target.isActive || !target.mfaEnabled) throw badRequest(TEAM_MSG.resetMfaNotPossible);
    await clearMemberAuthenticator(trx, user.organizationId, target.id, user.id);
    // Recovery codes stand in for the authenticator: they go with it.
    await clearRecoveryCodes(trx, target.id);
    // So do the person's passkeys: the lost device may hold one.
    const passkeysRemoved = await removeUserPasskeys(trx, user.organizationId, target.id);
    await auditFor(user, meta)(
      trx,
      'MFA_RESET',
      { table: 'users', id: target.publicId },
      {
        userId: target.publicId,
        email: target.email,
        reason: input.reason,
        previousMethod: target.mfaPrimaryMethod,
        method: 'email',
        passkeysRemoved,
      },
    );
  });
  const now = await findMember(ctx.db, user.organizationId, input.userId);
  if (!now) throw notFound(TEAM_MSG.userNotFound);
  return { success: true, message: TEAM_MSG.mfaReset(now.fullName), user: toManagedUser(now) };
}
