import type { NodeTreeDto } from '@strongroom/contracts';

/** Every node of the tree, depth first. */
function flattenTree(nodes: readonly NodeTreeDto[]): NodeTreeDto[] {
  const out: NodeTreeDto[] = [];
  const walk = (list: readonly NodeTreeDto[]) => {
    for (const n of list) {
      out.push(n);
      walk(n.children);
    }
  };
  walk(nodes);
  return out;
}

export function findNode(nodes: readonly NodeTreeDto[], id: string | null): NodeTreeDto | null {
  if (id === null) return null;
  return flattenTree(nodes).find((n) => n.id === id) ?? null;
}

/** The children of a folder (null: the root). */
export function childrenOf(nodes: readonly NodeTreeDto[], folderId: string | null): NodeTreeDto[] {
  if (folderId === null) return [...nodes];
  return findNode(nodes, folderId)?.children ?? [];
}

/** The ids of every node below the given one. */
export function descendantIds(node: NodeTreeDto): Set<string> {
  return new Set(flattenTree(node.children).map((n) => n.id));
}

/** The folders from the root down to the given folder (inclusive); empty for the root or an unknown id. */
export function ancestorsOf(nodes: readonly NodeTreeDto[], folderId: string | null): NodeTreeDto[] {
  if (folderId === null) return [];
  const path: NodeTreeDto[] = [];
  const walk = (list: readonly NodeTreeDto[]): boolean => {
    for (const n of list) {
      path.push(n);
      if (n.id === folderId || walk(n.children)) return true;
      path.pop();
    }
    return false;
  };
  return walk(nodes) ? path : [];
}

/**
 * Whether `node` may be moved into `targetId` (null: the root): not into itself, not below itself, not into
 * the folder it is already in, and only into folders.
 */
export function isValidMoveTarget(nodes: readonly NodeTreeDto[], node: NodeTreeDto, targetId: string | null): boolean {
  if (targetId === node.parentId) return false;
  if (targetId === null) return true;
  if (targetId === node.id || descendantIds(node).has(targetId)) return false;
  return findNode(nodes, targetId)?.nodeType === 'folder';
}

/** Folders only, keeping the shape (for the tree and the move picker). */
export function folderTree(nodes: readonly NodeTreeDto[]): NodeTreeDto[] {
  return nodes.filter((n) => n.nodeType === 'folder').map((n) => ({ ...n, children: folderTree(n.children) }));
}

/** Case-insensitive name filter of a folder's entries. */
export function filterByName(nodes: readonly NodeTreeDto[], query: string): NodeTreeDto[] {
  const q = query.trim().toLowerCase();
  return q ? nodes.filter((n) => n.name.toLowerCase().includes(q)) : [...nodes];
}
