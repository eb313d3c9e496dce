import { describe, expect, it } from 'vitest';
import type { NodeTreeDto } from '@strongroom/contracts';
import { ancestorsOf, childrenOf, descendantIds, filterByName, folderTree, isValidMoveTarget } from './tree';
import { makeNode } from '@/test/node';
import { shortenBreadcrumbs } from './breadcrumbs';

function node(id: string, parentId: string | null, nodeType: 'file' | 'folder', children: NodeTreeDto[] = []): NodeTreeDto {
  return makeNode({ id, parentId, nodeType, children });
}

// A/ (B/ (C/, f1), f2), D/
const tree = [
  node('A', null, 'folder', [node('B', 'A', 'folder', [node('C', 'B', 'folder'), node('f1', 'B', 'file')]), node('f2', 'A', 'file')]),
  node('D', null, 'folder'),
];
const A = tree[0]!;
const B = A.children[0]!;

describe('tree helpers', () => {
  it('lists the descendants of a folder', () => {
    expect([...descendantIds(A)].sort()).toEqual(['B', 'C', 'f1', 'f2']);
    expect(descendantIds(tree[1]!).size).toBe(0);
  });
  it('answers the children of the root and of a folder', () => {
    expect(childrenOf(tree, null).map((n) => n.id)).toEqual(['A', 'D']);
    expect(childrenOf(tree, 'B').map((n) => n.id)).toEqual(['C', 'f1']);
    expect(childrenOf(tree, 'missing')).toEqual([]);
  });
  it('finds the path to a folder', () => {
    expect(ancestorsOf(tree, 'C').map((n) => n.id)).toEqual(['A', 'B', 'C']);
    expect(ancestorsOf(tree, null)).toEqual([]);
  });
  it('refuses moves into itself, a descendant, the current parent or a file', () => {
    expect(isValidMoveTarget(tree, A, 'A')).toBe(false);
    expect(isValidMoveTarget(tree, A, 'C')).toBe(false);
    expect(isValidMoveTarget(tree, A, null)).toBe(false);
    expect(isValidMoveTarget(tree, B, 'A')).toBe(false);
    expect(isValidMoveTarget(tree, B, 'f2')).toBe(false);
  });
  it('allows moves elsewhere', () => {
    expect(isValidMoveTarget(tree, A, 'D')).toBe(true);
    expect(isValidMoveTarget(tree, B, null)).toBe(true);
    expect(isValidMoveTarget(tree, B, 'D')).toBe(true);
  });
  it('keeps only folders for the tree', () => {
    const folders = folderTree(tree);
    expect(folders[0]!.children.map((n) => n.id)).toEqual(['B']);
    expect(folders[0]!.children[0]!.children.map((n) => n.id)).toEqual(['C']);
  });
  it('filters entries by name ignoring case', () => {
    expect(filterByName(A.children, 'F').map((n) => n.id)).toEqual(['f2']);
    expect(filterByName(A.children, ' ').length).toBe(2);
  });
});

describe('shortenBreadcrumbs', () => {
  const crumbs = ['Root', 'A', 'B', 'C', 'D'].map((name, i) => ({ id: i === 0 ? null : name, name }));
  it('keeps up to four entries', () => {
    expect(shortenBreadcrumbs(crumbs.slice(0, 4)).items).toHaveLength(4);
  });
  it('shortens to first, ellipsis and last two', () => {
    const s = shortenBreadcrumbs(crumbs);
    expect(s.items).toEqual([crumbs[0], 'ellipsis', crumbs[3], crumbs[4]]);
    expect(s.fullPath).toBe('Root / A / B / C / D');
  });
});
