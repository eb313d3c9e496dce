import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  clientSuggestionsResponse,
  createMatterRequest,
  lawyerSuggestionsResponse,
  matterListQuery,
  matterChangeResponse,
  matterListResponse,
  matterResponse,
  nextMatterNumberResponse,
  suggestionQuery,
  updateMatterRequest,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { clientSuggestions, createMatter, lawyerSuggestions, listMatters, nextMatterNumber, updateMatter } from './matters.service.js';

export function mattersRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'signed-in' } as const;
    const tags = ['matters'];
    app.get(
      '/_api/matters/list',
      { schema: { tags, querystring: matterListQuery, response: { 200: matterListResponse } }, config },
      async (request) => listMatters(ctx, authOf(request), request.query),
    );
    app.get('/_api/matters/next-number', { schema: { tags, response: { 200: nextMatterNumberResponse } }, config }, async (request) =>
      nextMatterNumber(ctx, authOf(request)),
    );
    app.post(
      '/_api/matters/create',
      { schema: { tags, body: createMatterRequest, response: { 200: matterResponse } }, config },
      async (request) => createMatter(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/matters/update',
      { schema: { tags, body: updateMatterRequest, response: { 200: matterChangeResponse } }, config },
      async (request) => updateMatter(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.get(
      '/_api/matters/clients/suggestions',
      { schema: { tags, querystring: suggestionQuery, response: { 200: clientSuggestionsResponse } }, config },
      async (request) => clientSuggestions(ctx, authOf(request), request.query),
    );
    app.get(
      '/_api/matters/lawyers/suggestions',
      { schema: { tags, querystring: suggestionQuery, response: { 200: lawyerSuggestionsResponse } }, config },
      async (request) => lawyerSuggestions(ctx, authOf(request), request.query),
    );
  };
}
