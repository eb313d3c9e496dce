import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changePasswordRequest, inviteUserRequest, inviteUserResponse, messageResponse, mfaManageRequest, mfaManageResponse } from '@strongroom/contracts';
import { changePassword } from '../auth/password-change.service.js';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { inviteUser } from '../invitations/invitations.service.js';
import { authOf, requireSession } from '../sessions/sessions.service.js';
import { manageMfa } from './mfa-manage.service.js';

export function settingsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/_api/settings/mfa-manage',
      { schema: { tags: ['settings'], body: mfaManageRequest, response: { 200: mfaManageResponse } }, preHandler: requireSession(ctx, { allowMfaSetup: true }) },
      async (request) => manageMfa(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/settings/password',
      { schema: { tags: ['settings'], body: changePasswordRequest, response: { 200: messageResponse } }, preHandler: requireSession(ctx) },
      async (request) => changePassword(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/settings/users/invite',
      { schema: { tags: ['settings'], body: inviteUserRequest, response: { 200: inviteUserResponse } }, preHandler: requireSession(ctx) },
      async (request) => {
        const headerToken = request.headers['x-mfa-token'];
        const body = { ...request.body, mfaToken: request.body.mfaToken ?? (typeof headerToken === 'string' ? headerToken : undefined) };
        return inviteUser(ctx, authOf(request), body, requestMeta(request));
      },
    );
  };
}
