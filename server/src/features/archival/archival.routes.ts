import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ARCHIVAL_MSG,
  AUDIT_LOG_MSG,
  archivalStatsResponse,
  archiveAuditLogsRequest,
  archiveAuditLogsResponse,
  latestArchivalRunResponse,
  checkRetrievalsRequest,
  checkRetrievalsResponse,
  retrieveArchivedRequest,
  retrieveArchivedResponse,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import type { RouteAccess } from '../../shared/route-access.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { checkRetrievals, registerArchival, retrieveArchived } from './archival-retrieval.service.js';
import { requestArchivalRun, latestArchivalRun } from './archival-runs.service.js';
import { archivalDryRun, archivalStats } from './archival.service.js';

/** Statistics and archival: administrators, always behind a fresh code or a token of the operation's class. */
const adminsOnly = [{ rule: 'admin', deny: ARCHIVAL_MSG.adminsOnly }] as const;
const stats = {
  access: { who: 'signed-in', allow: adminsOnly, stepUp: { operation: 'VIEW_ARCHIVAL_STATS', accepts: 'code-or-token' } },
} as const satisfies { access: RouteAccess };
/**
 * Archiving moves entries: the organization class (MFA_SYSTEM_OPERATIONS). A dry run only counts what would move,
 * the very figure the statistics show, so it is of the statistics' class: the code given to see the statistics
 * serves it for 30 minutes, as the prompt promises, while a real archival still asks for its own class.
 */
const archive = {
  access: {
    who: 'signed-in',
    allow: adminsOnly,
    stepUp: {
      operation: 'MFA_SYSTEM_OPERATIONS',
      accepts: 'code-or-token',
      readOnly: { operation: 'VIEW_ARCHIVAL_STATS', when: ({ body }) => (body as { dryRun?: boolean } | undefined)?.dryRun !== false },
    },
    governed: { action: 'ARCHIVE_AUDIT_LOGS', when: ({ body }) => (body as { dryRun?: boolean } | undefined)?.dryRun === false },
  },
} as const satisfies { access: RouteAccess };
/**
 * A run's progress: the class of the archival it follows (MFA_SYSTEM_OPERATIONS), so the token bought to start a
 * run serves to watch it for the next 30 minutes without another code.
 */
const runProgress = {
  access: { who: 'signed-in', allow: adminsOnly, stepUp: { operation: 'MFA_SYSTEM_OPERATIONS', accepts: 'code-or-token' } },
} as const satisfies { access: RouteAccess };
/** Archived entries' details: members (guests see no audit log). */
const readers = {
  access: { who: 'signed-in', allow: [{ rule: 'member', deny: AUDIT_LOG_MSG.guestsNotAllowed }] },
} as const satisfies { access: RouteAccess };

/** Archival of old audit entries (administrators) and retrieval of archived entries' details. */
export function archivalRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  registerArchival();
  return async (app) => {
    app.get(
      '/_api/system/archival-stats',
      {
        schema: {
          operationId: 'getArchivalStats',
          summary: 'Answers statistics on live and archived audit entries.',
          tags: ['archival'],
          response: { 200: archivalStatsResponse },
        },
        config: stats,
      },
      async (request) => archivalStats(authOf(request)),
    );
    app.post(
      '/_api/system/archive-audit-logs',
      {
        schema: {
          operationId: 'archiveAuditLogs',
          summary: "Starts moving old audit entries' details to the archive in the background (or, as a dry run, counts them).",
          tags: ['archival'],
          body: archiveAuditLogsRequest,
          response: { 200: archiveAuditLogsResponse },
        },
        config: archive,
      },
      async (request) =>
        request.body.dryRun ? archivalDryRun(authOf(request)) : requestArchivalRun(ctx, authOf(request), requestMeta(request)),
    );
    app.get(
      '/_api/system/archival-runs/latest',
      {
        schema: {
          operationId: 'getLatestArchivalRun',
          summary: "Answers the organization's latest archival run and its progress.",
          tags: ['archival'],
          response: { 200: latestArchivalRunResponse },
        },
        config: runProgress,
      },
      async (request) => latestArchivalRun(authOf(request)),
    );
    app.post(
      '/_api/audit-logs/retrieve-archived',
      {
        schema: {
          operationId: 'retrieveArchivedAuditLog',
          summary: "Asks for an archived audit entry's details to be brought back.",
          tags: ['audit-logs'],
          body: retrieveArchivedRequest,
          response: { 200: retrieveArchivedResponse },
        },
        config: readers,
      },
      async (request) => retrieveArchived(ctx, authOf(request), request.body),
    );
    app.post(
      '/_api/audit-logs/check-retrievals',
      {
        schema: {
          operationId: 'checkArchiveRetrievals',
          summary: 'Tells which retrievals of archived audit details are done, pending or failed.',
          tags: ['audit-logs'],
          body: checkRetrievalsRequest,
          response: { 200: checkRetrievalsResponse },
        },
        config: readers,
      },
      async (request) => checkRetrievals(ctx, authOf(request), request.body),
    );
  };
}
