import { act } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SearchBox } from '@/app/shell/search-box';
import { mount, typeInto, waitFor, type Mounted } from '@/test/dom';
import { MattersPage } from './matters-page';

let listCalls: URL[];
let mounted: Mounted | null = null;
let location = '';

function Where() {
  const l = useLocation();
  location = l.pathname + l.search;
  return null;
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
      if (u.pathname === '/_api/auth/session') return Response.json({ error: 'Please log in to continue.', code: 'UNAUTHENTICATED' }, { status: 401 });
      return Response.json([]);
    }),
  );
});
afterEach(() => {
  mounted?.unmount();
  mounted = null;
});

describe("the top bar's search", () => {
  it('lands on the Matters page with the list filtered and the search field showing the text', async () => {
    mounted = mount(
      <MemoryRouter initialEntries={['/']}>
        <SearchBox />
        <Where />
        <Routes>
          <Route path="/" element={<p>Dashboard</p>} />
          <Route path="/matters" element={<MattersPage />} />
        </Routes>
      </MemoryRouter>,
    );
    const box = mounted.container.querySelector<HTMLInputElement>('input[aria-label="Search"]')!;
    typeInto(box, 'lease');
    act(() => {
      box.form!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    });
    expect(location).toBe('/matters?q=lease');
    await waitFor(() => expect(listCalls.length).toBeGreaterThan(0));
    expect(listCalls.every((u) => u.searchParams.get('search') === 'lease')).toBe(true);
    expect(mounted.container.querySelector<HTMLInputElement>('input[aria-label="Search matters"]')!.value).toBe('lease');
  });

  it("keeps the page's own search in the same q parameter", async () => {
    mounted = mount(
      <MemoryRouter initialEntries={['/matters']}>
        <Where />
        <Routes>
          <Route path="/matters" element={<MattersPage />} />
        </Routes>
      </MemoryRouter>,
    );
    typeInto(mounted.container.querySelector<HTMLInputElement>('input[aria-label="Search matters"]')!, 'estate');
    await waitFor(() => expect(location).toBe('/matters?q=estate'));
    await waitFor(() => expect(listCalls.at(-1)!.searchParams.get('search')).toBe('estate'));
  });
});
