import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { FILE_TEXT_STATE_LABELS, PREVIEW_MSG, previewKindOf } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { FilePreviewPanel } from './components/file-preview-panel';
import type { PreviewNode } from './components/file-facts';

const HASH = 'a'.repeat(32) + 'b'.repeat(32);
const matter = { id: 'm1', matterName: 'Marlow Estates v Crane' };

function fileNode(name: string, over: Partial<PreviewNode> = {}): PreviewNode {
  return {
    id: `id-${name}`,
    matterId: 'm1',
    name,
    mimeType: null,
    fileSize: 120,
    sha256Hash: HASH,
    createdAt: '2026-01-02T10:00:00.000Z',
    createdByName: 'Jane Counsel',
    ...over,
  };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The server: a preview link for the node, then its bytes from the object URL. */
function serve(name: string, bytes: BlobPart, objectStatus: () => number = () => 200): FetchCall[] {
  return stubFetch(({ path }) => {
    if (path === '/_api/nodes/preview-url') {
      return json({
        url: '/_objects/k?sig=x&disposition=inline',
        expiresAt: new Date(Date.now() + 300_000).toISOString(),
        mimeType: 'text/plain; charset=utf-8',
        fileName: name,
        previewKind: previewKindOf(name, null),
      });
    }
    if (path === '/_objects/k') {
      const status = objectStatus();
      return status === 200 ? new Response(new Blob([bytes])) : json({ error: 'No such object', code: 'NOT_FOUND' }, status);
    }
    return json({ error: 'unexpected' }, 500);
  });
}

function show(node: PreviewNode, over: { canDownload?: boolean; onClose?: () => void } = {}) {
  return renderWithClient(
    <FilePreviewPanel
      node={node}
      matter={matter}
      path={`/Pleadings/${node.name}`}
      canDownload={over.canDownload ?? true}
      onClose={over.onClose ?? vi.fn()}
    />,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('FilePreviewPanel', () => {
  it('shows a text file monospace with the facts, Download and Close', async () => {
    serve('notes.txt', 'Clause 1. The vendor warrants title.\nClause 2. Completion on 1 March.');
    const onClose = vi.fn();
    const { user } = show(fileNode('notes.txt'), { onClose });
    const region = screen.getByRole('region', { name: 'Preview of notes.txt' });
    expect(within(region).getByRole('heading', { name: 'notes.txt' })).toBeInTheDocument();
    expect(await screen.findByLabelText('Text of notes.txt')).toHaveTextContent('Clause 2. Completion on 1 March.');
    const facts = screen.getByRole('region', { name: 'File details' });
    expect(facts).toHaveTextContent('Jane Counsel');
    expect(facts).toHaveTextContent('120 Bytes');
    expect(facts).toHaveTextContent(HASH);
    expect(facts).toHaveTextContent('/Pleadings/notes.txt');
    expect(facts).toHaveTextContent('Marlow Estates v Crane');
    expect(screen.getByRole('button', { name: 'Download' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy SHA-256' }));
    expect(await navigator.clipboard.readText()).toBe(HASH);
    await user.click(screen.getByRole('button', { name: 'Close preview' }));
    expect(onClose).toHaveBeenCalledOnce();
  });

  it('offers no Download to a reader who may only view, and says when a text is cut at 1 MB', async () => {
    serve('long.log', 'x'.repeat(1024 * 1024 + 10));
    show(fileNode('long.log', { fileSize: 1024 * 1024 + 10 }), { canDownload: false });
    expect(await screen.findByText(PREVIEW_MSG.textCut)).toBeInTheDocument();
    expect(screen.getByLabelText('Text of long.log').textContent).toHaveLength(1024 * 1024);
    expect(screen.queryByRole('button', { name: 'Download' })).not.toBeInTheDocument();
  });

  it('shows a CSV as a table of its first 500 rows, with a note when cut', async () => {
    const lines = ['clause,text', ...Array.from({ length: 600 }, (_, i) => `${i + 1},"Clause ${i + 1}, as agreed"`)];
    serve('clauses.csv', lines.join('\r\n'));
    show(fileNode('clauses.csv'));
    const table = await screen.findByRole('table', { name: 'Rows of clauses.csv' });
    expect(within(table).getByRole('columnheader', { name: 'clause' })).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'text' })).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(501);
    expect(within(table).getByRole('cell', { name: 'Clause 500, as agreed' })).toBeInTheDocument();
    expect(within(table).queryByRole('cell', { name: 'Clause 501, as agreed' })).not.toBeInTheDocument();
    expect(screen.getByText(PREVIEW_MSG.rowsCut(500))).toBeInTheDocument();
  });

  // The sanitising itself (no script, handler or remote image left) is checked in Chromium by e2e/file-preview.spec.ts:
  // happy-dom's DOM does not let DOMPurify remove elements as a browser does.
  it('shows an email: headers, the HTML body, attachments by name and size', async () => {
    const eml = [
      'From: "Ann Marlow" <ann@marlow.example>',
      'To: Jane Counsel <jane@firm.example>',
      'Cc: clerk@firm.example',
      'Subject: Completion statement',
      'Date: Tue, 24 Nov 2026 09:30:00 +0000',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/html; charset=utf-8',
      '',
      '<p onclick="steal()">Please find the <b>statement</b> attached.</p><script>steal()</script>' +
        '<img src="https://tracker.example/pixel.gif"><a href="https://marlow.example">Marlow</a>',
      '--b1',
      'Content-Type: application/pdf; name="statement.pdf"',
      'Content-Disposition: attachment; filename="statement.pdf"',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('%PDF-1.4 statement').toString('base64'),
      '--b1--',
      '',
    ].join('\r\n');
    serve('completion.eml', eml);
    show(fileNode('completion.eml'));
    const email = await screen.findByRole('article', { name: 'Email Completion statement' });
    expect(email).toHaveTextContent('Ann Marlow <ann@marlow.example>');
    expect(email).toHaveTextContent('Jane Counsel <jane@firm.example>');
    expect(email).toHaveTextContent('clerk@firm.example');
    expect(email).toHaveTextContent('Please find the statement attached.');
    expect(within(email).getByRole('link', { name: 'Marlow' })).toHaveAttribute('href', 'https://marlow.example');
    const attachments = within(email).getByRole('region', { name: 'Attachments' });
    expect(attachments).toHaveTextContent('statement.pdf');
    expect(attachments).toHaveTextContent('18 Bytes');
  });

  it('shows an image from the fetched bytes', async () => {
    serve('site-plan.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47]));
    show(fileNode('site-plan.png'));
    const img = await screen.findByRole('img', { name: 'site-plan.png' });
    await waitFor(() => expect(img.getAttribute('src')).toMatch(/^blob:/));
  });

  it('says there is no preview for other types, without fetching anything', async () => {
    const calls = serve('bundle.zip', 'PK');
    show(fileNode('bundle.zip', { mimeType: 'application/zip' }));
    expect(screen.getByText(PREVIEW_MSG.noPreview)).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'File details' })).toHaveTextContent(HASH);
    expect(screen.getByRole('button', { name: 'Download' })).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('says when a text-like file is too large to preview, without fetching it', async () => {
    const calls = serve('huge.csv', 'a,b');
    show(fileNode('huge.csv', { fileSize: 60 * 1024 * 1024 }));
    expect(screen.getByText(PREVIEW_MSG.tooLarge('50 MB'))).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('shows the error with Retry, and Retry loads the preview', async () => {
    let status = 404;
    const calls = serve('memo.txt', 'Second time lucky.', () => status);
    const { user } = show(fileNode('memo.txt'));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(PREVIEW_MSG.failed);
    expect(alert).toHaveTextContent('No such object');
    status = 200;
    await user.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByLabelText('Text of memo.txt')).toHaveTextContent('Second time lucky.');
    // A new link each time: the first may have expired.
    expect(calls.filter((c) => c.path === '/_api/nodes/preview-url')).toHaveLength(2);
  });

  it('shows an earlier version when asked, says so, and offers the way back to the current one', async () => {
    const calls = serve('notes.txt', 'Clause 1 as first drafted.');
    const onShowCurrent = vi.fn();
    const { user } = renderWithClient(
      <FilePreviewPanel
        node={fileNode('notes.txt')}
        matter={matter}
        path="/Pleadings/notes.txt"
        canDownload
        onClose={vi.fn()}
        version={{ versionNumber: 2, onShowCurrent }}
      />,
    );
    expect(await screen.findByLabelText('Text of notes.txt')).toHaveTextContent('Clause 1 as first drafted.');
    const link = calls.find((c) => c.path === '/_api/nodes/preview-url')!;
    expect(link.url.searchParams.get('version')).toBe('2');
    expect(screen.getByRole('status')).toHaveTextContent('Version 2: an earlier version, not the current one.');
    await user.click(screen.getByRole('button', { name: 'Show current version' }));
    expect(onShowCurrent).toHaveBeenCalledOnce();
  });

  it("tells whether the file's words can be searched, with the reason when they cannot", async () => {
    serve('scan.txt', 'x');
    show(fileNode('scan.txt', { textState: 'failed', textReason: 'The file could not be read.' }));
    const facts = screen.getByRole('region', { name: 'File details' });
    expect(facts).toHaveTextContent(`Search text${FILE_TEXT_STATE_LABELS.failed}: The file could not be read.`);
    await screen.findByLabelText('Text of scan.txt');
  });

  it('says Text pending while the text waits to be read', async () => {
    serve('new.txt', 'x');
    show(fileNode('new.txt', { textState: 'pending', textReason: null }));
    expect(screen.getByRole('region', { name: 'File details' })).toHaveTextContent(FILE_TEXT_STATE_LABELS.pending);
    await screen.findByLabelText('Text of new.txt');
  });
});
