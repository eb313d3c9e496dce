import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { DOCUMENT_SEARCH_MSG, SEARCH_MSG, type SearchResponse } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch } from '@/test/fetch-stub';
import { SearchBox } from './search-box';

const answer: SearchResponse = {
  query: 'zeph',
  page: 1,
  limit: 20,
  hasMore: false,
  groups: [
    {
      matter: {
        id: 'm1',
        matterName: 'Harbour Acquisition',
        matterNumber: 'MAT-2026-501',
        clientName: 'Quayside Holdings',
        responsibleLawyer: 'Imogen Marlowe',
        status: 'Vaulted',
        legalHold: true,
        matched: false,
      },
      nodes: [
        {
          id: 'f1',
          name: 'Zephyr agreement.pdf',
          kind: 'file',
          size: 2048,
          parentId: 'd3',
          path: [
            { id: 'd1', name: 'Contracts' },
            { id: 'd2', name: 'Signed' },
            { id: 'd3', name: 'Final' },
          ],
        },
        { id: 'd9', name: 'Zephyr letters', kind: 'folder', size: null, parentId: null, path: [] },
      ],
    },
  ],
};

function Where() {
  const l = useLocation();
  return <output aria-label="location">{l.pathname + l.search}</output>;
}

function renderBox() {
  const calls = stubFetch(() => Response.json(answer));
  const r = renderWithClient(
    <MemoryRouter>
      <SearchBox />
      <Where />
    </MemoryRouter>,
  );
  return { ...r, calls };
}

const location = () => screen.getByRole('status', { hidden: true, name: 'location' }).textContent;

describe('the top bar search', () => {
  it('asks once typing pauses, from two characters, and lists results grouped by matter with paths and badges', async () => {
    const r = renderBox();
    const box = screen.getByRole('combobox', { name: SEARCH_MSG.label });
    await r.user.type(box, 'z');
    expect(box).toHaveAttribute('aria-expanded', 'false');
    await r.user.type(box, 'eph');
    const options = await screen.findAllByRole('option');
    expect(r.calls.filter((c) => c.path === '/_api/search')).toHaveLength(1);
    expect(r.calls.find((c) => c.path === '/_api/search')!.url.searchParams.get('q')).toBe('zeph');
    expect(options.map((o) => o.textContent)).toEqual([
      expect.stringContaining('Harbour Acquisition'),
      expect.stringContaining('Root / Contracts / Signed / Final'),
      expect.stringContaining('Zephyr letters'),
      DOCUMENT_SEARCH_MSG.searchContents('zeph'),
    ]);
    expect(options[0]).toHaveTextContent('Held');
    expect(options[0]).toHaveTextContent('Vaulted');
    expect(screen.getByRole('group', { name: 'Harbour Acquisition' })).toBeInTheDocument();
  });

  it('moves with the arrows and opens the highlighted file at its folder with the file selected', async () => {
    const r = renderBox();
    const box = screen.getByRole('combobox', { name: SEARCH_MSG.label });
    await r.user.type(box, 'zeph');
    const options = await screen.findAllByRole('option');
    await r.user.keyboard('{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', options[0]!.id);
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    await r.user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}');
    // Past the last option (the search of document contents) the highlight wraps to the first, and Up from there to the last.
    expect(box).toHaveAttribute('aria-activedescendant', options[0]!.id);
    await r.user.keyboard('{ArrowUp}');
    expect(box).toHaveAttribute('aria-activedescendant', options[3]!.id);
    await r.user.keyboard('{ArrowUp}{ArrowUp}');
    expect(box).toHaveAttribute('aria-activedescendant', options[1]!.id);
    await r.user.keyboard('{Enter}');
    expect(location()).toBe('/matters/m1?folder=d3&file=f1');
    expect(box).toHaveAttribute('aria-expanded', 'false');
  });

  it("ends the list with a search of the documents' contents, which opens the search page with the words", async () => {
    const r = renderBox();
    const box = screen.getByRole('combobox', { name: SEARCH_MSG.label });
    await r.user.type(box, 'zeph clause');
    const contents = await screen.findByRole('option', { name: DOCUMENT_SEARCH_MSG.searchContents('zeph clause') });
    await r.user.click(contents);
    expect(location()).toBe('/search?q=zeph+clause');
    expect(box).toHaveAttribute('aria-expanded', 'false');
  });

  it('offers the search of contents when no name matches too, from the keyboard', async () => {
    stubFetch(() => Response.json({ ...answer, groups: [] }));
    const r = renderWithClient(
      <MemoryRouter>
        <SearchBox />
        <Where />
      </MemoryRouter>,
    );
    const box = screen.getByRole('combobox', { name: SEARCH_MSG.label });
    await r.user.type(box, 'indemnity');
    await screen.findByText(SEARCH_MSG.noResults);
    await r.user.keyboard('{ArrowDown}{Enter}');
    expect(location()).toBe('/search?q=indemnity');
  });

  it('Enter without a highlighted result opens the Matters page filtered by the text; Escape closes the list', async () => {
    const r = renderBox();
    const box = screen.getByRole('combobox', { name: SEARCH_MSG.label });
    await r.user.type(box, 'zeph');
    await screen.findAllByRole('option');
    await r.user.keyboard('{Escape}');
    expect(box).toHaveAttribute('aria-expanded', 'false');
    await r.user.keyboard('{Enter}');
    expect(location()).toBe('/matters?q=zeph');
  });

  it('Ctrl+K and Cmd+K focus the search from anywhere', async () => {
    const r = renderBox();
    const box = screen.getByRole('combobox', { name: SEARCH_MSG.label });
    expect(box).toHaveAttribute('aria-keyshortcuts', 'Control+K Meta+K');
    expect(box).not.toHaveFocus();
    await r.user.keyboard('{Control>}k{/Control}');
    await waitFor(() => expect(box).toHaveFocus());
    box.blur();
    await r.user.keyboard('{Meta>}k{/Meta}');
    await waitFor(() => expect(box).toHaveFocus());
  });
});
