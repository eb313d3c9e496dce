import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { undoRequest, undoResponse } from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { undoMatterUpdate } from '../matters/matters.service.js';
import { undoMoveNode, undoRenameNode } from '../nodes/nodes.service.js';
import { authOf, requireSession } from '../sessions/sessions.service.js';
import { applyUndo, type UndoHandlers } from './undo.service.js';

/** Every kind of change that can be undone, with the feature that restores it. */
const handlers: UndoHandlers = {
  'node.rename': undoRenameNode,
  'node.move': undoMoveNode,
  'matter.update': undoMatterUpdate,
};

export function undoRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const preHandler = requireSession(ctx);
    app.post('/_api/undo', { schema: { tags: ['undo'], body: undoRequest, response: { 200: undoResponse } }, preHandler }, async (request) =>
      applyUndo(ctx, authOf(request), handlers, request.body.undoId, requestMeta(request)),
    );
  };
}
