import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { searchQuery, searchResponse } from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import type { RouteAccess } from '../../shared/route-access.js';
import { tokenScoped } from '../../shared/route-access.js';
import { authOf } from '../sessions/index.js';
import { documentSearchRoutes } from './document-search.routes.js';
import { search } from './search.service.js';

export function searchRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // Everyone signed in: the answer holds only what the caller may see (a guest: the matters shared with them).
    const config = { access: { who: 'signed-in' } } as const satisfies { access: RouteAccess };
    app.get(
      '/_api/search',
      {
        schema: {
          operationId: 'search',
          summary: 'Finds matters, folders and files by name across the matters the caller may see, grouped by matter.',
          tags: ['search'],
          querystring: searchQuery,
          response: { 200: searchResponse },
        },
        config: tokenScoped(config, 'matters:read'),
      },
      async (request) => search(ctx, authOf(request), request.query),
    );
    await app.register(documentSearchRoutes(ctx));
  };
}
