import {
  DOCUMENT_SEARCH_LIMITS,
  DOCUMENT_SEARCH_MSG,
  type DocumentHit,
  type DocumentSearchQuery,
  type DocumentSearchResponse,
  type SnippetPart,
} from '@strongroom/contracts';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { badRequest } from '../../shared/errors.js';
import type { AuthContext } from '../sessions/index.js';
import { parseDocumentQuery, termCount } from './document-query.js';
import {
  compileQuery,
  hitDetails,
  matchingPage,
  MATCH_END,
  MATCH_START,
  withoutParallelWorkers,
  type DocumentHitRow,
} from './document-search.repository.js';
import { organizationSearchLanguage } from './search-settings.repository.js';
import { searchAncestors } from './search.repository.js';
import { requireSearchableMatter } from './search.service.js';

/** A snippet with marked words, as parts: the marks never reach the page as markup. */
function snippetParts(snippet: string | null): SnippetPart[] {
  if (!snippet) return [];
  const parts: SnippetPart[] = [];
  for (const piece of snippet.split(MATCH_START)) {
    const end = piece.indexOf(MATCH_END);
    if (end === -1) {
      if (piece) parts.push({ text: piece, match: false });
      continue;
    }
    if (end > 0) parts.push({ text: piece.slice(0, end), match: true });
    const rest = piece.slice(end + 1);
    if (rest) parts.push({ text: rest, match: false });
  }
  return parts.map((p) => ({ ...p, text: p.text.replaceAll('\f', ' ').replaceAll('\u200b', '') }));
}

/** Formats whose text is kept page by page, so a hit can open at its page. */
function isPaged(row: Pick<DocumentHitRow, 'mimeType' | 'name'>): boolean {
  return row.mimeType === 'application/pdf' || row.mimeType === 'image/tiff' || /\.(pdf|tiff?)$/i.test(row.name);
}

function hitOf(row: DocumentHitRow, path: DocumentHit['path']): DocumentHit {
  return {
    nodeId: row.nodeId,
    name: row.name,
    versionNumber: row.versionNumber,
    current: row.versionNumber === row.currentVersion,
    mimeType: row.mimeType,
    fileSize: Number(row.fileSize),
    matter: {
      id: row.matterId,
      matterName: row.matterName,
      matterNumber: row.matterNumber,
      clientName: row.clientName,
      status: row.status,
    },
    path,
    uploadedBy: row.uploaderId && row.uploaderName ? { id: row.uploaderId, name: row.uploaderName } : null,
    uploadedAt: row.uploadedAt,
    page: isPaged(row) && row.pageNumber !== null ? row.pageNumber : null,
    snippet: snippetParts(row.snippet),
    nameMatched: row.nameMatched,
  };
}

/**
 * Searches the text and names of the files in the matters the caller may see (vaulted ones only with
 * canViewVaulted; a guest, the matters shared with them): the rule is part of the query, so no page is ever
 * filtered afterwards. Audited as SEARCH with the query, the filters and the count, since what a person searched
 * for can itself be evidence.
 */
export async function searchDocuments(
  ctx: AppContext,
  auth: AuthContext,
  input: DocumentSearchQuery,
  meta: RequestMeta,
): Promise<DocumentSearchResponse> {
  const { q, page, limit, ...filters } = input;
  const parts = parseDocumentQuery(q);
  if (termCount(parts) > DOCUMENT_SEARCH_LIMITS.termsMax) throw badRequest(DOCUMENT_SEARCH_MSG.tooManyTerms);
  if (parts.length === 0) throw badRequest(DOCUMENT_SEARCH_MSG.noTerms);
  if (filters.matterId !== undefined) await requireSearchableMatter(ctx, auth, filters.matterId);
  const user = auth.user;
  const language = await organizationSearchLanguage(ctx.db, user.organizationId);
  const compiled = await compileQuery(ctx.db, language, parts);
  if (compiled.required === 0) throw badRequest(DOCUMENT_SEARCH_MSG.noTerms);
  const cap = DOCUMENT_SEARCH_LIMITS.countMax;
  const { versionIds: ids, counted } = await ctx.db.transaction().execute(async (trx) => {
    await withoutParallelWorkers(trx);
    return matchingPage(trx, user, compiled.query, filters, { limit, offset: (page - 1) * limit }, cap);
  });
  const rows = await hitDetails(ctx.db, user.organizationId, compiled.query, ids);
  const ancestors = await searchAncestors(ctx.db, user.organizationId, [...new Set(rows.map((r) => r.nodeId))]);
  const paths = new Map<string, DocumentHit['path']>();
  for (const a of ancestors) {
    const path = paths.get(a.nodeId) ?? [];
    // Nearest folder first: each further one goes in front.
    path.unshift({ id: a.id, name: a.name });
    paths.set(a.nodeId, path);
  }
  const byId = new Map(rows.map((r) => [r.versionId, r]));
  const hits = ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [hitOf(row, paths.get(row.nodeId) ?? [])] : [];
  });
  const total = Math.min(counted, cap);
  const totalCapped = counted > cap;
  const applied = Object.fromEntries(Object.entries(filters).filter(([, v]) => v !== undefined));
  await auditFor(user, meta)(ctx.db, 'SEARCH', null, { query: q, count: total, countCapped: totalCapped, filters: applied, page });
  return { query: q, page, limit, total, totalCapped, hits };
}
