import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { legalHoldRequest, legalHoldResponse, VAULT_MSG } from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { changeLegalHold } from './legal-hold.service.js';

export function legalHoldRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/_api/matters/legal-hold',
      {
        schema: {
          operationId: 'setLegalHold',
          summary: 'Places a matter under legal hold or lifts it; nothing of a held matter is deleted.',
          tags: ['matters'],
          body: legalHoldRequest,
          response: { 200: legalHoldResponse },
        },
        config: {
          access: {
            who: 'signed-in',
            allow: [{ rule: 'admin', deny: VAULT_MSG.holdPermissionDenied }],
            stepUp: { operation: 'MFA_VAULT_OPERATIONS', flag: 'MFA_VAULT_OPERATIONS', accepts: 'code-or-token' },
            governed: { action: 'REMOVE_LEGAL_HOLD', when: ({ body }) => (body as { action?: string }).action === 'remove' },
          },
        },
      },
      async (request) => changeLegalHold(ctx, authOf(request), request.body, requestMeta(request)),
    );
  };
}
