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
import { acceptInvitation, inviteUser, PEOPLE_STEP_UP, verifyInvitation } from './invitations.service.js';

export function invitationsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/_api/settings/users/invite',
      {
        schema: {
          operationId: 'inviteUser',
          summary: 'Invites someone to the organization by email, with a role and permissions.',
          tags: ['settings'],
          body: inviteUserRequest,
          response: { 200: inviteUserResponse },
        },
        config: { access: { who: 'signed-in', allow: 'invite', stepUp: PEOPLE_STEP_UP } },
      },
      async (request) => inviteUser(ctx, authOf(request), request.body, requestMeta(request)),
    );

    app.post(
      '/_api/auth/invitation-verify',
      {
        schema: {
          operationId: 'verifyInvitation',
          summary: "Checks an invitation link's token and tells whom it invites and to which organization.",
          tags: ['auth'],
          body: invitationVerifyRequest,
          response: { 200: invitationVerifyResponse },
        },
        config: { access: { who: 'public', why: 'the invitation link: authorized by its one-time token' } },
      },
      async (request) => verifyInvitation(ctx, request.body.token),
    );

    app.post(
      '/_api/auth/invitation-accept',
      {
        schema: {
          operationId: 'acceptInvitation',
          summary: "Accepts an invitation: creates the user's account with a password.",
          tags: ['auth'],
          body: invitationAcceptRequest,
          response: { 200: messageResponse },
        },
        config: { access: { who: 'public', why: 'the invitation link: authorized by its one-time token' } },
      },
      async (request) => acceptInvitation(ctx, request.body, requestMeta(request)),
    );
  };
}
