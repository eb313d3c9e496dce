import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DASHBOARD_MSG,
  dashboardActivityResponse,
  dashboardStorageResponse,
  dashboardUsersResponse,
  dashboardVaultStatusResponse,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { authOf } from '../sessions/index.js';
import { dashboardActivity, dashboardStorage, dashboardUsers, dashboardVaultStatus } from './dashboard.service.js';

/** The dashboard's widgets, one read-only call each; the recent matters come from GET /_api/matters/list. */
export function dashboardRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['dashboard'];
    app.get(
      '/_api/dashboard/activity',
      {
        schema: {
          operationId: 'getDashboardActivity',
          summary: 'Answers the newest audit entries the signed-in person may see (up to 5).',
          tags,
          response: { 200: dashboardActivityResponse },
        },
        config: { access: { who: 'signed-in' } },
      },
      async (request) => dashboardActivity(ctx, authOf(request)),
    );
    app.get(
      '/_api/dashboard/vault-status',
      {
        schema: {
          operationId: 'getDashboardVaultStatus',
          summary: 'Counts vaulted matters, legal holds and retention ending within 90 days, with those matters listed.',
          tags,
          response: { 200: dashboardVaultStatusResponse },
        },
        config: {
          access: {
            who: 'signed-in',
            allow: [
              { rule: 'member', deny: DASHBOARD_MSG.guestsNoVault },
              { rule: 'viewVaulted', deny: DASHBOARD_MSG.vaultStatusDenied },
            ],
          },
        },
      },
      async (request) => dashboardVaultStatus(ctx, authOf(request)),
    );
    app.get(
      '/_api/dashboard/users',
      {
        schema: {
          operationId: 'getDashboardUsers',
          summary: "Counts the organization's active users and open invitations.",
          tags,
          response: { 200: dashboardUsersResponse },
        },
        config: { access: { who: 'signed-in', allow: [{ rule: 'seeTeam', deny: DASHBOARD_MSG.usersDenied }] } },
      },
      async (request) => dashboardUsers(ctx, authOf(request)),
    );
    app.get(
      '/_api/dashboard/storage',
      {
        schema: {
          operationId: 'getDashboardStorage',
          summary: "Sums the organization's stored file bytes, active and vaulted, against its quota.",
          tags,
          response: { 200: dashboardStorageResponse },
        },
        config: { access: { who: 'signed-in', allow: [{ rule: 'admin', deny: DASHBOARD_MSG.storageDenied }] } },
      },
      async (request) => dashboardStorage(ctx, authOf(request)),
    );
  };
}
