import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AUDIT_LOG_MSG, auditChainExportQuery, auditLogExportQuery, auditLogListQuery, auditLogListResponse } from '@strongroom/contracts';
import type { RouteAccess } from '../../shared/route-access.js';
import { tokenScoped } from '../../shared/route-access.js';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { exportAuditChain } from './audit-chain-export.service.js';
import { exportAuditLogs, listAuditLogs } from './audit.service.js';

/** The audit log's calls: the list page, the CSV export and the chain export for offline checking. */
export function auditRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    /** Guests see no audit log at all. */
    const readers = [{ rule: 'member', deny: AUDIT_LOG_MSG.guestsNotAllowed }] as const;
    const exportStepUp = { operation: 'EXPORT_AUDIT_LOGS', accepts: 'code-or-token' } as const;
    const config = { access: { who: 'signed-in', allow: readers } satisfies RouteAccess };
    const exportConfig = { access: { who: 'signed-in', allow: readers, stepUp: exportStepUp } satisfies RouteAccess };
    const chainExportConfig = {
      access: {
        who: 'signed-in',
        allow: [{ rule: 'admin', deny: AUDIT_LOG_MSG.chainExportAdminsOnly }],
        stepUp: exportStepUp,
      } satisfies RouteAccess,
    };
    const tags = ['audit-logs'];
    app.get(
      '/_api/audit-logs/list',
      {
        schema: {
          operationId: 'listAuditLogs',
          summary: "Lists the organization's audit entries the caller may see, filtered and paged.",
          tags,
          querystring: auditLogListQuery,
          response: { 200: auditLogListResponse },
        },
        config: tokenScoped(config, 'audit:read'),
      },
      async (request) => listAuditLogs(ctx, authOf(request), request.query),
    );
    // A CSV file of any size, streamed, behind a fresh code or a token of the export class.
    app.get(
      '/_api/audit-logs/export',
      {
        schema: {
          operationId: 'exportAuditLogs',
          summary: 'Downloads the filtered audit entries as a CSV file, streamed.',
          tags,
          querystring: auditLogExportQuery,
          produces: ['text/csv'],
        },
        config: exportConfig,
      },
      async (request, reply) => {
        const { fileName, body } = await exportAuditLogs(ctx, authOf(request), request.query, requestMeta(request));
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
      {
        schema: {
          operationId: 'exportAuditChain',
          summary: "Downloads the organization's audit hash chain as signed JSON lines, for offline verification.",
          tags,
          querystring: auditChainExportQuery,
          produces: ['application/x-ndjson'],
        },
        config: chainExportConfig,
      },
      async (request, reply) => {
        const { fileName, body } = await exportAuditChain(ctx, authOf(request), request.query, requestMeta(request));
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
