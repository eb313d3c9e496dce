import type { SearchGroup, SearchMatter, SearchNode } from '@strongroom/contracts';

/** One choosable row of the results: a matter, or a file or folder inside one. */
export type SearchOption =
  | { key: string; kind: 'matter'; matter: SearchMatter; href: string }
  | { key: string; kind: 'node'; matter: SearchMatter; node: SearchNode; href: string };

/**
 * Where a result leads: a matter opens its detail dialog; a folder opens the dialog at that folder; a file opens it
 * at the file's folder with the file selected (the matters page reads matter, folder and file).
 */
function hrefOf(matter: SearchMatter, node?: SearchNode): string {
  const qs = new URLSearchParams({ matter: matter.id });
  if (node?.kind === 'folder') qs.set('folder', node.id);
  if (node?.kind === 'file') {
    if (node.parentId) qs.set('folder', node.parentId);
    qs.set('file', node.id);
  }
  return `/matters?${qs.toString()}`;
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
