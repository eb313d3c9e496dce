import { describe, expect, it, vi } from 'vitest';
import type { NodeTreeDto } from '@strongroom/contracts';
import { makeNode } from '@/test/node';
import { nodeActions, type NodePermissions } from './node-actions';

const node = (nodeType: NodeTreeDto['nodeType'], name: string): NodeTreeDto => makeNode({ id: name, nodeType });

const all: NodePermissions = { canUpload: true, canRename: true, canDelete: true, canRetrieve: true };
const menu = (n: NodeTreeDto, permissions: NodePermissions, readOnlyReason: string | null = null) =>
  nodeActions(n, { permissions, readOnlyReason, onOpen: vi.fn(), onDownload: vi.fn(), onChange: vi.fn() }).map((a) => ({
    label: a.label,
    disabled: a.disabled,
  }));

describe('a node menu', () => {
  it('offers Rename for files as for folders to those who may rename', () => {
    expect(menu(node('file', 'memo.pdf'), all).map((a) => a.label)).toEqual(['Download', 'Versions', 'Rename', 'Move', 'Delete']);
    expect(menu(node('folder', 'Drafts'), all).map((a) => a.label)).toEqual(['Open', 'Rename', 'Move', 'Delete']);
  });

  it('leaves Rename out for someone without the permission, and disables it in a held matter', () => {
    expect(menu(node('file', 'memo.pdf'), { ...all, canRename: false }).map((a) => a.label)).toEqual([
      'Download',
      'Versions',
      'Move',
      'Delete',
    ]);
    expect(menu(node('file', 'memo.pdf'), all, 'Actions are disabled due to legal hold')).toContainEqual({
      label: 'Rename',
      disabled: true,
    });
  });

  it('offers Versions for files only, to anyone who sees them, even in a held matter', () => {
    const none: NodePermissions = { canUpload: false, canRename: false, canDelete: false, canRetrieve: false };
    expect(menu(node('file', 'memo.pdf'), none, 'Actions are disabled due to legal hold')).toContainEqual({
      label: 'Versions',
      disabled: false,
    });
    expect(menu(node('folder', 'Drafts'), all).map((a) => a.label)).not.toContain('Versions');
  });

  it('offers Open preview first for files when the browser can show one, disabled for those who may not preview', () => {
    const withPreview = (n: NodeTreeDto, permissions: NodePermissions) =>
      nodeActions(n, {
        permissions,
        readOnlyReason: 'Actions are disabled due to legal hold',
        onOpen: vi.fn(),
        onDownload: vi.fn(),
        onPreview: vi.fn(),
        onChange: vi.fn(),
      }).map((a) => ({ label: a.label, disabled: a.disabled }));
    expect(withPreview(node('file', 'memo.pdf'), all)[0]).toEqual({ label: 'Open preview', disabled: false });
    expect(withPreview(node('folder', 'Drafts'), all).map((a) => a.label)).not.toContain('Open preview');
    // A guest with a view grant: preview yes, download no.
    const viewOnly = { ...all, canRetrieve: false, canPreview: true };
    expect(withPreview(node('file', 'memo.pdf'), viewOnly).slice(0, 2)).toEqual([
      { label: 'Open preview', disabled: false },
      { label: 'Download', disabled: true },
    ]);
    expect(withPreview(node('file', 'memo.pdf'), { ...all, canRetrieve: false })[0]).toEqual({ label: 'Open preview', disabled: true });
  });
});
