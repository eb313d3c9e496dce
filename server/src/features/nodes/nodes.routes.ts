import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createFolderRequest,
  deleteNodeRequest,
  deleteNodeResponse,
  downloadUrlQuery,
  downloadUrlResponse,
  downloadZipQuery,
  matterDetailQuery,
  matterDetailResponse,
  moveNodeRequest,
  nodeChangeResponse,
  nodeResponse,
  previewUrlQuery,
  previewUrlResponse,
  renameNodeRequest,
} from '@strongroom/contracts';
import { contentDispositionAttachment } from '../../platform/storage/blob-store.js';
import type { AppContext } from '../../shared/context.js';
import type { RouteAccess } from '../../shared/route-access.js';
import { tokenScoped } from '../../shared/route-access.js';
import { readOnlyRefusal } from '../matters/index.js';
import { sendJsonText } from '../../shared/json-text.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { deleteNode } from './bin.service.js';
import { createFolder, moveNode, renameNode } from './nodes-changes.service.js';
import { downloadUrl, getMatterDetail } from './nodes.service.js';
import { downloadZip } from './nodes-zip.service.js';
import { previewUrl } from './nodes-preview.service.js';

export function nodesRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // Each change is decided against its matter and the person's permission (read-only matters answer 403 READ_ONLY
    // or 409 with the restriction), so the route asks only for a session.
    const config = { access: { who: 'signed-in' } } as const;
    // Renaming is declared for the web's Rename item to follow the same rule (members holding canRename); a person
    // who may change nothing is told the matters are read-only, as by every other change.
    const renamers = {
      access: { who: 'signed-in', allow: [{ rule: 'member' }, { rule: 'rename', refuse: readOnlyRefusal }] },
    } as const satisfies { access: RouteAccess };
    // Deleting a folder of many files can need a second approver (the organization's threshold decides).
    const deleters = { access: { who: 'signed-in', governed: { action: 'DELETE_LARGE_FOLDER' } } } as const satisfies {
      access: RouteAccess;
    };
    const tags = ['nodes'];
    // A matter's page: the matter and its tree of folders and files, so it is answered where the tree is built.
    app.get(
      '/_api/matters/detail',
      {
        schema: {
          operationId: 'getMatter',
          summary: 'Answers a matter with its tree of folders and files.',
          tags: ['matters'],
          querystring: matterDetailQuery,
          response: { 200: matterDetailResponse },
        },
        config: tokenScoped(config, 'matters:read'),
      },
      async (request, reply) => sendJsonText(reply, await getMatterDetail(ctx, authOf(request), request.query)),
    );
    app.post(
      '/_api/nodes/create',
      {
        schema: {
          operationId: 'createFolder',
          summary: 'Creates a folder in a matter.',
          tags,
          body: createFolderRequest,
          response: { 200: nodeResponse },
        },
        config: tokenScoped(config, 'files:upload'),
      },
      async (request) => createFolder(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/nodes/rename',
      {
        schema: {
          operationId: 'renameNode',
          summary: 'Renames a folder or file; the change can be undone.',
          tags,
          body: renameNodeRequest,
          response: { 200: nodeChangeResponse },
        },
        config: renamers,
      },
      async (request) => renameNode(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/nodes/move',
      {
        schema: {
          operationId: 'moveNode',
          summary: 'Moves a folder or file within its matter; the change can be undone.',
          tags,
          body: moveNodeRequest,
          response: { 200: nodeChangeResponse },
        },
        config,
      },
      async (request) => moveNode(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/nodes/delete',
      {
        schema: {
          operationId: 'deleteNode',
          summary: "Moves a folder (with everything in it) or a file to the matter's recycle bin; the deletion can be undone.",
          tags,
          body: deleteNodeRequest,
          response: { 200: deleteNodeResponse },
        },
        config: deleters,
      },
      async (request) => deleteNode(ctx, authOf(request), request.body.nodeId, requestMeta(request)),
    );
    app.get(
      '/_api/nodes/download-url',
      {
        schema: {
          operationId: 'getDownloadUrl',
          summary: "Answers a short-lived signed URL that downloads a file's bytes.",
          tags,
          querystring: downloadUrlQuery,
          response: { 200: downloadUrlResponse },
        },
        config: tokenScoped(config, 'files:read'),
      },
      async (request) => downloadUrl(ctx, authOf(request), request.query.nodeId, requestMeta(request), request.query.version),
    );
    // Previews follow the download rule, and a guest's 'view' grant reads in the page too; decided in the service.
    app.get(
      '/_api/nodes/preview-url',
      {
        schema: {
          operationId: 'getPreviewUrl',
          summary: "Answers a short-lived signed URL that shows a file's bytes inline, with the viewer to use.",
          tags,
          querystring: previewUrlQuery,
          response: { 200: previewUrlResponse },
        },
        config: tokenScoped(config, 'files:read'),
      },
      async (request) => previewUrl(ctx, authOf(request), request.query.nodeId, requestMeta(request), request.query.version),
    );
    app.get(
      '/_api/nodes/download-zip',
      {
        schema: {
          operationId: 'downloadZip',
          summary: 'Streams a folder or a whole matter as one ZIP with a manifest of paths, sizes and sha256.',
          tags,
          querystring: downloadZipQuery,
        },
        config: tokenScoped(config, 'files:read'),
      },
      async (request, reply) => {
        const zip = await downloadZip(ctx, authOf(request), request.query, requestMeta(request));
        void reply
          .header('content-type', 'application/zip')
          .header('content-disposition', contentDispositionAttachment(zip.fileName))
          .header('cache-control', 'no-store');
        return reply.send(zip.stream);
      },
    );
  };
}
