import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { undoRequest, undoResponse } from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { applyUndo, type UndoHandlers } from './undo.service.js';

/**
 * POST /_api/undo. The handlers of each kind come from the features that own the objects (app.ts wires them),
 * so undo depends on no feature and every feature may record entries.
 */
export function undoRoutes(ctx: AppContext, handlers: UndoHandlers): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/_api/undo',
      {
        schema: {
          operationId: 'undoChange',
          summary: 'Undoes a recent change (a rename, a move, a matter or user update).',
          tags: ['undo'],
          body: undoRequest,
          response: { 200: undoResponse },
        },
        config: { access: { who: 'signed-in', allow: 'member' } },
      },
      async (request) => applyUndo(ctx, authOf(request), handlers, request.body.undoId, requestMeta(request)),
    );
  };
}
