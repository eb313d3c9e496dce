import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changeRoleRequest,
  guestGrantRequest,
  guestGrantResponse,
  guestGrantsQuery,
  guestGrantsResponse,
  invitationActionRequest,
  invitationActionResponse,
  manageUserRequest,
  resetMfaRequest,
  resetMfaResponse,
  teamListResponse,
  updatePermissionsRequest,
  userChangeResponse,
  userStatusRequest,
  TEAM_MSG,
} from '@strongroom/contracts';

type Config = { access: RouteAccess };
import type { AppContext } from '../../shared/context.js';
import type { RouteAccess } from '../../shared/route-access.js';
import { requestMeta } from '../../shared/request-meta.js';
import { PEOPLE_STEP_UP, resendInvitation, revokeInvitationById } from '../invitations/index.js';
import { authOf } from '../sessions/index.js';
import { changeGuestAccess, listGuestAccess } from './team-guests.service.js';
import { changeRole, deactivateUser, manageUser, reactivateUser, updatePermissions } from './team-members.service.js';
import { listTeam, resetUserMfa } from './team.service.js';

const noPermission = TEAM_MSG.noPermission;
/** Managers see the list to manage; people who may only invite see it read-only. */
const seeTeam = { access: { who: 'signed-in', allow: [{ rule: 'seeTeam', deny: noPermission }] } } as const satisfies Config;
/** Changing someone's role, permissions or status: managers, behind the people step-up while the flag is on. */
const manage = {
  access: { who: 'signed-in', allow: [{ rule: 'manageUsers', deny: noPermission }], stepUp: PEOPLE_STEP_UP },
} as const satisfies Config;
type Body = { body: unknown };
const grants = {
  action: 'GRANT_ADMIN_ACCESS',
  when: ({ body }: Body) => {
    const b = body as {
      newRole?: string;
      permissions?: { canManageUsers?: boolean };
      changes?: { role?: string; permissions?: { canManageUsers?: boolean } };
    };
    return (
      b.newRole === 'admin' ||
      b.permissions?.canManageUsers === true ||
      b.changes?.role === 'admin' ||
      b.changes?.permissions?.canManageUsers === true
    );
  },
} as const;
const deactivates = {
  action: 'DEACTIVATE_ADMIN',
  when: ({ body }: Body) => (body as { changes?: { isActive?: boolean } }).changes?.isActive !== true,
} as const;
/** Giving someone the administrator role or user management, and deactivating an administrator, can need a second approver. */
const grantGoverned = { access: { ...manage.access, governed: grants } } as const satisfies Config;
const manageGoverned = { access: { ...manage.access, governed: [grants, deactivates] } } as const satisfies Config;
const deactivateGoverned = { access: { ...manage.access, governed: { action: 'DEACTIVATE_ADMIN' } } } as const satisfies Config;
/** Resending an invitation: the people who may send one of its role, behind the same step-up. */
const resend = { access: { who: 'signed-in', allow: 'invite', stepUp: PEOPLE_STEP_UP } } as const satisfies Config;
const revoke = { access: { who: 'signed-in', allow: 'invite' } } as const satisfies Config;
/** Removing an authenticator: administrators who manage users, always behind a fresh code or a people token. */
const resetMfa = {
  access: {
    who: 'signed-in',
    allow: [
      { rule: 'manageUsers', deny: noPermission },
      { rule: 'resetMfa', deny: TEAM_MSG.resetMfaAdminOnly },
    ],
    stepUp: { operation: 'MFA_USER_MANAGEMENT', accepts: 'code-or-token' },
  },
} as const satisfies Config;
/** Sharing matters with guests: administrators who manage users; sharing (not unsharing) takes the step-up. */
const guestAdmins = [{ rule: 'shareWithGuests', deny: noPermission }] as const;
const listGrants = { access: { who: 'signed-in', allow: guestAdmins } } as const satisfies Config;
const grantAccess = {
  access: { who: 'signed-in', allow: guestAdmins, stepUp: PEOPLE_STEP_UP },
} as const satisfies Config;
const revokeAccess = { access: { who: 'signed-in', allow: guestAdmins } } as const satisfies Config;

type App = Parameters<FastifyPluginAsyncZod>[0];

export function teamRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    memberRoutes(app, ctx);
    invitationAndGuestRoutes(app, ctx);
  };
}

/** The team list, the changes of a member and the reset of a member's second factor. */
function memberRoutes(app: App, ctx: AppContext): void {
  app.get(
    '/_api/settings/users',
    {
      schema: {
        operationId: 'listTeam',
        summary: "Lists the organization's users and open invitations.",
        tags: ['team'],
        response: { 200: teamListResponse },
      },
      config: seeTeam,
    },
    async (request) => listTeam(ctx, authOf(request)),
  );

  app.post(
    '/_api/settings/users/manage',
    {
      schema: {
        operationId: 'manageUser',
        summary: "Changes a user's name, role or permissions in one request.",
        tags: ['team'],
        body: manageUserRequest,
        response: { 200: userChangeResponse },
      },
      config: manageGoverned,
    },
    async (request) => manageUser(ctx, authOf(request), request.body, requestMeta(request)),
  );

  app.post(
    '/_api/settings/users/permissions',
    {
      schema: {
        operationId: 'updateUserPermissions',
        summary: "Changes a user's permissions.",
        tags: ['team'],
        body: updatePermissionsRequest,
        response: { 200: userChangeResponse },
      },
      config: grantGoverned,
    },
    async (request) => updatePermissions(ctx, authOf(request), request.body, requestMeta(request)),
  );

  app.post(
    '/_api/settings/users/role',
    {
      schema: {
        operationId: 'changeUserRole',
        summary: "Changes a user's role; the permissions go back to the role's defaults.",
        tags: ['team'],
        body: changeRoleRequest,
        response: { 200: userChangeResponse },
      },
      config: grantGoverned,
    },
    async (request) => changeRole(ctx, authOf(request), request.body, requestMeta(request)),
  );

  app.post(
    '/_api/settings/users/deactivate',
    {
      schema: {
        operationId: 'deactivateUser',
        summary: 'Deactivates a user: their sessions end and they can no longer sign in.',
        tags: ['team'],
        body: userStatusRequest,
        response: { 200: userChangeResponse },
      },
      config: deactivateGoverned,
    },
    async (request) => deactivateUser(ctx, authOf(request), request.body, requestMeta(request)),
  );

  app.post(
    '/_api/settings/users/reactivate',
    {
      schema: {
        operationId: 'reactivateUser',
        summary: 'Reactivates a deactivated user.',
        tags: ['team'],
        body: userStatusRequest,
        response: { 200: userChangeResponse },
      },
      config: manage,
    },
    async (request) => reactivateUser(ctx, authOf(request), request.body, requestMeta(request)),
  );

  app.post(
    '/_api/settings/users/reset-mfa',
    {
      schema: {
        operationId: 'resetUserMfa',
        summary: "Resets a user's second factor, so they set it up again at their next sign-in.",
        tags: ['team'],
        body: resetMfaRequest,
        response: { 200: resetMfaResponse },
      },
      config: resetMfa,
    },
    async (request) => resetUserMfa(ctx, authOf(request), request.body, requestMeta(request)),
  );
}

/** Resending and revoking open invitations, and the matters shared with guests. */
function invitationAndGuestRoutes(app: App, ctx: AppContext): void {
  app.post(
    '/_api/settings/users/invitations/resend',
    {
      schema: {
        operationId: 'resendInvitation',
        summary: 'Sends an open invitation again with a new link.',
        tags: ['team'],
        body: invitationActionRequest,
        response: { 200: invitationActionResponse },
      },
      config: resend,
    },
    async (request) => resendInvitation(ctx, authOf(request), request.body, requestMeta(request)),
  );

  app.post(
    '/_api/settings/users/invitations/revoke',
    {
      schema: {
        operationId: 'revokeInvitation',
        summary: 'Revokes an open invitation; its link stops working.',
        tags: ['team'],
        body: invitationActionRequest,
        response: { 200: invitationActionResponse },
      },
      config: revoke,
    },
    async (request) => revokeInvitationById(ctx, authOf(request), request.body, requestMeta(request)),
  );

  app.get(
    '/_api/settings/guest-access',
    {
      schema: {
        operationId: 'listGuestAccess',
        summary: 'Lists the matters shared with a guest.',
        tags: ['team'],
        querystring: guestGrantsQuery,
        response: { 200: guestGrantsResponse },
      },
      config: listGrants,
    },
    async (request) => listGuestAccess(ctx, authOf(request), request.query.userId),
  );

  app.post(
    '/_api/settings/guest-access/grant',
    {
      schema: {
        operationId: 'grantGuestAccess',
        summary: 'Shares a matter with a guest.',
        tags: ['team'],
        body: guestGrantRequest,
        response: { 200: guestGrantResponse },
      },
      config: grantAccess,
    },
    async (request) => changeGuestAccess(ctx, authOf(request), request.body, true, requestMeta(request)),
  );

  app.post(
    '/_api/settings/guest-access/revoke',
    {
      schema: {
        operationId: 'revokeGuestAccess',
        summary: 'Stops sharing a matter with a guest.',
        tags: ['team'],
        body: guestGrantRequest,
        response: { 200: guestGrantResponse },
      },
      config: revokeAccess,
    },
    async (request) => changeGuestAccess(ctx, authOf(request), request.body, false, requestMeta(request)),
  );
}
