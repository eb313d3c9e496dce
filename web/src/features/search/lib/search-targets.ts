import type { SearchGroup, SearchMatter, SearchNode } from '@strongroom/contracts';
import { workspaceHref } from '@/lib/workspace-links';

/** One choosable row of the results: a matter, or a file or folder inside one. */
export type SearchOption =
  | { key: string; kind: 'matter'; matter: SearchMatter; href: string }
  | { key: string; kind: 'node'; matter: SearchMatter; node: SearchNode; href: string }
  | { key: string; kind: 'contents'; q: string; href: string };

/**
 * Where a result leads: a matter opens its page; a folder opens the page at that folder; a file opens it at the
 * file's folder with the file selected.
 */
function hrefOf(matter: SearchMatter, node?: SearchNode): string {
  if (node?.kind === 'folder') return workspaceHref(matter.id, { folder: node.id });
  if (node?.kind === 'file') return workspaceHref(matter.id, { folder: node.parentId, file: node.id });
  return workspaceHref(matter.id);
}

/** The options in the order the list shows them: each matter, then its files and folders. */
export function optionsOf(groups: SearchGroup[]): SearchOption[] {
  return groups.flatMap((g) => [
    { key: `m-${g.matter.id}`, kind: 'matter' as const, matter: g.matter, href: hrefOf(g.matter) },
    ...g.nodes.map((node) => ({ key: `n-${node.id}`, kind: 'node' as const, matter: g.matter, node, href: hrefOf(g.matter, node) })),
  ]);
}

/** The folder path shown under a file or folder: Root / Contracts / Signed. */
export function pathText(node: SearchNode): string {
  return ['Root', ...node.path.map((p) => p.name)].join(' / ');
}

/** The last option: the same words searched in the text of documents, on the search page. */
export function contentsOption(q: string): SearchOption {
  return { key: 'contents', kind: 'contents', q, href: `/search?${new URLSearchParams({ q }).toString()}` };
}
