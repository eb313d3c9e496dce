import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createFolderRequest,
  deleteNodeRequest,
  deleteNodeResponse,
  downloadUrlQuery,
  downloadUrlResponse,
  moveNodeRequest,
  nodeChangeResponse,
  nodeResponse,
  renameNodeRequest,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf, requireSession } from '../sessions/sessions.service.js';
import { createFolder, deleteNode, downloadUrl, moveNode, renameNode } from './nodes.service.js';

export function nodesRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const preHandler = requireSession(ctx);
    const tags = ['nodes'];
    app.post('/_api/nodes/create', { schema: { tags, body: createFolderRequest, response: { 200: nodeResponse } }, preHandler }, async (request) =>
      createFolder(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post('/_api/nodes/rename', { schema: { tags, body: renameNodeRequest, response: { 200: nodeChangeResponse } }, preHandler }, async (request) =>
      renameNode(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post('/_api/nodes/move', { schema: { tags, body: moveNodeRequest, response: { 200: nodeChangeResponse } }, preHandler }, async (request) =>
      moveNode(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post('/_api/nodes/delete', { schema: { tags, body: deleteNodeRequest, response: { 200: deleteNodeResponse } }, preHandler }, async (request) =>
      deleteNode(ctx, authOf(request), request.body.nodeId, requestMeta(request)),
    );
    app.get('/_api/nodes/download-url', { schema: { tags, querystring: downloadUrlQuery, response: { 200: downloadUrlResponse } }, preHandler }, async (request) =>
      downloadUrl(ctx, authOf(request), request.query.nodeId, requestMeta(request)),
    );
  };
}
