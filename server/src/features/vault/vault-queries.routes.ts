import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  VAULT_MSG,
  vaultAuditQuery,
  vaultAuditResponse,
  vaultDetailQuery,
  vaultDetailResponse,
  vaultListQuery,
  vaultListResponse,
  vaultRegisterQuery,
  vaultReportQuery,
} from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import type { RouteAccess } from '../../shared/route-access.js';
import { tokenScoped } from '../../shared/route-access.js';
import { sendJsonText } from '../../shared/json-text.js';
import { requestMeta } from '../../shared/request-meta.js';
import { authOf } from '../sessions/index.js';
import { listVault, vaultAudit, vaultDetail, vaultReport } from './vault-queries.service.js';
import { exportVaultRegister } from './vault-register.service.js';

/** Guests see no matters at all; members need canViewVaulted to see anything of the vault. */
export const VAULT_VIEWERS = {
  access: { who: 'signed-in', allow: [{ rule: 'member' }, { rule: 'viewVaulted', deny: VAULT_MSG.viewPermissionDenied }] },
} as const satisfies { access: RouteAccess };

/** The vault's review calls: list, detail, audit trail and the chain-of-custody report. */
export function vaultQueriesRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = VAULT_VIEWERS;
    const tags = ['vault'];
    app.get(
      '/_api/vault/list',
      {
        schema: {
          operationId: 'listVaultedMatters',
          summary: "Lists the organization's vaulted matters.",
          tags,
          querystring: vaultListQuery,
          response: { 200: vaultListResponse },
        },
        config: tokenScoped(config, 'matters:read'),
      },
      async (request) => listVault(ctx, authOf(request), request.query),
    );
    app.get(
      '/_api/vault/detail',
      {
        schema: {
          operationId: 'getVaultedMatter',
          summary: 'Answers a vaulted matter with its vaulted files and their hashes.',
          tags,
          querystring: vaultDetailQuery,
          response: { 200: vaultDetailResponse },
        },
        config: tokenScoped(config, 'matters:read'),
      },
      async (request, reply) => sendJsonText(reply, await vaultDetail(ctx, authOf(request), request.query.matterId)),
    );
    app.get(
      '/_api/vault/audit',
      {
        schema: {
          operationId: 'listVaultAudit',
          summary: 'Lists the audit entries of a vaulted matter.',
          tags,
          querystring: vaultAuditQuery,
          response: { 200: vaultAuditResponse },
        },
        config,
      },
      async (request) => vaultAudit(ctx, authOf(request), request.query),
    );
    // The report downloaded as a file: a print-ready HTML page (no script in it; every value escaped), or with
    // format=pdf the same report as PDF.
    app.get(
      '/_api/vault/report',
      {
        schema: {
          operationId: 'downloadVaultReport',
          summary: "Downloads a vaulted matter's report as a print-ready HTML page or as PDF.",
          tags,
          querystring: vaultReportQuery,
          produces: ['text/html', 'application/pdf'],
        },
        config,
      },
      async (request, reply) => {
        const { fileName, contentType, body } = await vaultReport(ctx, authOf(request), request.query, requestMeta(request));
        return reply
          .type(contentType)
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .header('x-content-type-options', 'nosniff')
          .send(body);
      },
    );
    // The register of every vaulted matter the reader may see, streamed as CSV or as a printable HTML page.
    app.get(
      '/_api/vault/register',
      {
        schema: {
          operationId: 'exportVaultRegister',
          summary: 'Downloads the register of vaulted matters, with certificate ids and key fingerprints, as CSV or printable HTML.',
          tags,
          querystring: vaultRegisterQuery,
          produces: ['text/csv', 'text/html'],
        },
        config,
      },
      async (request, reply) => {
        const { fileName, contentType, body } = await exportVaultRegister(ctx, authOf(request), request.query, requestMeta(request));
        return reply
          .type(contentType)
          .header('content-disposition', `attachment; filename="${fileName}"`)
          .header('x-content-type-options', 'nosniff')
          .send(body);
      },
    );
  };
}
