import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
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
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { resendInvitation, revokeInvitationById } from '../invitations/invitations.service.js';
import { authOf } from '../sessions/index.js';
import {
  changeGuestAccess,
  changeRole,
  deactivateUser,
  listGuestAccess,
  listTeam,
  manageUser,
  reactivateUser,
  resetUserMfa,
  updatePermissions,
} from './team.service.js';

/** The second factor may come in the body or, as the client's retry sends it, in the X-MFA-Token header. */
function withHeaderToken<B extends { mfaToken?: string }>(request: FastifyRequest, body: B): B {
  const header = request.headers['x-mfa-token'];
  return { ...body, mfaToken: body.mfaToken ?? (typeof header === 'string' ? header : undefined) };
}

const signedIn = { auth: 'signed-in' as const };

export function teamRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/_api/settings/users',
      { schema: { tags: ['team'], response: { 200: teamListResponse } }, config: signedIn },
      async (request) => listTeam(ctx, authOf(request)),
    );

    app.post(
      '/_api/settings/users/manage',
      { schema: { tags: ['team'], body: manageUserRequest, response: { 200: userChangeResponse } }, config: signedIn },
      async (request) => manageUser(ctx, authOf(request), withHeaderToken(request, request.body), requestMeta(request)),
    );

    app.post(
      '/_api/settings/users/permissions',
      { schema: { tags: ['team'], body: updatePermissionsRequest, response: { 200: userChangeResponse } }, config: signedIn },
      async (request) => updatePermissions(ctx, authOf(request), withHeaderToken(request, request.body), requestMeta(request)),
    );

    app.post(
      '/_api/settings/users/role',
      { schema: { tags: ['team'], body: changeRoleRequest, response: { 200: userChangeResponse } }, config: signedIn },
      async (request) => changeRole(ctx, authOf(request), withHeaderToken(request, request.body), requestMeta(request)),
    );

    app.post(
      '/_api/settings/users/deactivate',
      { schema: { tags: ['team'], body: userStatusRequest, response: { 200: userChangeResponse } }, config: signedIn },
      async (request) => deactivateUser(ctx, authOf(request), withHeaderToken(request, request.body), requestMeta(request)),
    );

    app.post(
      '/_api/settings/users/reactivate',
      { schema: { tags: ['team'], body: userStatusRequest, response: { 200: userChangeResponse } }, config: signedIn },
      async (request) => reactivateUser(ctx, authOf(request), withHeaderToken(request, request.body), requestMeta(request)),
    );

    app.post(
      '/_api/settings/users/reset-mfa',
      { schema: { tags: ['team'], body: resetMfaRequest, response: { 200: resetMfaResponse } }, config: signedIn },
      async (request) => resetUserMfa(ctx, authOf(request), request.body, requestMeta(request)),
    );

    app.post(
      '/_api/settings/users/invitations/resend',
      { schema: { tags: ['team'], body: invitationActionRequest, response: { 200: invitationActionResponse } }, config: signedIn },
      async (request) => resendInvitation(ctx, authOf(request), withHeaderToken(request, request.body), requestMeta(request)),
    );

    app.post(
      '/_api/settings/users/invitations/revoke',
      { schema: { tags: ['team'], body: invitationActionRequest, response: { 200: invitationActionResponse } }, config: signedIn },
      async (request) => revokeInvitationById(ctx, authOf(request), request.body, requestMeta(request)),
    );

    app.get(
      '/_api/settings/guest-access',
      { schema: { tags: ['team'], querystring: guestGrantsQuery, response: { 200: guestGrantsResponse } }, config: signedIn },
      async (request) => listGuestAccess(ctx, authOf(request), request.query.userId),
    );

    app.post(
      '/_api/settings/guest-access/grant',
      { schema: { tags: ['team'], body: guestGrantRequest, response: { 200: guestGrantResponse } }, config: signedIn },
      async (request) => changeGuestAccess(ctx, authOf(request), withHeaderToken(request, request.body), true, requestMeta(request)),
    );

    app.post(
      '/_api/settings/guest-access/revoke',
      { schema: { tags: ['team'], body: guestGrantRequest, response: { 200: guestGrantResponse } }, config: signedIn },
      async (request) => changeGuestAccess(ctx, authOf(request), request.body, false, requestMeta(request)),
    );
  };
}
