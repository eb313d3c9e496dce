import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NodeTreeDto } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { makeNode } from '@/test/node';
import { ContentsTable } from './contents-table';

const COUNT = 5000;
const files: NodeTreeDto[] = Array.from({ length: COUNT }, (_, i) =>
  makeNode({ id: `f${i}`, name: `Exhibit ${String(i + 1).padStart(4, '0')}.pdf`, createdByName: 'Ada Lovelace' }),
);

// The test window lays out no boxes: the list gets a 600 px view over rows of 53 px, and scrolls by the offset it
// is told, as a browser's would.
const VIEW_PX = 600;
const isScroller = (el: HTMLElement) => el.dataset.testid === 'contents-scroller';
const offsets = new WeakMap<HTMLElement, number>();
beforeEach(() => {
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return isScroller(this) ? VIEW_PX : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockImplementation(function (this: HTMLElement) {
    return isScroller(this) ? COUNT * 53 + 40 : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'scrollTop', 'get').mockImplementation(function (this: HTMLElement) {
    return offsets.get(this) ?? 0;
  });
  vi.spyOn(HTMLElement.prototype, 'scrollTo').mockImplementation(function (this: HTMLElement, opts?: ScrollToOptions | number) {
    offsets.set(this, typeof opts === 'object' ? (opts.top ?? 0) : 0);
    this.dispatchEvent(new Event('scroll'));
  });
});
afterEach(() => vi.restoreAllMocks());

function renderList(onActivate = vi.fn()) {
  const r = renderWithClient(
    <ContentsTable entries={files} folderName="Bundle" actionsFor={() => []} onActivate={onActivate} selectedId={null} />,
  );
  const table = screen.getByRole('table', { name: 'Contents of Bundle' });
  const drawn = () => within(table).queryAllByRole('row', { name: /^File / });
  return { ...r, table, drawn, onActivate };
}

describe('a folder of 5,000 files', () => {
  it('draws only a window of rows, and says how many there are in all', () => {
    const { table, drawn } = renderList();
    expect(table).toHaveAttribute('aria-rowcount', String(COUNT + 1));
    expect(drawn().length).toBeGreaterThan(5);
    expect(drawn().length).toBeLessThan(60);
    expect(drawn()[0]).toHaveAccessibleName('File Exhibit 0001.pdf');
    expect(drawn()[0]).toHaveAttribute('aria-rowindex', '2');
    // The header row stays in the table (and sticks to the top of the scrolling list).
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toContain('Name');
  });

  it('moves down with the arrow keys and to the last file with End, scrolling it into view', async () => {
    const { user, drawn } = renderList();
    drawn()[0]!.focus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('row', { name: 'File Exhibit 0002.pdf' })).toHaveFocus();
    await user.keyboard('{End}');
    const last = await screen.findByRole('row', { name: 'File Exhibit 5000.pdf' });
    await vi.waitFor(() => expect(last).toHaveFocus());
    expect(last).toHaveAttribute('aria-rowindex', String(COUNT + 1));
    expect(screen.getByTestId('contents-scroller').scrollTop).toBeGreaterThan(0);
    expect(screen.queryByRole('row', { name: 'File Exhibit 0001.pdf' })).not.toBeInTheDocument();
    expect(drawn().length).toBeLessThan(60);
    await user.keyboard('{Home}');
    await vi.waitFor(() => expect(screen.getByRole('row', { name: 'File Exhibit 0001.pdf' })).toHaveFocus());
  });

  it('opens a file with Enter or a double-click', async () => {
    const { user, drawn, onActivate } = renderList();
    drawn()[2]!.focus();
    await user.keyboard('{Enter}');
    expect(onActivate).toHaveBeenLastCalledWith(files[2]);
    await user.dblClick(drawn()[4]!);
    expect(onActivate).toHaveBeenLastCalledWith(files[4]);
  });
});
