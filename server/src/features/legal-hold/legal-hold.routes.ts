import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { legalHoldRequest, legalHoldResponse } from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { changeLegalHold } from './legal-hold.service.js';

export function legalHoldRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/_api/matters/legal-hold',
      { schema: { tags: ['matters'], body: legalHoldRequest, response: { 200: legalHoldResponse } }, config: { auth: 'signed-in' } },
      async (request) => changeLegalHold(ctx, authOf(request), request.body, requestMeta(request)),
    );
  };
}
