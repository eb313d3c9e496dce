/**
 * The vault's review calls: the list of vaulted matters, a vaulted matter with its tree, its audit trail, and
 * the chain-of-custody report. Every call needs canViewVaulted (guests are refused as on every matters page)
 * and reads only the session's organization.
 */
import type {
  VaultAuditQuery,
  VaultAuditResponse,
  VaultListQuery,
  VaultListResponse,
  VaultReportQuery,
  VaultedMatterDto,
} from '@strongroom/contracts';
import { VAULT_MSG, vaultDetailResponse } from '@strongroom/contracts';
import { jsonWithArrayText } from '../../shared/json-text.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { notFound } from '../../shared/errors.js';
import { getVisibleMatter, toMatterDto, type MatterRow } from '../matters/index.js';
import { matterTreeJson } from '../nodes/index.js';
import type { AuthContext } from '../sessions/index.js';
import {
  countMatterAudit,
  countVaultedMatters,
  findTransfer,
  latestVerifications,
  listMatterAudit,
  listVaultedMatters,
  matterCertificates,
  matterObjects,
  organizationName,
  vaultFacts,
  type VaultFacts,
  type VaultListFilters,
} from './vault-queries.repository.js';
import { renderVaultReport } from './vault-report-html.js';
import { reportFileName } from './vault-report.js';
import { renderVaultReportPdf } from './vault-report-pdf.js';

type Viewer = AuthContext['user'];

/**
 * A vaulted matter of the viewer's organization. Another organization's id and an unknown id answer 404 'Matter
 * not found.'; a matter of the organization that is not vaulted answers 404 'The matter is not vaulted.'.
 */
async function vaultedMatter(ctx: AppContext, user: Viewer, matterId: string): Promise<MatterRow> {
  const matter = await getVisibleMatter(ctx.db, user, matterId);
  if (!matter.isVaulted) throw notFound(VAULT_MSG.notVaulted);
  return matter;
}

const EMPTY_FACTS: VaultFacts = { transferState: null, fileCount: 0, totalBytes: 0, lastCheckedAt: null, objectsChecked: 0, failures: 0 };

function toVaultedMatterDto(m: MatterRow, facts: VaultFacts = EMPTY_FACTS): VaultedMatterDto {
  return {
    ...toMatterDto(m),
    // A vaulted matter whose transfer row is not written yet is waiting for its transfer.
    transferState: facts.transferState ?? 'pending',
    fileCount: facts.fileCount,
    totalBytes: facts.totalBytes,
    lastVerification: facts.lastCheckedAt
      ? {
          checkedAt: facts.lastCheckedAt.toISOString(),
          result: facts.failures > 0 ? 'failed' : 'passed',
          objectsChecked: facts.objectsChecked,
          failures: facts.failures,
        }
      : null,
  };
}

export async function listVault(ctx: AppContext, auth: AuthContext, q: VaultListQuery): Promise<VaultListResponse> {
  const { user } = auth;
  const filters: VaultListFilters = {
    organizationId: user.organizationId,
    search: q.searchQuery,
    legalHold: q.legalHold === 'all' ? undefined : q.legalHold === 'true',
  };
  const [rows, totalCount] = await Promise.all([
    listVaultedMatters(
      ctx.db,
      filters,
      { sortBy: q.sortBy, direction: q.sortDirection },
      { limit: q.pageSize, offset: (q.page - 1) * q.pageSize },
    ),
    countVaultedMatters(ctx.db, filters),
  ]);
  const facts = await vaultFacts(
    ctx.db,
    user.organizationId,
    rows.map((r) => r.id),
  );
  return { matters: rows.map((r) => toVaultedMatterDto(r, facts.get(r.id))), totalCount };
}

/** A vaulted matter with its tree, as JSON text. */
export async function vaultDetail(ctx: AppContext, auth: AuthContext, matterId: string): Promise<string> {
  const { user } = auth;
  const matter = await vaultedMatter(ctx, user, matterId);
  const [nodes, facts] = await Promise.all([
    matterTreeJson(ctx.db, user.organizationId, matter.id),
    vaultFacts(ctx.db, user.organizationId, [matter.id]),
  ]);
  return jsonWithArrayText(vaultDetailHead, { matter: toVaultedMatterDto(matter, facts.get(matter.id)) }, 'nodes', nodes);
}

const vaultDetailHead = vaultDetailResponse.omit({ nodes: true });

export async function vaultAudit(ctx: AppContext, auth: AuthContext, q: VaultAuditQuery): Promise<VaultAuditResponse> {
  const { user } = auth;
  const matter = await vaultedMatter(ctx, user, q.matterId);
  const [rows, totalCount] = await Promise.all([
    listMatterAudit(ctx.db, user.organizationId, matter.id, { limit: q.pageSize, offset: (q.page - 1) * q.pageSize }),
    countMatterAudit(ctx.db, user.organizationId, matter.id),
  ]);
  return {
    logs: rows.map((r) => ({
      id: r.id,
      action: r.action,
      actorName: r.actorName,
      actorEmail: r.actorEmail,
      timestamp: r.createdAt.toISOString(),
      details: r.details,
    })),
    totalCount,
  };
}

/**
 * The chain-of-custody report of a vaulted matter, as print-ready HTML or as PDF, with everything a reviewer
 * needs (the matter, its retention and hold, the transfer, every file with its lock and SHA-256 as certified, the
 * last verification of each, the audit trail in sentences, the signature block, and how to verify it). Audited as
 * VAULT_REPORT_EXPORTED with its format.
 */
export async function vaultReport(
  ctx: AppContext,
  auth: AuthContext,
  query: VaultReportQuery,
  meta: RequestMeta,
): Promise<{ fileName: string; contentType: string; body: string | Buffer }> {
  const { user } = auth;
  const matter = await vaultedMatter(ctx, user, query.matterId);
  const org = user.organizationId;
  const [organization, transfer, objects, verifications, audit, certificates] = await Promise.all([
    organizationName(ctx.db, org),
    findTransfer(ctx.db, org, matter.id),
    matterObjects(ctx.db, org, matter.id),
    latestVerifications(ctx.db, org, matter.id),
    listMatterAudit(ctx.db, org, matter.id, null),
    matterCertificates(ctx.db, org, matter.id),
  ]);
  const generatedAt = new Date();
  const input = {
    generatedAt,
    generatedBy: { name: user.fullName, email: user.email },
    organization: { id: org, name: organization?.name ?? '' },
    appUrl: ctx.config.appUrl,
    matter,
    transfer: transfer ?? null,
    objects,
    verifications,
    audit,
    certificates,
  };
  const body = query.format === 'pdf' ? await renderVaultReportPdf(input) : renderVaultReport(input);
  await ctx.db
    .transaction()
    .execute((trx) =>
      auditFor(user, meta)(
        trx,
        'VAULT_REPORT_EXPORTED',
        { table: 'matters', id: matter.id },
        { matterId: matter.id, matterName: matter.matterName, format: query.format, files: objects.length, auditEntries: audit.length },
      ),
    );
  return {
    fileName: reportFileName(matter, query.format),
    contentType: query.format === 'pdf' ? 'application/pdf' : 'text/html; charset=utf-8',
    body,
  };
}
