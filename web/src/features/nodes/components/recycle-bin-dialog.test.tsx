import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NODE_MSG, type BinItemDto } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { RecycleBinButton, RecycleBinList } from './recycle-bin-dialog';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('@/lib/toast', () => ({ toast: { ...toasts, warning: vi.fn(), info: vi.fn(), message: vi.fn(), dismiss: vi.fn() } }));

const MATTER = 'a0a0a0a0-0000-4000-8000-000000000001';
const item = (over: Partial<BinItemDto>): BinItemDto => ({
  binEntryId: 'b0b0b0b0-0000-4000-8000-000000000001',
  nodeId: 'c0c0c0c0-0000-4000-8000-000000000001',
  name: 'Defence.pdf',
  nodeType: 'file',
  originalPath: '/Pleadings',
  fileCount: 1,
  totalBytes: 2048,
  deletedAt: '2026-11-20T10:00:00.000Z',
  deletedBy: 'd0d0d0d0-0000-4000-8000-000000000001',
  deletedByName: 'Ada Admin',
  purgeAfter: '2026-12-20T10:00:00.000Z',
  ...over,
});

let items: BinItemDto[];
let failList: number;
let calls: FetchCall[];
beforeEach(() => {
  toasts.success.mockClear();
  toasts.error.mockClear();
  items = [
    item({}),
    item({ binEntryId: 'b0b0b0b0-0000-4000-8000-000000000002', name: 'Exhibits', nodeType: 'folder', originalPath: '/', fileCount: 3 }),
  ];
  failList = 0;
  calls = stubFetch(({ method, path, body }) => {
    if (path === '/_api/nodes/bin' && method === 'GET') {
      if (failList > 0) {
        failList -= 1;
        return Response.json({ error: 'Database unavailable.', code: 'INTERNAL_ERROR' }, { status: 503 });
      }
      return Response.json({ items });
    }
    if (path === '/_api/nodes/bin/restore') {
      const id = (body as { binEntryId: string }).binEntryId;
      const found = items.find((i) => i.binEntryId === id);
      if (!found) return Response.json({ error: NODE_MSG.binEntryNotFound, code: 'NOT_FOUND' }, { status: 404 });
      items = items.filter((i) => i.binEntryId !== id);
      return Response.json({ node: { id: found.nodeId, name: found.name } });
    }
    if (path === '/_api/settings/retention') return Response.json({ binRetentionDays: 14 });
    return Response.json({ error: 'Not found.', code: 'NOT_FOUND' }, { status: 404 });
  });
});

describe('the recycle bin list', () => {
  it('lists each item with its folder, who deleted it and the day it is deleted forever', async () => {
    renderWithClient(<RecycleBinList matterId={MATTER} canRestore />);
    const list = await screen.findByRole('list', { name: 'Deleted items' });
    const file = within(list).getByRole('listitem', { name: 'Defence.pdf in the recycle bin' });
    expect(file).toHaveTextContent('From /Pleadings');
    expect(file).toHaveTextContent('Deleted by Ada Admin');
    expect(file).toHaveTextContent(
      NODE_MSG.deletedForeverOn(new Date('2026-12-20T10:00:00.000Z').toLocaleDateString(undefined, { dateStyle: 'medium' })),
    );
    expect(within(list).getByRole('listitem', { name: 'Exhibits in the recycle bin' })).toHaveTextContent('From Root · 3 files');
    expect(calls[0]?.url.searchParams.get('matterId')).toBe(MATTER);
  });

  it('restores an item, says so and drops it from the list', async () => {
    const { user } = renderWithClient(<RecycleBinList matterId={MATTER} canRestore />);
    await user.click(await screen.findByRole('button', { name: 'Restore Defence.pdf' }));
    expect(await screen.findByRole('button', { name: 'Restore Exhibits' })).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.queryByRole('button', { name: 'Restore Defence.pdf' })).toBeNull());
    expect(toasts.success).toHaveBeenCalledWith(NODE_MSG.restored('"Defence.pdf"'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ binEntryId: 'b0b0b0b0-0000-4000-8000-000000000001' }]);
  });

  it('shows the server’s reason when a restore is refused', async () => {
    const { user } = renderWithClient(<RecycleBinList matterId={MATTER} canRestore />);
    const button = await screen.findByRole('button', { name: 'Restore Defence.pdf' });
    items = [];
    await user.click(button);
    await vi.waitFor(() => expect(toasts.error).toHaveBeenCalledWith(NODE_MSG.restoreFailed, { description: NODE_MSG.binEntryNotFound }));
  });

  it('offers no Restore to someone who may not delete', async () => {
    renderWithClient(<RecycleBinList matterId={MATTER} canRestore={false} />);
    await screen.findByRole('list', { name: 'Deleted items' });
    expect(screen.queryByRole('button', { name: /Restore/ })).toBeNull();
  });

  it('shows the empty state', async () => {
    items = [];
    renderWithClient(<RecycleBinList matterId={MATTER} canRestore />);
    expect(await screen.findByText(NODE_MSG.binEmpty)).toBeInTheDocument();
  });

  it('shows a skeleton while loading, then an error with Retry that loads again', async () => {
    failList = 1;
    const { user } = renderWithClient(<RecycleBinList matterId={MATTER} canRestore />);
    expect(screen.getByLabelText('Loading the recycle bin')).toBeInTheDocument();
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(alert).toHaveTextContent(NODE_MSG.binLoadFailed);
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('list', { name: 'Deleted items' })).toBeInTheDocument();
  });

  it('opens from the toolbar button with the organization’s days', async () => {
    const { user } = renderWithClient(<RecycleBinButton matterId={MATTER} canRestore />);
    await user.click(screen.getByRole('button', { name: 'Recycle bin' }));
    const dialog = await screen.findByRole('dialog', { name: 'Recycle bin' });
    expect(await within(dialog).findByText(NODE_MSG.binDescription(14))).toBeInTheDocument();
    expect(await within(dialog).findByRole('list', { name: 'Deleted items' })).toBeInTheDocument();
  });
});
