import { screen, waitFor, within } from '@testing-library/react';
import { Toaster } from 'sonner';
import { describe, expect, it, vi } from 'vitest';
import { NODE_MSG, type NodeVersionDto } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch } from '@/test/fetch-stub';
import { makeNode } from '@/test/node';
import { VersionsList } from './versions-list';

const HASH = (c: string) => c.repeat(64);
const version = (n: number, change: Partial<NodeVersionDto> = {}): NodeVersionDto => ({
  versionNumber: n,
  fileSize: 1000 * n,
  sha256Hash: HASH(String(n)),
  mimeType: 'application/pdf',
  createdBy: 'u1',
  createdByName: 'Ada Lovelace',
  createdAt: '2026-03-01T10:00:00.000Z',
  restoredFromVersion: null,
  isCurrent: false,
  ...change,
});
const file = makeNode({ id: 'f1', name: 'Defence.pdf', currentVersion: 2 });

function server(versions: NodeVersionDto[]) {
  let list = versions;
  return stubFetch(({ path, body, url }) => {
    if (path === '/_api/nodes/versions') return Response.json({ versions: list });
    if (path === '/_api/nodes/download-url')
      return Response.json({ url: `https://store.test/v${url.searchParams.get('version')}`, expiresAt: '' });
    if (path === '/_api/nodes/restore-version') {
      const from = (body as { versionNumber: number }).versionNumber;
      const next = list.length + 1;
      list = [
        version(next, { isCurrent: true, restoredFromVersion: from, sha256Hash: HASH(String(from)) }),
        ...list.map((v) => ({ ...v, isCurrent: false })),
      ];
      return Response.json({ node: { ...file, currentVersion: next } });
    }
    return Response.json({ error: 'unexpected' }, { status: 500 });
  });
}

describe('VersionsList', () => {
  it('lists versions newest first with size, uploader, a short sha256 and the current one marked', async () => {
    server([version(2, { isCurrent: true }), version(1)]);
    renderWithClient(<VersionsList node={file} canRestore canDownload />);
    const list = await screen.findByRole('list', { name: 'Versions of Defence.pdf' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => i.getAttribute('aria-label'))).toEqual(['Version 2', 'Version 1']);
    expect(within(items[0]!).getByText('Current')).toBeInTheDocument();
    expect(within(items[1]!).queryByText('Current')).not.toBeInTheDocument();
    expect(within(items[1]!).getByText('Ada Lovelace')).toBeInTheDocument();
    // The sha256 shows its first 12 characters; the whole is its title (and its tooltip).
    expect(within(items[1]!).getByText(`${'1'.repeat(12)}…`)).toHaveAttribute('title', HASH('1'));
    // The current version cannot be restored; an earlier one can.
    expect(within(items[0]!).queryByRole('button', { name: 'Restore version 2' })).not.toBeInTheDocument();
    expect(within(items[1]!).getByRole('button', { name: 'Restore version 1' })).toBeInTheDocument();
  });

  it('restores after a confirmation, as a new version, and says so', async () => {
    const calls = server([version(2, { isCurrent: true }), version(1)]);
    const { user } = renderWithClient(
      <>
        <VersionsList node={file} canRestore canDownload />
        <Toaster />
      </>,
    );
    await user.click(await screen.findByRole('button', { name: 'Restore version 1' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Restore version 1?' });
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(calls.some((c) => c.path === '/_api/nodes/restore-version')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Restore version 1' }));
    await user.click(within(screen.getByRole('alertdialog', { name: 'Restore version 1?' })).getByRole('button', { name: 'Restore' }));
    expect(await screen.findByText(NODE_MSG.versionRestored('Defence.pdf', 1, 3))).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/_api/nodes/restore-version')?.body).toEqual({ nodeId: 'f1', versionNumber: 1 });
    const v3 = await screen.findByRole('listitem', { name: 'Version 3' });
    expect(within(v3).getByText('Current')).toBeInTheDocument();
    expect(within(v3).getByText('restored from version 1')).toBeInTheDocument();
  });

  it('offers no Restore or Download to someone who may not, and Preview only for earlier versions when the host has one', async () => {
    server([version(2, { isCurrent: true }), version(1)]);
    const onPreview = vi.fn();
    const { user } = renderWithClient(<VersionsList node={file} canRestore={false} canDownload={false} onPreview={onPreview} />);
    await screen.findByRole('list', { name: 'Versions of Defence.pdf' });
    expect(screen.queryByRole('button', { name: /^Restore/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Download/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Preview version 2' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Preview version 1' }));
    expect(onPreview).toHaveBeenCalledWith(expect.objectContaining({ versionNumber: 1 }));
  });

  it('downloads the version asked for', async () => {
    const calls = server([version(2, { isCurrent: true }), version(1)]);
    const { user } = renderWithClient(<VersionsList node={file} canRestore canDownload />);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    await user.click(await screen.findByRole('button', { name: 'Download version 1' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect(calls.find((c) => c.path === '/_api/nodes/download-url')?.url.searchParams.get('version')).toBe('1');
  });
});
