import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  clientSuggestionsResponse,
  createMatterRequest,
  lawyerSuggestionsResponse,
  matterDetailQuery,
  matterDetailResponse,
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
import { authOf, requireSession } from '../sessions/sessions.service.js';
import { clientSuggestions, createMatter, getMatterDetail, lawyerSuggestions, listMatters, nextMatterNumber, updateMatter } from './matters.service.js';

export function mattersRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const preHandler = requireSession(ctx);
    const tags = ['matters'];
    app.get('/_api/matters/list', { schema: { tags, querystring: matterListQuery, response: { 200: matterListResponse } }, preHandler }, async (request) =>
      listMatters(ctx, authOf(request), request.query),
    );
    app.get('/_api/matters/next-number', { schema: { tags, response: { 200: nextMatterNumberResponse } }, preHandler }, async (request) =>
      nextMatterNumber(ctx, authOf(request)),
    );
    app.post('/_api/matters/create', { schema: { tags, body: createMatterRequest, response: { 200: matterResponse } }, preHandler }, async (request) =>
      createMatter(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post('/_api/matters/update', { schema: { tags, body: updateMatterRequest, response: { 200: matterChangeResponse } }, preHandler }, async (request) =>
      updateMatter(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.get('/_api/matters/detail', { schema: { tags, querystring: matterDetailQuery, response: { 200: matterDetailResponse } }, preHandler }, async (request) =>
      getMatterDetail(ctx, authOf(request), request.query.matterId),
    );
    app.get(
      '/_api/matters/clients/suggestions',
      { schema: { tags, querystring: suggestionQuery, response: { 200: clientSuggestionsResponse } }, preHandler },
      async (request) => clientSuggestions(ctx, authOf(request), request.query),
    );
    app.get(
      '/_api/matters/lawyers/suggestions',
      { schema: { tags, querystring: suggestionQuery, response: { 200: lawyerSuggestionsResponse } }, preHandler },
      async (request) => lawyerSuggestions(ctx, authOf(request), request.query),
    );
  };
}
