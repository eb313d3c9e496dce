import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { setupRequest, setupResponse, setupStatusResponse } from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { needsSetup, runSetup } from './setup.service.js';

/** First run: nobody can be signed in yet; creating the organization is authorized by the setup token. */
const FIRST_RUN = { who: 'public', why: 'first run: no account exists yet; the setup token authorizes it' } as const;

export function setupRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/_api/setup/status',
      {
        schema: {
          operationId: 'getSetupStatus',
          summary: 'Tells whether this installation still awaits its first organization and administrator.',
          tags: ['setup'],
          response: { 200: setupStatusResponse },
        },
        config: { access: FIRST_RUN },
      },
      async () => ({
        needsSetup: await needsSetup(ctx.db),
      }),
    );
    app.post(
      '/_api/setup',
      {
        schema: {
          operationId: 'runFirstSetup',
          summary: 'Creates the first organization and its administrator on a fresh installation.',
          tags: ['setup'],
          body: setupRequest,
          response: { 200: setupResponse },
        },
        config: { access: FIRST_RUN },
      },
      async (request) => {
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
      },
    );
  };
}
