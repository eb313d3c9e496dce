import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse, SIGNING_KEYS_PATH, signingKeysResponse } from '@strongroom/contracts';
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
          operationId: 'listSigningKeys',
          tags: ['signing-keys'],
          summary: 'The public keys this installation signs certificates and audit chain heads with',
          response: { 200: signingKeysResponse, 503: errorResponse },
        },
        config: {
          access: { who: 'public', why: 'the published public signing keys that anyone checking a certificate or an audit export trusts' },
        },
      },
      async (request, reply) => {
        let keys;
        try {
          keys = await publishedSigningKeys(ctx);
        } catch (err) {
          // The keys are confirmed against the write-once store; while it cannot be read, nothing is published.
          request.log.error({ err }, 'the published signing keys could not be read');
          return reply
            .code(503)
            .header('retry-after', '30')
            .send({ error: 'The signing keys cannot be read right now. Please try again shortly.', code: 'SERVICE_UNAVAILABLE' });
        }
        reply.header('cache-control', 'public, max-age=300');
        reply.header('access-control-allow-origin', '*');
        return { keys };
      },
    );
  };
}
