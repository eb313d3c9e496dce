import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  vaultAuditQuery,
  vaultAuditResponse,
  vaultDetailQuery,
  vaultDetailResponse,
  vaultListQuery,
  vaultListResponse,
  vaultReportQuery,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { listVault, vaultAudit, vaultDetail, vaultReport } from './vault-queries.service.js';

/** The vault's review calls: list, detail, audit trail and the chain-of-custody report. */
export function vaultQueriesRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'signed-in' } as const;
    const tags = ['vault'];
    app.get(
      '/_api/vault/list',
      { schema: { tags, querystring: vaultListQuery, response: { 200: vaultListResponse } }, config },
      async (request) => listVault(ctx, authOf(request), request.query),
    );
    app.get(
      '/_api/vault/detail',
      { schema: { tags, querystring: vaultDetailQuery, response: { 200: vaultDetailResponse } }, config },
      async (request) => vaultDetail(ctx, authOf(request), request.query.matterId),
    );
    app.get(
      '/_api/vault/audit',
      { schema: { tags, querystring: vaultAuditQuery, response: { 200: vaultAuditResponse } }, config },
      async (request) => vaultAudit(ctx, authOf(request), request.query),
    );
    // The report downloaded as a file: a print-ready HTML page (no script in it; every value escaped), or with
    // format=pdf the same report as PDF.
    app.get(
      '/_api/vault/report',
      { schema: { tags, querystring: vaultReportQuery, produces: ['text/html', 'application/pdf'] }, config },
      async (request, reply) => {
        const { fileName, contentType, body } = await vaultReport(ctx, authOf(request), request.query, requestMeta(request));
        return reply
          .type(contentType)
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .header('x-content-type-options', 'nosniff')
          .send(body);
      },
    );
  };
}
