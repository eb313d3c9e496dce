import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createFolderRequest,
  deleteNodeRequest,
  deleteNodeResponse,
  downloadUrlQuery,
  downloadUrlResponse,
  matterDetailQuery,
  matterDetailResponse,
  moveNodeRequest,
  nodeChangeResponse,
  nodeResponse,
  renameNodeRequest,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { createFolder, deleteNode, downloadUrl, getMatterDetail, moveNode, renameNode } from './nodes.service.js';

export function nodesRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'signed-in' } as const;
    const tags = ['nodes'];
    // A matter's page: the matter and its tree of folders and files, so it is answered where the tree is built.
    app.get(
      '/_api/matters/detail',
      { schema: { tags: ['matters'], querystring: matterDetailQuery, response: { 200: matterDetailResponse } }, config },
      async (request) => getMatterDetail(ctx, authOf(request), request.query.matterId),
    );
    app.post(
      '/_api/nodes/create',
      { schema: { tags, body: createFolderRequest, response: { 200: nodeResponse } }, config },
      async (request) => createFolder(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/nodes/rename',
      { schema: { tags, body: renameNodeRequest, response: { 200: nodeChangeResponse } }, config },
      async (request) => renameNode(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/nodes/move',
      { schema: { tags, body: moveNodeRequest, response: { 200: nodeChangeResponse } }, config },
      async (request) => moveNode(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/nodes/delete',
      { schema: { tags, body: deleteNodeRequest, response: { 200: deleteNodeResponse } }, config },
      async (request) => deleteNode(ctx, authOf(request), request.body.nodeId, requestMeta(request)),
    );
    app.get(
      '/_api/nodes/download-url',
      { schema: { tags, querystring: downloadUrlQuery, response: { 200: downloadUrlResponse } }, config },
      async (request) => downloadUrl(ctx, authOf(request), request.query.nodeId, requestMeta(request)),
    );
  };
}
