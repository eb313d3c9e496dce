import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { forensicLogRequest, integrityCheckResponse, securityEventLogRequest, securityLogResponse } from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { runIntegrityCheck } from './integrity.service.js';
import { logClientEvent } from './security.service.js';

export function securityRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/_api/security/event-log',
      {
        schema: { tags: ['security'], body: securityEventLogRequest, response: { 200: securityLogResponse } },
        config: { auth: 'signed-in' },
      },
      async (request) => logClientEvent(ctx, authOf(request), 'security_event', request.body, requestMeta(request)),
    );
    app.post(
      '/_api/security/forensic-log',
      { schema: { tags: ['security'], body: forensicLogRequest, response: { 200: securityLogResponse } }, config: { auth: 'signed-in' } },
      async (request) => logClientEvent(ctx, authOf(request), 'forensic_log', request.body, requestMeta(request)),
    );
    app.post(
      '/_api/security/integrity-check',
      { schema: { tags: ['security'], response: { 200: integrityCheckResponse } }, config: { auth: 'signed-in' } },
      async (request) => runIntegrityCheck(ctx, authOf(request), requestMeta(request)),
    );
  };
}
