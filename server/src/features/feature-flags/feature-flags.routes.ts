import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { featureFlagsResponse, SETTINGS_MSG, updateFeatureFlagsRequest, updateFeatureFlagsResponse } from '@strongroom/contracts';
import type { RouteAccess } from '../../shared/route-access.js';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { getFeatureFlags, updateFeatureFlags } from './feature-flags.service.js';

/** The Security tab's flags are for administrators only. */
const admins = [{ rule: 'admin', deny: SETTINGS_MSG.adminsOnly }] as const;

export function featureFlagsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/_api/settings/feature-flags',
      {
        schema: {
          operationId: 'listFeatureFlags',
          summary: "Lists the organization's feature flags and whether each is on.",
          tags: ['settings'],
          response: { 200: featureFlagsResponse },
        },
        config: { access: { who: 'signed-in', allow: admins } },
      },
      async (request) => getFeatureFlags(ctx, authOf(request)),
    );
    app.post(
      '/_api/settings/feature-flags',
      {
        schema: {
          operationId: 'setFeatureFlag',
          summary: "Turns one of the organization's feature flags on or off.",
          tags: ['settings'],
          body: updateFeatureFlagsRequest,
          response: { 200: updateFeatureFlagsResponse },
        },
        config: {
          access: {
            who: 'signed-in',
            allow: admins,
            organizationField: { name: 'organizationId', deny: SETTINGS_MSG.organizationMismatch },
            // Whatever the flags say: a fresh code or a live system token of the organization class.
            stepUp: { operation: 'MANAGE_FEATURE_FLAGS', accepts: 'code-or-token' },
            // Turning a multi-factor safeguard off can need a second approver.
            governed: {
              action: 'DISABLE_MFA_FLAG',
              when: ({ body }) =>
                (body as { flagsToUpdate: { flagName: string; enabled: boolean }[] }).flagsToUpdate.some(
                  (f) => f.flagName.startsWith('MFA_') && !f.enabled,
                ),
            },
          } satisfies RouteAccess,
        },
      },
      async (request) => updateFeatureFlags(authOf(request), request.body, requestMeta(request)),
    );
  };
}
