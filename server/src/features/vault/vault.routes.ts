import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { VAULT_MSG, vaultDetailQuery, vaultStartRequest, vaultStartResponse } from '@strongroom/contracts';
import type { RouteAccess } from '../../shared/route-access.js';
import { VAULT_VIEWERS } from './vault-queries.routes.js';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { getVaultCertificate, startVault } from './vault.service.js';

/** Vaulting a matter and its signed certificate. */
export function vaultRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    /** Administrators and holders of canVault vault a matter, always behind a fresh code (or a matters-class token). */
    const vaulters = {
      access: {
        who: 'signed-in',
        allow: [{ rule: 'member' }, { rule: 'vault', deny: VAULT_MSG.vaultPermissionDenied }],
        stepUp: { operation: 'VAULT_MATTER', accepts: 'code-or-token' },
        governed: { action: 'VAULT_MATTER' },
      },
    } as const satisfies { access: RouteAccess };
    const tags = ['vault'];
    app.post(
      '/_api/vault/start',
      {
        schema: {
          operationId: 'startVault',
          summary: 'Vaults a matter: copies its files to write-once storage and signs a certificate.',
          tags,
          body: vaultStartRequest,
          response: { 200: vaultStartResponse },
        },
        config: vaulters,
      },
      async (request) => startVault(ctx, authOf(request), request.body, requestMeta(request)),
    );
    // The signed JSON exactly as stored in the vault: any byte changed breaks its verification.
    app.get(
      '/_api/vault/certificate',
      {
        schema: {
          operationId: 'getVaultCertificate',
          summary: "Downloads a vaulted matter's signed certificate exactly as stored.",
          tags,
          querystring: vaultDetailQuery,
          produces: ['application/json'],
        },
        config: VAULT_VIEWERS,
      },
      async (request, reply) => {
        const { body, fileName } = await getVaultCertificate(ctx, authOf(request), request.query);
        return reply.type('application/json; charset=utf-8').header('content-disposition', `attachment; filename="${fileName}"`).send(body);
      },
    );
  };
}
