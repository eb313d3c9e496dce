import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { auditChainExportQuery, auditLogExportQuery, auditLogListQuery, auditLogListResponse } from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { exportAuditChain } from './audit-chain-export.service.js';
import { exportAuditLogs, listAuditLogs } from './audit.service.js';

/** The audit log's calls: the list page, the CSV export and the chain export for offline checking. */
export function auditRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'signed-in' } as const;
    const tags = ['audit-logs'];
    app.get(
      '/_api/audit-logs/list',
      { schema: { tags, querystring: auditLogListQuery, response: { 200: auditLogListResponse } }, config },
      async (request) => listAuditLogs(ctx, authOf(request), request.query),
    );
    // A CSV file of any size, streamed. The system MFA token comes in the X-MFA-Token header (or mfaToken).
    app.get(
      '/_api/audit-logs/export',
      { schema: { tags, querystring: auditLogExportQuery, produces: ['text/csv'] }, config },
      async (request, reply) => {
        const header = request.headers['x-mfa-token'];
        const mfaToken = typeof header === 'string' && header !== '' ? header : request.query.mfaToken;
        const { fileName, body } = await exportAuditLogs(ctx, authOf(request), request.query, mfaToken, requestMeta(request));
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .header('cache-control', 'no-store')
          .header('x-content-type-options', 'nosniff')
          .send(body);
      },
    );
    // The chain as signed JSON lines, streamed; the same step-up as the CSV export.
    app.get(
      '/_api/audit-logs/chain-export',
      { schema: { tags, querystring: auditChainExportQuery, produces: ['application/x-ndjson'] }, config },
      async (request, reply) => {
        const header = request.headers['x-mfa-token'];
        const mfaToken = typeof header === 'string' && header !== '' ? header : request.query.mfaToken;
        const { fileName, body } = await exportAuditChain(ctx, authOf(request), request.query, mfaToken, requestMeta(request));
        return reply
          .type('application/x-ndjson; charset=utf-8')
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .header('cache-control', 'no-store')
          .header('x-content-type-options', 'nosniff')
          .send(body);
      },
    );
  };
}
