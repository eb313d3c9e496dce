import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  archivalStatsResponse,
  archiveAuditLogsRequest,
  archiveAuditLogsResponse,
  checkRetrievalsRequest,
  checkRetrievalsResponse,
  retrieveArchivedRequest,
  retrieveArchivedResponse,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { archivalStats, archiveAuditLogs, checkRetrievals, registerArchival, retrieveArchived } from './archival.service.js';

function headerToken(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Archival of old audit entries (administrators) and retrieval of archived entries' details. */
export function archivalRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  registerArchival();
  return async (app) => {
    const config = { auth: 'signed-in' } as const;
    app.get(
      '/_api/system/archival-stats',
      { schema: { tags: ['archival'], response: { 200: archivalStatsResponse } }, config },
      async (request) => archivalStats(ctx, authOf(request), headerToken(request.headers['x-mfa-token']), requestMeta(request)),
    );
    app.post(
      '/_api/system/archive-audit-logs',
      { schema: { tags: ['archival'], body: archiveAuditLogsRequest, response: { 200: archiveAuditLogsResponse } }, config },
      async (request) =>
        archiveAuditLogs(
          ctx,
          authOf(request),
          { dryRun: request.body.dryRun },
          headerToken(request.headers['x-mfa-token']) ?? request.body.mfaToken,
          requestMeta(request),
        ),
    );
    app.post(
      '/_api/audit-logs/retrieve-archived',
      { schema: { tags: ['audit-logs'], body: retrieveArchivedRequest, response: { 200: retrieveArchivedResponse } }, config },
      async (request) => retrieveArchived(ctx, authOf(request), request.body),
    );
    app.post(
      '/_api/audit-logs/check-retrievals',
      { schema: { tags: ['audit-logs'], body: checkRetrievalsRequest, response: { 200: checkRetrievalsResponse } }, config },
      async (request) => checkRetrievals(ctx, authOf(request), request.body),
    );
  };
}
