import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AUDIT_LOG_MSG,
  forensicLogRequest,
  integrityCheckResponse,
  securityEventLogRequest,
  securityLogResponse,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import type { RouteAccess } from '../../shared/route-access.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { runIntegrityCheck } from './integrity.service.js';
import { logClientEvent } from './security.service.js';

/** The web app's own security reports: members (guests report nothing). */
const REPORTERS = { who: 'signed-in', allow: 'member' } as const satisfies RouteAccess;

export function securityRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/_api/security/event-log',
      {
        schema: {
          operationId: 'reportSecurityEvent',
          summary: "Records a security event the web app observed in the organization's audit log.",
          tags: ['security'],
          body: securityEventLogRequest,
          response: { 200: securityLogResponse },
        },
        config: { access: REPORTERS },
      },
      async (request) => logClientEvent(ctx, authOf(request), 'security_event', request.body, requestMeta(request)),
    );
    app.post(
      '/_api/security/forensic-log',
      {
        schema: {
          operationId: 'reportForensicLog',
          summary: "Records forensic details the web app gathered in the organization's audit log.",
          tags: ['security'],
          body: forensicLogRequest,
          response: { 200: securityLogResponse },
        },
        config: { access: REPORTERS },
      },
      async (request) => logClientEvent(ctx, authOf(request), 'forensic_log', request.body, requestMeta(request)),
    );
    app.post(
      '/_api/security/integrity-check',
      {
        schema: {
          operationId: 'checkAuditIntegrity',
          summary: "Verifies the organization's audit hash chain and reports any break.",
          tags: ['security'],
          response: { 200: integrityCheckResponse },
        },
        config: { access: { who: 'signed-in', allow: [{ rule: 'admin', deny: AUDIT_LOG_MSG.adminsOnly }] } },
      },
      async (request) => runIntegrityCheck(ctx, authOf(request), requestMeta(request)),
    );
  };
}
