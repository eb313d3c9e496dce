/**
 * The matters shared with guests: the list of a guest's grants, sharing a matter (behind the people step-up)
 * and unsharing it, each audited.
 */
import type { GuestGrant, GuestGrantRequest, GuestGrantResponse } from '@strongroom/contracts';
import { TEAM_MSG } from '@strongroom/contracts';
import type { Executor } from '../../platform/db/database.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { badRequest, notFound } from '../../shared/errors.js';
import { getVisibleMatter } from '../matters/index.js';
import type { AuthContext } from '../sessions/index.js';
import { lockMember } from '../users/index.js';
import { deleteGuestGrant, findMember, listGuestGrants, upsertGuestGrant, type GuestGrantRow } from './team.repository.js';
import { throttle } from './team.service.js';

function toGuestGrant(r: GuestGrantRow): GuestGrant {
  return {
    userId: r.userPublicId,
    matterId: r.matterId,
    matterName: r.matterName,
    matterNumber: r.matterNumber,
    grantedBy: r.grantedByName ? { name: r.grantedByName } : null,
    grantedAt: r.grantedAt.toISOString(),
    access: r.access,
  };
}

async function findGuest(db: Executor, organizationId: string, publicId: string) {
  const guest = await findMember(db, organizationId, publicId);
  if (!guest) throw notFound(TEAM_MSG.userNotFound);
  return guest;
}

/** GET /_api/settings/guest-access?userId= */
export async function listGuestAccess(ctx: AppContext, auth: AuthContext, userId: string): Promise<{ grants: GuestGrant[] }> {
  const guest = await findGuest(ctx.db, auth.user.organizationId, userId);
  return { grants: (await listGuestGrants(ctx.db, auth.user.organizationId, guest.id)).map(toGuestGrant) };
}

/** POST /_api/settings/guest-access/grant and /revoke */
export async function changeGuestAccess(
  ctx: AppContext,
  auth: AuthContext,
  input: GuestGrantRequest,
  grant: boolean,
  meta: RequestMeta,
): Promise<GuestGrantResponse> {
  const { user } = auth;
  await throttle(ctx, user);
  const guest = await findGuest(ctx.db, user.organizationId, input.userId);
  if (guest.role !== 'guest') throw badRequest(TEAM_MSG.guestOnly, { field: 'userId' });
  await getVisibleMatter(ctx.db, user, input.matterId);
  const run = async (trx: Executor) => {
    const matter = await getVisibleMatter(trx, user, input.matterId);
    const target = await lockMember(trx, user.organizationId, input.userId);
    if (!target) throw notFound(TEAM_MSG.userNotFound);
    if (target.role !== 'guest') throw badRequest(TEAM_MSG.guestOnly, { field: 'userId' });
    const details = { userId: target.publicId, email: target.email, matterId: matter.id, matterName: matter.matterName };
    if (grant) {
      const access = input.access ?? 'download';
      const done = await upsertGuestGrant(trx, {
        organizationId: user.organizationId,
        matterId: matter.id,
        userId: target.id,
        grantedBy: user.id,
        access,
      });
      // Sharing a matter already shared with the same access changes nothing and records nothing.
      if (done.outcome === 'unchanged') return 'unchanged';
      await auditFor(user, meta)(
        trx,
        'GUEST_ACCESS_GRANTED',
        { table: 'matters', id: matter.id },
        {
          ...details,
          access,
          ...(done.outcome === 'changed' ? { previousAccess: done.previous } : {}),
        },
      );
      return done.outcome;
    }
    if (!(await deleteGuestGrant(trx, user.organizationId, matter.id, target.id))) throw notFound(TEAM_MSG.guestGrantNotFound);
    await auditFor(user, meta)(trx, 'GUEST_ACCESS_REVOKED', { table: 'matters', id: matter.id }, details);
    return 'revoked';
  };
  // Sharing opens a matter to someone outside the firm: the grant route's step-up (MFA_USER_MANAGEMENT); the
  // revoke route declares none.
  const outcome = await auth.stepUp.run(run);
  const grants = (await listGuestGrants(ctx.db, user.organizationId, guest.id)).map(toGuestGrant);
  const message = !grant ? TEAM_MSG.guestRevoked : outcome === 'changed' ? TEAM_MSG.guestAccessChanged : TEAM_MSG.guestGranted;
  return { success: true, message, grants };
}
