import { MemoryRouter } from 'react-router';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { NodeTreeDto } from '@strongroom/contracts';
import { TooltipProvider } from '@/components/ui/tooltip';
import { renderWithClient } from '@/test/dom';
import { makeNode } from '@/test/node';
import { FileBrowser } from './file-browser';

const MATTER = '11111111-1111-4111-8111-111111111111';

function node(id: string, name: string, extra: Partial<NodeTreeDto> = {}): NodeTreeDto {
  return makeNode({ id, name, matterId: MATTER, fileSize: 100, ...extra });
}

const NODES = [
  node('f1', 'Defence.pdf', { fileSize: 3000, createdByName: 'Ada Lovelace', updatedAt: '2026-03-01T10:00:00.000Z' }),
  node('f2', 'budget.xlsx', { fileSize: 50, createdByName: 'Zoe Quill', updatedAt: '2026-01-01T10:00:00.000Z' }),
  node('f3', 'Claim.docx', { fileSize: 700, createdByName: 'Ben Marsh', updatedAt: '2026-02-01T10:00:00.000Z' }),
  node('d1', 'Pleadings', { nodeType: 'folder', fileSize: null }),
];

function renderBrowser() {
  const r = renderWithClient(
    <MemoryRouter>
      <TooltipProvider>
        <FileBrowser
          matterId={MATTER}
          nodes={NODES}
          folderId={null}
          onFolderChange={() => {}}
          permissions={{ canUpload: true, canRename: true, canDelete: true, canRetrieve: true }}
          readOnlyReason={null}
          onUpload={() => {}}
        />
      </TooltipProvider>
    </MemoryRouter>,
  );
  const table = screen.getByRole('table', { name: 'Contents of Root' });
  const names = () =>
    within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.getAttribute('aria-label'));
  const header = (name: string) => within(table).getByRole('button', { name });
  return { ...r, table, names, header };
}

describe('the contents of a folder', () => {
  it('lists folders first, then files by name; shows each file kind and who uploaded it', () => {
    const { table, names } = renderBrowser();
    expect(names()).toEqual(['Folder Pleadings', 'File budget.xlsx', 'File Claim.docx', 'File Defence.pdf']);
    const defence = within(table).getByRole('row', { name: 'File Defence.pdf' });
    expect(defence).toHaveTextContent('PDF');
    expect(defence).toHaveTextContent('Ada Lovelace');
    expect(within(table).getByRole('row', { name: 'File Claim.docx' })).toHaveTextContent('Word');
  });

  it('sorts by size, modified, type and uploader, each way, folders staying first', async () => {
    const { user, names, header, table } = renderBrowser();
    await user.click(header('Size'));
    expect(names()).toEqual(['Folder Pleadings', 'File budget.xlsx', 'File Claim.docx', 'File Defence.pdf']);
    await user.click(header('Size'));
    expect(names()).toEqual(['Folder Pleadings', 'File Defence.pdf', 'File Claim.docx', 'File budget.xlsx']);
    expect(within(table).getByRole('columnheader', { name: /Size/ })).toHaveAttribute('aria-sort', 'descending');
    await user.click(header('Modified'));
    expect(names()).toEqual(['Folder Pleadings', 'File budget.xlsx', 'File Claim.docx', 'File Defence.pdf']);
    await user.click(header('Type'));
    expect(names()).toEqual(['Folder Pleadings', 'File budget.xlsx', 'File Defence.pdf', 'File Claim.docx']);
    await user.click(header('Added by'));
    expect(names()).toEqual(['Folder Pleadings', 'File Defence.pdf', 'File Claim.docx', 'File budget.xlsx']);
  });
});
