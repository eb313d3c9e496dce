import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  documentSearchQuery,
  documentSearchResponse,
  reindexRequest,
  reindexResponse,
  searchSettingsResponse,
  updateSearchSettingsRequest,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import type { RouteAccess } from '../../shared/route-access.js';
import { tokenScoped } from '../../shared/route-access.js';
import { authOf } from '../sessions/index.js';
import { searchDocuments } from './document-search.service.js';
import { getSearchSettings, startReindex, updateSearchSettings } from './search-settings.service.js';

/** The organization's search languages and re-indexing: administrators only. */
const admins = { who: 'signed-in', allow: [{ rule: 'member' }, { rule: 'admin' }] } as const satisfies RouteAccess;

export function documentSearchRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // Everyone signed in: only the matters the caller may see are searched (a guest: the matters shared with them).
    const signedIn = { access: { who: 'signed-in' } } as const satisfies { access: RouteAccess };
    app.get(
      '/_api/search/documents',
      {
        schema: {
          operationId: 'searchDocuments',
          summary: 'Finds files by the words in their text and names across the matters the caller may see, best first, with snippets.',
          tags: ['search'],
          querystring: documentSearchQuery,
          response: { 200: documentSearchResponse },
        },
        config: tokenScoped(signedIn, 'matters:read'),
      },
      async (request) => searchDocuments(ctx, authOf(request), request.query, requestMeta(request)),
    );
    app.get(
      '/_api/settings/search',
      {
        schema: {
          operationId: 'getSearchSettings',
          summary: "Answers the organization's search and OCR languages, its files by text state and the latest re-index.",
          tags: ['settings'],
          response: { 200: searchSettingsResponse },
        },
        config: { access: admins },
      },
      async (request) => getSearchSettings(ctx, authOf(request)),
    );
    app.post(
      '/_api/settings/search',
      {
        schema: {
          operationId: 'updateSearchSettings',
          summary: "Changes the organization's search and OCR languages (documents already read keep theirs until re-indexed).",
          tags: ['settings'],
          body: updateSearchSettingsRequest,
          response: { 200: searchSettingsResponse },
        },
        config: { access: admins },
      },
      async (request) => updateSearchSettings(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/settings/search/reindex',
      {
        schema: {
          operationId: 'reindexDocuments',
          summary: "Reads the text of the organization's files again in the background, with progress.",
          tags: ['settings'],
          body: reindexRequest,
          response: { 200: reindexResponse },
        },
        config: { access: admins },
      },
      async (request) => startReindex(ctx, authOf(request), request.body, requestMeta(request)),
    );
  };
}
