import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { NodeTreeDto } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { FolderPicker } from './folder-tree';
import { CreateFolderDialog, MoveNodeDialog, RenameNodeDialog } from './node-dialogs';

function folder(id: string, parentId: string | null, children: NodeTreeDto[] = []): NodeTreeDto {
  return {
    id,
    matterId: 'm1',
    organizationId: 'o1',
    parentId,
    name: id,
    nodeType: 'folder',
    path: `/${id}`,
    fileSize: null,
    mimeType: null,
    sha256Hash: null,
    storagePath: null,
    uploadId: null,
    uploadStatus: null,
    uploadProgress: null,
    createdBy: null,
    createdAt: '',
    updatedAt: '',
    children,
  };
}

// Pleadings/ (Drafts/ (Old/)), Evidence/
const tree = [folder('Pleadings', null, [folder('Drafts', 'Pleadings', [folder('Old', 'Drafts')])]), folder('Evidence', null)];
const evidence = tree[1]!;

describe('the folder dialogs', () => {
  it('Create New Folder opens again with an empty name and no error', async () => {
    const view = (open: boolean) => (
      <CreateFolderDialog open={open} onOpenChange={vi.fn()} matterId="m1" parentId={null} parentName="Root" />
    );
    const { user, rerender } = renderWithClient(view(true));
    await user.click(screen.getByRole('button', { name: 'Create Folder' }));
    expect(screen.getByLabelText('Folder name')).toHaveAccessibleDescription(/.+/);
    await user.type(screen.getByLabelText('Folder name'), 'Half typed');

    rerender(view(false));
    rerender(view(true));
    expect(screen.getByLabelText('Folder name')).toHaveValue('');
    expect(screen.getByLabelText('Folder name')).not.toHaveAccessibleDescription(/.+/);
  });

  it('Rename opens again with the current name, and follows a name changed while it is open', async () => {
    const view = (open: boolean, name: string) => <RenameNodeDialog open={open} onOpenChange={vi.fn()} node={{ ...evidence, name }} />;
    const { user, rerender } = renderWithClient(view(true, 'Evidence'));
    await user.clear(screen.getByLabelText('New name'));
    await user.type(screen.getByLabelText('New name'), 'Exhibits');

    rerender(view(false, 'Evidence'));
    rerender(view(true, 'Evidence'));
    expect(screen.getByLabelText('New name')).toHaveValue('Evidence');

    rerender(view(true, 'Evidence (2024)'));
    expect(screen.getByLabelText('New name')).toHaveValue('Evidence (2024)');
  });

  it('Move opens again with no destination chosen', async () => {
    const view = (open: boolean) => <MoveNodeDialog open={open} onOpenChange={vi.fn()} node={evidence} nodes={tree} />;
    const { user, rerender } = renderWithClient(view(true));
    await user.click(screen.getByRole('button', { name: 'Pleadings' }));
    expect(screen.getByRole('button', { name: 'Move Here' })).toBeEnabled();

    rerender(view(false));
    rerender(view(true));
    expect(screen.getByRole('button', { name: 'Move Here' })).toBeDisabled();
  });
});

describe('the folder tree', () => {
  it('unfolds down to a folder chosen from outside, and keeps what the user folded elsewhere', async () => {
    const view = (selectedId: string | null) => <FolderPicker nodes={tree} selectedId={selectedId} onSelect={vi.fn()} label="Folders" />;
    const { user, rerender } = renderWithClient(view(null));
    const nav = () => within(screen.getByRole('navigation', { name: 'Folders' }));
    expect(nav().queryByRole('button', { name: 'Old' })).not.toBeInTheDocument();

    rerender(view('Old'));
    expect(nav().getByRole('button', { name: 'Old' })).toHaveAttribute('aria-current', 'true');
    expect(nav().getByRole('button', { name: 'Collapse Drafts' })).toHaveAttribute('aria-expanded', 'true');

    await user.click(nav().getByRole('button', { name: 'Collapse Pleadings' }));
    expect(nav().queryByRole('button', { name: 'Drafts' })).not.toBeInTheDocument();
    rerender(view('Old'));
    expect(nav().queryByRole('button', { name: 'Drafts' })).not.toBeInTheDocument();
  });
});
