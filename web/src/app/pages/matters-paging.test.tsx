import { screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { makeMatter } from '@/test/matter';
import { MattersPage } from './matters-page';

const TOTAL = 300;
const PAGE_SIZE = 50;
let calls: FetchCall[];
/** The answer's count stopped at its bound (10,000): every page comes back full. */
let capped: boolean;

function Where() {
  const l = useLocation();
  return <output data-testid="location">{l.pathname + l.search}</output>;
}

beforeEach(() => {
  capped = false;
  calls = stubFetch(({ path, url }) => {
    if (path === '/_api/matters/list') {
      const page = Number(url.searchParams.get('page'));
      const from = (page - 1) * PAGE_SIZE;
      if (capped) {
        const matters = Array.from({ length: PAGE_SIZE }, (_, i) =>
          makeMatter({ id: `00000000-0000-4000-8000-${String(from + i).padStart(12, '0')}`, matterName: `Matter ${from + i + 1}` }),
        );
        return Response.json({ matters, totalCount: 10_000, totalCountCapped: true });
      }
      const matters = Array.from({ length: Math.max(0, Math.min(PAGE_SIZE, TOTAL - from)) }, (_, i) =>
        makeMatter({ id: `00000000-0000-4000-8000-${String(from + i).padStart(12, '0')}`, matterName: `Matter ${from + i + 1}` }),
      );
      return Response.json({ matters, totalCount: TOTAL, totalCountCapped: false });
    }
    if (path === '/_api/auth/session')
      return Response.json({ error: 'Please log in to continue.', code: 'UNAUTHENTICATED' }, { status: 401 });
    return Response.json([]);
  });
});

function renderAt(url: string) {
  return renderWithClient(
    <MemoryRouter initialEntries={[url]}>
      <Where />
      <Routes>
        <Route path="/matters" element={<MattersPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('paging the matters list', () => {
  it('goes to the last page when ?page= is beyond it', async () => {
    renderAt('/matters?page=99');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/matters?page=6'));
    // The summary can show the last page's range while its rows are still on their way; wait for the rows.
    expect(await screen.findByRole('row', { name: 'Open matter Matter 300' }, { timeout: 5000 })).toBeInTheDocument();
    expect(screen.getByText('Showing 251–300 of 300 matters')).toBeInTheDocument();
    expect(screen.getByText('Page 6 of 6')).toBeInTheDocument();
    expect(screen.queryByText(/Showing 4901/)).not.toBeInTheDocument();
  });

  it('brings the top of the list into view when it has scrolled out of sight', async () => {
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    const { user } = renderAt('/matters');
    await screen.findByText('Showing 1–50 of 300 matters');
    // The list's top lies under the top bar, as after scrolling down to the pager.
    const top = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ top: -900 } as DOMRect);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    top.mockRestore();
    expect(await screen.findByText('Showing 51–100 of 300 matters')).toBeInTheDocument();
    expect(scrolled).toHaveBeenCalledWith({ block: 'start' });
    expect(calls.some((c) => c.path === '/_api/matters/list' && c.url.searchParams.get('page') === '2')).toBe(true);
  });

  it('reads a count that stopped at its bound as "at least", and pages on past it', async () => {
    capped = true;
    const { user } = renderAt('/matters');
    expect(await screen.findByText('Showing 1–50 of 10,000+ matters')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 200+')).toBeInTheDocument();
    expect(screen.queryByText(/of 10,000 matters/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Showing 51–100 of 10,000+ matters')).toBeInTheDocument();
    expect(screen.getByText('Page 2 of 200+')).toBeInTheDocument();
  });

  it('keeps a page past the bound instead of sending it back to the last counted page', async () => {
    capped = true;
    renderAt('/matters?page=250');
    expect(await screen.findByText('Showing 12,451–12,500 of 12,500+ matters')).toBeInTheDocument();
    expect(screen.getByText('Page 250 of 250+')).toBeInTheDocument();
    expect(screen.getByTestId('location').textContent).toBe('/matters?page=250');
    expect(screen.getByRole('button', { name: 'Next' })).toBeEnabled();
  });
});
