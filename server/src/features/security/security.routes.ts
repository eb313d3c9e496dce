import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  complianceReport,
  forensicLogRequest,
  integrityCheckResponse,
  policyManageRequest,
  policyManageResponse,
  securityAssessmentRequest,
  securityAssessmentResponse,
  securityEventLogRequest,
  securityLogResponse,
  securityPoliciesResponse,
  vulnerabilityScanRequest,
  vulnerabilityScanResponse,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { runIntegrityCheck } from './integrity.service.js';
import { logClientEvent } from './security.service.js';
import {
  listSecurityPolicies,
  managePolicy,
  runComplianceCheck,
  runSecurityAssessment,
  runVulnerabilityScan,
} from './security-tooling.service.js';

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
    // Security tooling (administrators).
    app.get(
      '/_api/security/policies',
      { schema: { tags: ['security'], response: { 200: securityPoliciesResponse } }, config: { auth: 'signed-in' } },
      async (request) => listSecurityPolicies(ctx, authOf(request)),
    );
    app.post(
      '/_api/security/policy-manage',
      { schema: { tags: ['security'], body: policyManageRequest, response: { 200: policyManageResponse } }, config: { auth: 'signed-in' } },
      async (request) => managePolicy(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/security/compliance-check',
      { schema: { tags: ['security'], response: { 200: complianceReport } }, config: { auth: 'signed-in' } },
      async (request) => runComplianceCheck(ctx, authOf(request), requestMeta(request)),
    );
    app.post(
      '/_api/security/vulnerability-scan',
      {
        schema: { tags: ['security'], body: vulnerabilityScanRequest, response: { 200: vulnerabilityScanResponse } },
        config: { auth: 'signed-in' },
      },
      // The scan reads the headers of one of this server's own answers, asked of itself without the network.
      async (request) =>
        runVulnerabilityScan(
          ctx,
          authOf(request),
          request.body,
          requestMeta(request),
          async () => (await app.inject({ method: 'GET', url: '/healthz' })).headers,
        ),
    );
    app.post(
      '/_api/security/security-assessment',
      {
        schema: { tags: ['security'], body: securityAssessmentRequest, response: { 200: securityAssessmentResponse } },
        config: { auth: 'signed-in' },
      },
      async (request) => runSecurityAssessment(ctx, authOf(request), request.body, requestMeta(request)),
    );
  };
}
