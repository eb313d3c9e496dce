import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { setupRequest, setupResponse, setupStatusResponse } from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { needsSetup, runSetup } from './setup.service.js';

export function setupRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/_api/setup/status', { schema: { tags: ['setup'], response: { 200: setupStatusResponse } } }, async () => ({
      needsSetup: await needsSetup(ctx.db),
    }));
    app.post('/_api/setup', { schema: { tags: ['setup'], body: setupRequest, response: { 200: setupResponse } } }, async (request) => {
      const b = request.body;
      return runSetup(
        ctx,
        {
          setupToken: b.setupToken,
          name: b.organizationName,
          adminName: b.adminName,
          adminEmail: b.adminEmail,
          adminPassword: b.adminPassword,
        },
        requestMeta(request),
      );
    });
  };
}
