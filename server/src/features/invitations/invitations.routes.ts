import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  invitationAcceptRequest,
  invitationVerifyRequest,
  invitationVerifyResponse,
  inviteUserRequest,
  inviteUserResponse,
  messageResponse,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { acceptInvitation, inviteUser, verifyInvitation } from './invitations.service.js';

export function invitationsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/_api/settings/users/invite',
      { schema: { tags: ['settings'], body: inviteUserRequest, response: { 200: inviteUserResponse } }, config: { auth: 'signed-in' } },
      async (request) => {
        // The second factor may come in the body or, as the client's retry sends it, in the X-MFA-Token header.
        const headerToken = request.headers['x-mfa-token'];
        const body = { ...request.body, mfaToken: request.body.mfaToken ?? (typeof headerToken === 'string' ? headerToken : undefined) };
        return inviteUser(ctx, authOf(request), body, requestMeta(request));
      },
    );

    app.post(
      '/_api/auth/invitation-verify',
      { schema: { tags: ['auth'], body: invitationVerifyRequest, response: { 200: invitationVerifyResponse } } },
      async (request) => verifyInvitation(ctx, request.body.token),
    );

    app.post(
      '/_api/auth/invitation-accept',
      { schema: { tags: ['auth'], body: invitationAcceptRequest, response: { 200: messageResponse } } },
      async (request) => acceptInvitation(ctx, request.body, requestMeta(request)),
    );
  };
}
