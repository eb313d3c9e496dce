import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { vaultDetailQuery, vaultStartRequest, vaultStartResponse } from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { getVaultCertificate, startVault } from './vault.service.js';

/** Vaulting a matter and its signed certificate. */
export function vaultRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'signed-in' } as const;
    const tags = ['vault'];
    app.post(
      '/_api/vault/start',
      { schema: { tags, body: vaultStartRequest, response: { 200: vaultStartResponse } }, config },
      async (request) => startVault(ctx, authOf(request), request.body, requestMeta(request)),
    );
    // The signed JSON exactly as stored in the vault: any byte changed breaks its verification.
    app.get(
      '/_api/vault/certificate',
      { schema: { tags, querystring: vaultDetailQuery, produces: ['application/json'] }, config },
      async (request, reply) => {
        const { body, fileName } = await getVaultCertificate(ctx, authOf(request), request.query);
        return reply.type('application/json; charset=utf-8').header('content-disposition', `attachment; filename="${fileName}"`).send(body);
      },
    );
  };
}
