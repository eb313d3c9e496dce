import { screen, waitFor, within } from '@testing-library/react';
import { toast, Toaster } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { NodeTreeDto } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch } from '@/test/fetch-stub';
import { FolderPicker } from './folder-tree';
import { makeNode } from '@/test/node';
import { CreateFolderDialog, MoveNodeDialog, RenameNodeDialog } from './node-dialogs';

function folder(id: string, parentId: string | null, children: NodeTreeDto[] = []): NodeTreeDto {
  return makeNode({ id, parentId, nodeType: 'folder', children });
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

describe('renaming a file', () => {
  // Sonner keeps its toasts between renders: each test starts without the last one's.
  afterEach(() => toast.dismiss());
  const memo: NodeTreeDto = { ...folder('memo', null), name: 'brief.final.pdf', nodeType: 'file', path: '/brief.final.pdf', fileSize: 9 };
  const view = (onOpenChange = vi.fn()) => (
    <>
      <RenameNodeDialog open onOpenChange={onOpenChange} node={memo} />
      <Toaster />
    </>
  );
  const field = () => screen.getByLabelText('New name') as HTMLInputElement;

  it('opens as Rename File with the name selected up to its extension, so typing keeps the type', async () => {
    const { user } = renderWithClient(view());
    expect(screen.getByRole('dialog', { name: 'Rename File' })).toBeInTheDocument();
    await waitFor(() => expect(field()).toHaveFocus());
    expect(field().value.slice(field().selectionStart!, field().selectionEnd!)).toBe('brief.final');
    await user.keyboard('Claim');
    expect(field()).toHaveValue('Claim.pdf');
  });

  it("shows the server's refusal on the field and stays open; a name clash included", async () => {
    const clash = 'An item named "Letter.pdf" already exists in this folder.';
    const calls = stubFetch(() =>
      Response.json({ error: clash, code: 'CONFLICT_ERROR', details: { reason: 'NAME_TAKEN', field: 'name' } }, { status: 409 }),
    );
    const onOpenChange = vi.fn();
    const { user } = renderWithClient(view(onOpenChange));
    await user.clear(field());
    await user.type(field(), 'Letter.pdf');
    await user.click(screen.getByRole('button', { name: 'Rename' }));

    expect(await screen.findByText(clash)).toBeInTheDocument();
    expect(field()).toHaveAttribute('aria-invalid', 'true');
    expect(field()).toHaveAccessibleDescription(clash);
    expect(screen.getByRole('dialog', { name: 'Rename File' })).toBeInTheDocument();
    expect(onOpenChange).not.toHaveBeenCalledWith(false);
    expect(calls.map((c) => c.body)).toEqual([{ nodeId: memo.id, newName: 'Letter.pdf' }]);
  });

  it('names the renamed file in the toast with Undo, and closes', async () => {
    stubFetch(() =>
      Response.json({ node: { ...memo, name: 'Claim.pdf' }, undoId: crypto.randomUUID(), undoExpiresAt: new Date().toISOString() }),
    );
    const onOpenChange = vi.fn();
    const { user } = renderWithClient(view(onOpenChange));
    await waitFor(() => expect(field()).toHaveFocus());
    await user.keyboard('Claim');
    await user.click(screen.getByRole('button', { name: 'Rename' }));
    expect(await screen.findByText('"brief.final.pdf" was renamed.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Undo' })).toBeInTheDocument();
    expect(onOpenChange).toHaveBeenCalledWith(false);
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
