import { MATTER_MSG, type SearchGroup, type SearchNode, type SearchQuery, type SearchResponse } from '@strongroom/contracts';
import type { AppContext } from '../../shared/context.js';
import { notFound } from '../../shared/errors.js';
import { visibleMatters } from '../matters/index.js';
import type { AuthContext } from '../sessions/index.js';
import {
  findSearchMatters,
  findSearchNodes,
  searchAncestors,
  searchHits,
  searchTerm,
  type AncestorRow,
  type SearchHit,
} from './search.repository.js';

/** The folders from the root down to each node's own folder, by node id. */
function pathsByNode(rows: AncestorRow[]): Map<string, SearchNode['path']> {
  const paths = new Map<string, SearchNode['path']>();
  for (const row of rows) {
    const path = paths.get(row.nodeId) ?? [];
    // Rows come nearest folder first: each further one goes in front.
    path.unshift({ id: row.id, name: row.name });
    paths.set(row.nodeId, path);
  }
  return paths;
}

/** The matters of the page in the order of their best hit. */
function matterOrder(hits: SearchHit[]): string[] {
  return [...new Set(hits.map((h) => h.matterId))];
}

/**
 * The matter a search is limited to must be one the caller may see (the matters list's rule). Any other (another
 * organization's, a vaulted one without canViewVaulted, for a guest one not shared with them) answers 404, so a
 * search never tells which matters exist.
 */
export async function requireSearchableMatter(ctx: AppContext, auth: AuthContext, matterId: string): Promise<void> {
  const visible = await visibleMatters(ctx.db, auth.user).where('matters.id', '=', matterId).select('matters.id').executeTakeFirst();
  if (!visible) throw notFound(MATTER_MSG.matterNotFound);
}

/**
 * Searches the matters, folders and files the caller may see (a guest: the matters shared with them; vaulted ones
 * only with canViewVaulted) and answers one page of hits grouped by matter. With matterId, only that matter's
 * files and folders, at any depth; a matter the caller may not see answers 404 as one that does not exist. Only reads.
 */
export async function search(ctx: AppContext, auth: AuthContext, q: SearchQuery): Promise<SearchResponse> {
  if (q.matterId !== undefined) await requireSearchableMatter(ctx, auth, q.matterId);
  const user = q.matterId === undefined ? auth.user : { ...auth.user, matterId: q.matterId };
  const term = searchTerm(q.q);
  // One hit more than asked tells whether a next page exists.
  const hits = await searchHits(ctx.db, user, term, { limit: q.limit + 1, offset: (q.page - 1) * q.limit });
  const pageHits = hits.slice(0, q.limit);
  const nodeIds = pageHits.flatMap((h) => (h.nodeId ? [h.nodeId] : []));
  const matterIds = matterOrder(pageHits);
  const [matters, nodes, ancestors] = await Promise.all([
    findSearchMatters(ctx.db, user, term, matterIds),
    findSearchNodes(ctx.db, user.organizationId, nodeIds),
    searchAncestors(ctx.db, user.organizationId, nodeIds),
  ]);
  const paths = pathsByNode(ancestors);
  const nodeById = new Map(nodes.map((n) => [n.id, n]));
  const matterById = new Map(matters.map((m) => [m.id, m]));
  const groups: SearchGroup[] = [];
  for (const matterId of matterIds) {
    const m = matterById.get(matterId);
    if (!m) continue;
    const groupNodes: SearchNode[] = [];
    for (const hit of pageHits) {
      const n = hit.matterId === matterId && hit.nodeId ? nodeById.get(hit.nodeId) : undefined;
      if (!n) continue;
      groupNodes.push({
        id: n.id,
        name: n.name,
        kind: n.nodeType,
        size: n.nodeType === 'file' && n.fileSize !== null ? Number(n.fileSize) : null,
        parentId: n.parentId,
        path: paths.get(n.id) ?? [],
      });
    }
    groups.push({
      matter: {
        id: m.id,
        matterName: m.matterName,
        matterNumber: m.matterNumber,
        clientName: m.clientName,
        responsibleLawyer: m.responsibleLawyer,
        status: m.status,
        legalHold: m.legalHold,
        matched: m.matched === true,
      },
      nodes: groupNodes,
    });
  }
  return { query: q.q, page: q.page, limit: q.limit, hasMore: hits.length > q.limit, groups };
}
