import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_MSG } from '@strongroom/contracts';
import { SearchBox } from '@/app/shell/search-box';
import { renderWithClient } from '@/test/dom';
import { MattersPage } from './matters-page';

let listCalls: URL[];

/** Shows the router's current address, so the test reads it from the page. */
function Where() {
  const l = useLocation();
  return <output data-testid="location">{l.pathname + l.search}</output>;
}

beforeEach(() => {
  listCalls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const u = new URL(url, 'http://strongroom.test');
      if (u.pathname === '/_api/matters/list') {
        listCalls.push(u);
        return Response.json({ matters: [], totalCount: 0 });
      }
      // The top bar's suggestions, asked for while the text is typed: none found.
      if (u.pathname === '/_api/search')
        return Response.json({ query: u.searchParams.get('q') ?? '', page: 1, limit: 5, hasMore: false, groups: [] });
      if (u.pathname === '/_api/auth/session')
        return Response.json({ error: 'Please log in to continue.', code: 'UNAUTHENTICATED' }, { status: 401 });
      return Response.json([]);
    }),
  );
});

describe("the top bar's search", () => {
  it('lands on the Matters page with the list filtered and the search field showing the text', async () => {
    const { user } = renderWithClient(
      <MemoryRouter initialEntries={['/']}>
        <SearchBox />
        <Where />
        <Routes>
          <Route path="/" element={<p>Dashboard</p>} />
          <Route path="/matters" element={<MattersPage />} />
        </Routes>
      </MemoryRouter>,
    );
    await user.type(screen.getByRole('combobox', { name: SEARCH_MSG.label }), 'lease{Enter}');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/matters?q=lease'));
    await waitFor(() => expect(listCalls.length).toBeGreaterThan(0));
    expect(listCalls.every((u) => u.searchParams.get('search') === 'lease')).toBe(true);
    expect(screen.getByLabelText('Search matters')).toHaveValue('lease');
  });

  it('reads the older ?search= links as q', async () => {
    renderWithClient(
      <MemoryRouter initialEntries={['/matters?search=harbour']}>
        <Routes>
          <Route path="/matters" element={<MattersPage />} />
        </Routes>
      </MemoryRouter>,
    );
    await waitFor(() => expect(listCalls.at(-1)?.searchParams.get('search')).toBe('harbour'));
    expect(screen.getByLabelText('Search matters')).toHaveValue('harbour');
  });

  it("keeps the page's own search in the same q parameter", async () => {
    const { user } = renderWithClient(
      <MemoryRouter initialEntries={['/matters']}>
        <Where />
        <Routes>
          <Route path="/matters" element={<MattersPage />} />
        </Routes>
      </MemoryRouter>,
    );
    await user.type(screen.getByLabelText('Search matters'), 'estate');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/matters?q=estate'));
    await waitFor(() => expect(listCalls.at(-1)!.searchParams.get('search')).toBe('estate'));
  });
});
