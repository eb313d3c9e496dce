import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  apiTokensResponse,
  createApiTokenRequest,
  createApiTokenResponse,
  revokeApiTokenRequest,
  revokeApiTokenResponse,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { createToken, listTokens, revokeToken } from './api-tokens.service.js';

/** A person's API tokens: members and guests alike manage their own; administrators see and revoke everyone's. */
export function apiTokensRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['api-tokens'];
    app.get(
      '/_api/settings/api-tokens',
      {
        schema: {
          operationId: 'listApiTokens',
          summary: "Lists one's API tokens (an administrator: every token of the organization).",
          tags,
          response: { 200: apiTokensResponse },
        },
        config: { access: { who: 'signed-in' } },
      },
      async (request) => listTokens(ctx, authOf(request)),
    );
    app.post(
      '/_api/settings/api-tokens',
      {
        schema: {
          operationId: 'createApiToken',
          summary: 'Creates an API token with scopes and an expiry; the token is answered this once.',
          tags,
          body: createApiTokenRequest,
          response: { 200: createApiTokenResponse },
        },
        // A token is a credential: it is made only behind a fresh code of the person's own second factor.
        config: { access: { who: 'signed-in', stepUp: { operation: 'CREATE_API_TOKEN', accepts: 'code' } } },
      },
      async (request) => createToken(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/settings/api-tokens/revoke',
      {
        schema: {
          operationId: 'revokeApiToken',
          summary: 'Revokes an API token at once (one’s own; an administrator: any of the organization’s).',
          tags,
          body: revokeApiTokenRequest,
          response: { 200: revokeApiTokenResponse },
        },
        config: { access: { who: 'signed-in' } },
      },
      async (request) => revokeToken(ctx, authOf(request), request.body, requestMeta(request)),
    );
  };
}
