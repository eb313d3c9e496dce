/**
 * Reading the audit log: the list page and the CSV export.
 *
 * Who sees what: administrators see the organization's whole log; other people see their own entries plus the
 * organization-wide events everyone sees on the dashboard (AUDIT_SHARED_ACTIONS); guests read none of it. The
 * organization always comes from the session, so another organization's entries are never in an answer.
 */
import { Readable } from 'node:stream';
import {
  AUDIT_SHARED_ACTIONS,
  LIMITS,
  type AuditLogEntry,
  type AuditLogExportQuery,
  type AuditLogListQuery,
  type AuditLogListResponse,
} from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import type { AuthContext } from '../sessions/index.js';
import { CSV_BOM, CSV_HEADER, csvRow } from './audit-csv.js';
import { namesOfEntries } from './audit-names.repository.js';
import { storedSearchTextReady } from './audit-search.service.js';
import {
  auditEntriesAfter,
  chainHead,
  countAuditEntries,
  listAuditEntries,
  newestEntryId,
  signingAges,
  type AuditFilters,
  type AuditLogRow,
  type AuditOrder,
} from './audit.repository.js';

/**
 * The list counts matching entries exactly up to this many; beyond it the count says "at least this many"
 * (pagination.totalCountCapped), so a page of a filter matching millions still answers in milliseconds.
 */
const COUNT_CAP = LIMITS.listCountBound;
/** Rows read per statement while exporting: memory stays flat whatever the export's size. */
export const EXPORT_BATCH = 2000;

type FilterQuery = Pick<
  AuditLogListQuery,
  'startDate' | 'endDate' | 'actions' | 'actions[]' | 'actorIds' | 'actorIds[]' | 'ipAddress' | 'search'
>;

function filtersOf(auth: AuthContext, q: FilterQuery, storedSearchText: boolean): AuditFilters {
  const actions = [...(q.actions ?? []), ...(q['actions[]'] ?? [])];
  const actorIds = [...(q.actorIds ?? []), ...(q['actorIds[]'] ?? [])];
  return {
    organizationId: auth.user.organizationId,
    visibleTo: auth.user.role === 'admin' ? undefined : { userId: auth.user.id, sharedActions: AUDIT_SHARED_ACTIONS },
    startDate: q.startDate,
    endDate: q.endDate,
    actions: actions.length ? actions : undefined,
    actorIds: actorIds.length ? actorIds : undefined,
    ipAddress: q.ipAddress,
    search: q.search,
    storedSearchText,
  };
}

function hasNarrowing(f: AuditFilters): boolean {
  return !!(f.visibleTo || f.startDate || f.endDate || f.actions || f.actorIds || f.ipAddress || f.search);
}

function toEntry(r: AuditLogRow): AuditLogEntry {
  const createdAt = new Date(r.createdAt).toISOString();
  return {
    id: r.id,
    createdAt,
    timestamp: createdAt,
    actor:
      r.actorId === null && r.actorName === null && r.actorEmail === null
        ? null
        : { id: r.actorId, name: r.actorName, email: r.actorEmail },
    action: r.action,
    targetTable: r.targetTable,
    targetId: r.targetId,
    // An archived entry's details are in cold storage until retrieved. The address the request came from is
    // repeated inside details, over any ipAddress a client's own report put there.
    details: r.archived ? null : { ...r.details, ipAddress: r.ipAddress },
    ipAddress: r.ipAddress,
    archived: r.archived,
  };
}

/** GET /_api/audit-logs/list */
export async function listAuditLogs(ctx: AppContext, auth: AuthContext, q: AuditLogListQuery): Promise<AuditLogListResponse> {
  const f = filtersOf(auth, q, q.search ? await storedSearchTextReady(ctx) : false);
  const order: AuditOrder = { sortBy: q.sortBy, direction: q.sortDirection };
  const [rows, counted] = await Promise.all([
    listAuditEntries(ctx.db, f, order, { limit: q.limit, offset: (q.page - 1) * q.limit }),
    // Unfiltered, an administrator's count is the chain's length: every entry of the organization is in it.
    hasNarrowing(f) ? countAuditEntries(ctx.db, f, COUNT_CAP) : chainHead(ctx.db, f.organizationId).then((h) => h?.seq ?? 0),
  ]);
  const capped = hasNarrowing(f) && counted > COUNT_CAP;
  const totalCount = capped ? COUNT_CAP : counted;
  const names = await namesOfEntries(ctx.db, f.organizationId, rows);
  return {
    logs: rows.map((r) => ({ ...toEntry(r), names: names.get(r.id) ?? { matter: null, target: null } })),
    pagination: { page: q.page, limit: q.limit, totalCount, totalPages: Math.ceil(totalCount / q.limit), totalCountCapped: capped },
    totalCount,
  };
}

/**
 * GET /_api/audit-logs/export. The filters and the order of the list, every matching entry (or the first
 * `limit`). Needs system MFA (EXPORT_AUDIT_LOGS). The export is audited before it streams, with its filters and
 * its row count; it covers the entries up to the newest one at that moment (its own entry and later ones are
 * not in it), so the count recorded is the count sent.
 */
export async function exportAuditLogs(
  ctx: AppContext,
  auth: AuthContext,
  q: AuditLogExportQuery,
  meta: RequestMeta,
): Promise<{ fileName: string; body: Readable; rows: number }> {
  const base = filtersOf(auth, q, q.search ? await storedSearchTextReady(ctx) : false);
  const order: AuditOrder = { sortBy: q.sortBy, direction: q.sortDirection };
  const at = new Date();
  const { f, rows } = await auth.stepUp.run(async (trx) => {
    const upToId = await newestEntryId(trx, base.organizationId);
    const f: AuditFilters = { ...base, upToId: upToId ?? '0' };
    const matching = await countAuditEntries(trx, f, q.limit ?? Number.MAX_SAFE_INTEGER - 1);
    const rows = q.limit === undefined ? matching : Math.min(matching, q.limit);
    const filters = { ...q, mfaToken: undefined };
    await auditFor(auth.user, meta)(
      trx,
      'EXPORT_AUDIT_LOGS',
      { table: 'audit_logs', id: null },
      { filters, rowCount: rows, upToId: f.upToId },
    );
    return { f, rows };
  });
  return { fileName: `strongroom_audit_logs_${at.toISOString()}.csv`, body: Readable.from(csvLines(ctx, f, order, rows)), rows };
}

/** The CSV's lines, read in keyset batches of EXPORT_BATCH rows. */
async function* csvLines(ctx: AppContext, f: AuditFilters, order: AuditOrder, rows: number): AsyncGenerator<string> {
  yield CSV_BOM + CSV_HEADER;
  let sent = 0;
  let after: AuditLogRow | null = null;
  while (sent < rows) {
    const batch: AuditLogRow[] = await auditEntriesAfter(
      ctx.db,
      f,
      order,
      after && { action: after.action, targetTable: after.targetTable ?? '', createdAt: new Date(after.createdAt), id: after.id },
      Math.min(EXPORT_BATCH, rows - sent),
    );
    if (batch.length === 0) return;
    yield batch.map(csvRow).join('');
    sent += batch.length;
    after = batch[batch.length - 1]!;
  }
}

/** How far behind the signing of audit chain heads is, for the metrics (seconds; null: nothing of the kind yet). */
export async function signingHeadAges(
  ctx: AppContext,
): Promise<{ newestSignedSeconds: number | null; oldestUnsignedSeconds: number | null }> {
  const ages = await signingAges(ctx.db);
  return { newestSignedSeconds: ages.newestSigned, oldestUnsignedSeconds: ages.oldestUnsigned };
}
