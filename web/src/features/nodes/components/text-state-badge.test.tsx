import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { FILE_TEXT_STATE_LABELS } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { makeNode } from '@/test/node';
import { ContentsTable } from './contents-table';

const entries = [
  makeNode({ id: 'f1', name: 'Pending.pdf', textState: 'pending', textReason: null }),
  makeNode({ id: 'f2', name: 'Broken.pdf', textState: 'failed', textReason: 'The PDF is encrypted.' }),
  makeNode({ id: 'f3', name: 'Photo.png', textState: 'no_text', textReason: 'No words were found in the image.' }),
  makeNode({ id: 'f4', name: 'Indexed.txt', textState: 'indexed', textReason: null }),
  makeNode({ id: 'f5', name: 'Older.txt', textState: null }),
  makeNode({ id: 'd1', name: 'Folder', nodeType: 'folder' }),
];

function row(name: string) {
  return screen.getByRole('row', { name });
}

describe('the text state of files in a folder', () => {
  it('marks files whose text is pending, failed or absent, with the reason, and leaves the others calm', () => {
    renderWithClient(<ContentsTable entries={entries} folderName="Root" actionsFor={() => []} onActivate={vi.fn()} selectedId={null} />);
    expect(within(row('File Pending.pdf')).getByTitle(FILE_TEXT_STATE_LABELS.pending)).toHaveTextContent('Text pending');
    const failed = within(row('File Broken.pdf')).getByTitle(`${FILE_TEXT_STATE_LABELS.failed}: The PDF is encrypted.`);
    expect(failed).toHaveTextContent('Text failed: The PDF is encrypted.');
    const none = within(row('File Photo.png')).getByTitle(`${FILE_TEXT_STATE_LABELS.no_text}: No words were found in the image.`);
    expect(none).toHaveTextContent('No text: No words were found in the image.');
    for (const name of ['File Indexed.txt', 'File Older.txt', 'Folder Folder']) {
      expect(row(name)).not.toHaveTextContent(/Text (pending|failed|indexed)|No text/);
    }
  });
});
