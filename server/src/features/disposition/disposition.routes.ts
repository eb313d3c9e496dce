import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DISPOSITION_MSG,
  dispositionDecideRequest,
  dispositionDecideResponse,
  dispositionListQuery,
  dispositionListResponse,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import type { RouteAccess } from '../../shared/route-access.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { decideDisposition, listDisposition } from './disposition.service.js';

/** Who may read the queue: administrators and holders of canViewVaulted. */
const REVIEWERS = {
  access: { who: 'signed-in', allow: [{ rule: 'member' }, { rule: 'reviewDisposition', deny: DISPOSITION_MSG.viewDenied }] },
} as const satisfies { access: RouteAccess };

/**
 * Who decides: administrators. Destroying always takes a fresh code (or a matters-class token); where the
 * organization's approval rules name DESTROY_AT_RETENTION_END, a destroy decision waits for a second administrator.
 */
export const DISPOSITION_DECIDE_ACCESS = {
  who: 'signed-in',
  allow: [{ rule: 'admin', deny: DISPOSITION_MSG.decideDenied }],
  stepUp: {
    operation: 'MFA_VAULT_OPERATIONS',
    accepts: 'code-or-token',
    when: ({ body }) => (body as { decision?: unknown }).decision === 'destroy',
  },
  governed: { action: 'DESTROY_AT_RETENTION_END', when: ({ body }) => (body as { decision?: unknown }).decision === 'destroy' },
} as const satisfies RouteAccess;

export function dispositionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['vault'];
    app.get(
      '/_api/disposition/list',
      {
        schema: {
          operationId: 'listDisposition',
          summary: 'Lists the disposition review: vaulted matters whose retention ends soon or has ended, and the decisions.',
          tags,
          querystring: dispositionListQuery,
          response: { 200: dispositionListResponse },
        },
        config: REVIEWERS,
      },
      async (request) => listDisposition(ctx, authOf(request), request.query),
    );
    app.post(
      '/_api/disposition/decide',
      {
        schema: {
          operationId: 'decideDisposition',
          summary: "Decides a vaulted matter's disposition: approve destruction, extend the retention, or place a legal hold.",
          tags,
          body: dispositionDecideRequest,
          response: { 200: dispositionDecideResponse },
        },
        config: { access: DISPOSITION_DECIDE_ACCESS },
      },
      async (request) => decideDisposition(ctx, authOf(request), request.body, requestMeta(request)),
    );
  };
}
