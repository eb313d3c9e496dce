import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { mfaManageRequest, mfaManageResponse, verifySystemMfaRequest, verifySystemMfaResponse } from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { manageMfa, verifySystemMfa } from './mfa-manage.service.js';

export function mfaRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/_api/settings/mfa-manage',
      { schema: { tags: ['settings'], body: mfaManageRequest, response: { 200: mfaManageResponse } }, config: { auth: 'setup-wall-ok' } },
      async (request) => manageMfa(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/auth/verifySystemMfa',
      {
        schema: { tags: ['auth'], body: verifySystemMfaRequest, response: { 200: verifySystemMfaResponse } },
        config: { auth: 'signed-in' },
      },
      async (request) => verifySystemMfa(ctx, authOf(request), request.body, requestMeta(request)),
    );
  };
}
