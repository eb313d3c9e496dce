import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  complianceReport,
  SECURITY_TOOLING_MSG,
  policyManageRequest,
  policyManageResponse,
  securityAssessmentRequest,
  securityAssessmentResponse,
  securityPoliciesResponse,
  vulnerabilityScanRequest,
  vulnerabilityScanResponse,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import type { RouteAccess } from '../../shared/route-access.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { runSecurityAssessment } from './assessment.service.js';
import { runComplianceCheck } from './compliance.service.js';
import { listSecurityPolicies, managePolicy } from './security-tooling.service.js';
import { runVulnerabilityScan } from './vulnerability-scan.service.js';

/** Administrators only: users and guests are told so. */
const ADMINS = { who: 'signed-in', allow: [{ rule: 'admin', deny: SECURITY_TOOLING_MSG.adminsOnly }] } as const satisfies RouteAccess;

/** The security tooling of the organization's administrators: policies, compliance check, scans, assessments. */
export function securityToolingRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/_api/security/policies',
      {
        schema: {
          operationId: 'listSecurityPolicies',
          summary: "Lists the organization's security policies.",
          tags: ['security'],
          response: { 200: securityPoliciesResponse },
        },
        config: { access: ADMINS },
      },
      async (request) => listSecurityPolicies(ctx, authOf(request)),
    );
    app.post(
      '/_api/security/policy-manage',
      {
        schema: {
          operationId: 'manageSecurityPolicy',
          summary: "Creates, changes or removes one of the organization's security policies.",
          tags: ['security'],
          body: policyManageRequest,
          response: { 200: policyManageResponse },
        },
        config: {
          access: {
            ...ADMINS,
            // Managing policies is a system operation: a fresh code while the organization asks for one.
            stepUp: { operation: 'MFA_SYSTEM_OPERATIONS', flag: 'MFA_SYSTEM_OPERATIONS', accepts: 'code-or-token' },
          },
        },
      },
      async (request) => managePolicy(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.post(
      '/_api/security/compliance-check',
      {
        schema: {
          operationId: 'runComplianceCheck',
          summary: "Checks the organization's settings against its active security policies, check by check.",
          tags: ['security'],
          response: { 200: complianceReport },
        },
        config: { access: ADMINS },
      },
      async (request) => runComplianceCheck(ctx, authOf(request), requestMeta(request)),
    );
    app.post(
      '/_api/security/vulnerability-scan',
      {
        schema: {
          operationId: 'runVulnerabilityScan',
          summary: 'Scans one target (application, infrastructure, database or network) for known weaknesses and records the findings.',
          tags: ['security'],
          body: vulnerabilityScanRequest,
          response: { 200: vulnerabilityScanResponse },
        },
        config: { access: ADMINS },
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
        schema: {
          operationId: 'runSecurityAssessment',
          summary: 'Combines recorded scans into one assessment with a score and its findings.',
          tags: ['security'],
          body: securityAssessmentRequest,
          response: { 200: securityAssessmentResponse },
        },
        config: { access: ADMINS },
      },
      async (request) => runSecurityAssessment(ctx, authOf(request), request.body, requestMeta(request)),
    );
  };
}
