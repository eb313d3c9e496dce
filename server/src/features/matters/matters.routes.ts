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
import type { RouteAccess } from '../../shared/route-access.js';
import { tokenScoped } from '../../shared/route-access.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { clientSuggestions, createMatter, lawyerSuggestions, listMatters, nextMatterNumber, updateMatter } from './matters.service.js';

export function mattersRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // Reading: everyone signed in (a guest's lists hold only the matters shared with them). Changing a matter's
    // details is decided per matter (read-only matters, the editor rule); creating one takes canUpload.
    const config = { access: { who: 'signed-in' } } as const satisfies { access: RouteAccess };
    const creators = { access: { who: 'signed-in', allow: [{ rule: 'member' }, { rule: 'createMatters' }] } } as const satisfies {
      access: RouteAccess;
    };
    const tags = ['matters'];
    app.get(
      '/_api/matters/list',
      {
        schema: {
          operationId: 'listMatters',
          summary: 'Lists the matters the caller may see, filtered, sorted and paged.',
          tags,
          querystring: matterListQuery,
          response: { 200: matterListResponse },
        },
        config: tokenScoped(config, 'matters:read'),
      },
      async (request) => listMatters(ctx, authOf(request), request.query),
    );
    app.get(
      '/_api/matters/next-number',
      {
        schema: {
          operationId: 'getNextMatterNumber',
          summary: 'Proposes the next free matter number of the organization.',
          tags,
          response: { 200: nextMatterNumberResponse },
        },
        config: creators,
      },
      async (request) => nextMatterNumber(ctx, authOf(request)),
    );
    app.post(
      '/_api/matters/create',
      {
        schema: {
          operationId: 'createMatter',
          summary: 'Opens a new matter with its client, number and details.',
          tags,
          body: createMatterRequest,
          response: { 200: matterResponse },
        },
        config: creators,
      },
      async (request) => createMatter(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/matters/update',
      {
        schema: {
          operationId: 'updateMatter',
          summary: "Changes a matter's details; the change can be undone.",
          tags,
          body: updateMatterRequest,
          response: { 200: matterChangeResponse },
        },
        config,
      },
      async (request) => updateMatter(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.get(
      '/_api/matters/clients/suggestions',
      {
        schema: {
          operationId: 'suggestClients',
          summary: "Suggests client names from the organization's matters as the user types.",
          tags,
          querystring: suggestionQuery,
          response: { 200: clientSuggestionsResponse },
        },
        config: tokenScoped(config, 'matters:read'),
      },
      async (request) => clientSuggestions(ctx, authOf(request), request.query),
    );
    app.get(
      '/_api/matters/lawyers/suggestions',
      {
        schema: {
          operationId: 'suggestLawyers',
          summary: "Suggests responsible lawyers from the organization's matters as the user types.",
          tags,
          querystring: suggestionQuery,
          response: { 200: lawyerSuggestionsResponse },
        },
        config: tokenScoped(config, 'matters:read'),
      },
      async (request) => lawyerSuggestions(ctx, authOf(request), request.query),
    );
  };
}
