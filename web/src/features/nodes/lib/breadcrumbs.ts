export type Crumb = { id: string | null; name: string };
export type ShortenedCrumbs = { items: (Crumb | 'ellipsis')[]; fullPath: string };

/**
 * More than four entries shorten to the first, an ellipsis and the last two; the full path
 * goes in a tooltip.
 */
export function shortenBreadcrumbs(crumbs: readonly Crumb[], max = 4): ShortenedCrumbs {
  const fullPath = crumbs.map((c) => c.name).join(' / ');
  if (crumbs.length <= max) return { items: [...crumbs], fullPath };
  return { items: [crumbs[0]!, 'ellipsis', ...crumbs.slice(-2)], fullPath };
}
