import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  binListQuery,
  binListResponse,
  nodeResponse,
  nodeVersionsQuery,
  nodeVersionsResponse,
  restoreBinRequest,
  restoreVersionRequest,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { tokenScoped } from '../../shared/route-access.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { listBin, restoreFromBin } from './bin.service.js';
import { listNodeVersions, restoreVersion } from './node-versions.service.js';

/**
 * What a matter's files were: the recycle bin of deleted items and the versions of each file. Each call is decided
 * against its matter and the person's permission by the service, so the route asks only for a session.
 */
export function nodeHistoryRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { access: { who: 'signed-in' } } as const;
    const tags = ['nodes'];
    // The bin is listed for whoever may see the matter's files; a restore needs canDelete and a writable matter,
    // decided by the service against the entry's matter, as a delete is.
    app.get(
      '/_api/nodes/bin',
      {
        schema: {
          operationId: 'listBin',
          summary: "Answers a matter's recycle bin, newest first.",
          tags,
          querystring: binListQuery,
          response: { 200: binListResponse },
        },
        config,
      },
      async (request) => listBin(ctx, authOf(request), request.query.matterId),
    );
    app.post(
      '/_api/nodes/bin/restore',
      {
        schema: {
          operationId: 'restoreFromBin',
          summary: 'Puts an item of the recycle bin back into its folder (or the matter root when that folder is gone).',
          tags,
          body: restoreBinRequest,
          response: { 200: nodeResponse },
        },
        config,
      },
      async (request) => restoreFromBin(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.get(
      '/_api/nodes/versions',
      {
        schema: {
          operationId: 'listNodeVersions',
          summary: "Lists a file's versions, newest first.",
          tags,
          querystring: nodeVersionsQuery,
          response: { 200: nodeVersionsResponse },
        },
        config: tokenScoped(config, 'files:read'),
      },
      async (request) => listNodeVersions(ctx, authOf(request), request.query.nodeId),
    );
    app.post(
      '/_api/nodes/restore-version',
      {
        schema: {
          operationId: 'restoreNodeVersion',
          summary: 'Makes an earlier version of a file current again, as a new version (nothing is overwritten).',
          tags,
          body: restoreVersionRequest,
          response: { 200: nodeResponse },
        },
        config,
      },
      async (request) => restoreVersion(ctx, authOf(request), request.body, requestMeta(request)),
    );
  };
}
