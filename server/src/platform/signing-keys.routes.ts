import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SIGNING_KEYS_PATH, signingKeysResponse } from '@strongroom/contracts';
import { publishedSigningKeys, type SigningKeysContext } from './signing-keys.js';

/**
 * GET /.well-known/strongroom-signing-keys: the installation's public signing keys, for anyone checking a
 * certificate or an audit export (no sign-in). Only store-confirmed keys are listed. Public and cacheable for a
 * few minutes; any site may read it.
 */
export function signingKeysRoutes(ctx: SigningKeysContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      SIGNING_KEYS_PATH,
      {
        schema: {
          tags: ['signing-keys'],
          summary: 'The public keys this installation signs certificates and audit chain heads with',
          response: { 200: signingKeysResponse },
        },
      },
      async (_request, reply) => {
        const keys = await publishedSigningKeys(ctx);
        reply.header('cache-control', 'public, max-age=300');
        reply.header('access-control-allow-origin', '*');
        return { keys };
      },
    );
  };
}
