import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  APPROVAL_MSG,
  approvalDecideRequest,
  approvalDecideResponse,
  approvalDetailQuery,
  approvalDetailResponse,
  approvalSettingsResponse,
  approvalsListQuery,
  approvalsListResponse,
  SETTINGS_MSG,
  updateApprovalSettingsRequest,
  updateApprovalSettingsResponse,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { requestMeta } from '../../shared/request-meta.js';
import type { RouteAccess } from '../../shared/route-access.js';
import { authOf } from '../sessions/index.js';
import { decideApproval } from './approval-decisions.service.js';
import { getApprovalSettings, updateApprovalPolicy } from './approval-policy.service.js';
import { approvalDetail, listApprovals } from './approvals.service.js';

/** Members read requests (administrators every request, anyone else their own); guests have none. */
const readers = { access: { who: 'signed-in', allow: [{ rule: 'member', deny: APPROVAL_MSG.adminsOnly }] } } as const satisfies {
  access: RouteAccess;
};
/** Administrators decide, and approving takes a fresh code of their own second factor: never a token. */
const deciders = {
  access: {
    who: 'signed-in',
    allow: [{ rule: 'admin', deny: APPROVAL_MSG.adminsOnly }],
    stepUp: { operation: 'APPROVE_REQUEST', accepts: 'code', when: ({ body }) => (body as { decision?: string }).decision === 'approve' },
  },
} as const satisfies { access: RouteAccess };
const admins = [{ rule: 'admin', deny: SETTINGS_MSG.adminsOnly }] as const;

export function approvalsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = ['approvals'];
    app.get(
      '/_api/approvals/list',
      {
        schema: {
          operationId: 'listApprovals',
          summary: 'Lists approval requests of one status (administrators: all; others: their own).',
          tags,
          querystring: approvalsListQuery,
          response: { 200: approvalsListResponse },
        },
        config: readers,
      },
      async (request) => listApprovals(ctx, authOf(request), request.query),
    );
    app.get(
      '/_api/approvals/detail',
      {
        schema: {
          operationId: 'getApproval',
          summary: 'Answers one approval request with the preview of its effect.',
          tags,
          querystring: approvalDetailQuery,
          response: { 200: approvalDetailResponse },
        },
        config: readers,
      },
      async (request) => approvalDetail(ctx, authOf(request), request.query),
    );
    app.post(
      '/_api/approvals/decide',
      {
        schema: {
          operationId: 'decideApproval',
          summary: "Approves (with a fresh code) or rejects (with a reason) another administrator's request.",
          tags,
          body: approvalDecideRequest,
          response: { 200: approvalDecideResponse },
        },
        config: deciders,
      },
      async (request) => decideApproval(ctx, authOf(request), request.body, requestMeta(request)),
    );
    app.get(
      '/_api/settings/approvals',
      {
        schema: {
          operationId: 'getApprovalSettings',
          summary: 'Answers which actions need a second approver.',
          tags,
          response: { 200: approvalSettingsResponse },
        },
        config: { access: { who: 'signed-in', allow: admins } },
      },
      async (request) => getApprovalSettings(ctx, authOf(request)),
    );
    app.post(
      '/_api/settings/approvals',
      {
        schema: {
          operationId: 'updateApprovalSettings',
          summary: 'Sets which actions need a second approver; once any does, this change needs one too.',
          tags,
          body: updateApprovalSettingsRequest,
          response: { 200: updateApprovalSettingsResponse },
        },
        config: {
          access: {
            who: 'signed-in',
            allow: admins,
            stepUp: { operation: 'MFA_ORGANIZATION_SETTINGS', accepts: 'code-or-token' },
            governed: { action: 'CHANGE_APPROVAL_POLICY' },
          },
        },
      },
      async (request) => updateApprovalPolicy(ctx, authOf(request), request.body, requestMeta(request)),
    );
  };
}
