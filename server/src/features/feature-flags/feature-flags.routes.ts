import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { featureFlagsResponse, updateFeatureFlagsRequest, updateFeatureFlagsResponse } from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { getFeatureFlags, updateFeatureFlags } from './feature-flags.service.js';

export function featureFlagsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/_api/settings/feature-flags',
      { schema: { tags: ['settings'], response: { 200: featureFlagsResponse } }, config: { auth: 'signed-in' } },
      async (request) => getFeatureFlags(ctx, authOf(request)),
    );
    app.post(
      '/_api/settings/feature-flags',
      {
        schema: { tags: ['settings'], body: updateFeatureFlagsRequest, response: { 200: updateFeatureFlagsResponse } },
        config: { auth: 'signed-in' },
      },
      async (request) => {
        // The system MFA token may come in the body or, as the system MFA prompt sends it, in the X-MFA-Token header.
        const header = request.headers['x-mfa-token'];
        const body = { ...request.body, mfaToken: request.body.mfaToken ?? (typeof header === 'string' ? header : undefined) };
        return updateFeatureFlags(ctx, authOf(request), body, requestMeta(request));
      },
    );
  };
}
