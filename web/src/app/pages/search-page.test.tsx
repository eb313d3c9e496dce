import { screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PERMISSIONS,
  DOCUMENT_SEARCH_MSG,
  type DocumentHit,
  type DocumentSearchResponse,
  type SessionUser,
} from '@strongroom/contracts';
import { sessionQueryKey } from '@/features/auth/api/get-session';
import { renderWithClient } from '@/test/dom';
import { makeMatter } from '@/test/matter';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { SearchPage } from './search-page';

const MATTER_ID = '6f1d9f4e-8a3b-4c1e-9d2a-1b2c3d4e5f60';
const UPLOADER_ID = '0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9';

function hit(over: Partial<DocumentHit> = {}): DocumentHit {
  return {
    nodeId: 'n1',
    name: 'Lease agreement.pdf',
    versionNumber: 1,
    current: true,
    mimeType: 'application/pdf',
    fileSize: 2048,
    matter: { id: MATTER_ID, matterName: 'Harbour lease', matterNumber: 'MAT-2026-014', clientName: 'Quayside Ltd', status: 'Open' },
    path: [
      { id: 'd1', name: 'Contracts' },
      { id: 'd2', name: 'Signed' },
    ],
    uploadedBy: { id: UPLOADER_ID, name: 'Ada Lovelace' },
    uploadedAt: '2026-03-04T10:00:00.000Z',
    page: 3,
    snippet: [
      { text: 'the ', match: false },
      { text: 'indemnity', match: true },
      { text: ' clause fourteen', match: false },
    ],
    nameMatched: false,
    ...over,
  };
}

function answer(over: Partial<DocumentSearchResponse> = {}): DocumentSearchResponse {
  return { query: 'indemnity', page: 1, limit: 20, total: 1, totalCapped: false, hits: [hit()], ...over };
}

const user: SessionUser = {
  id: 7,
  email: 'ada@firm.test',
  displayName: 'Ada Lovelace',
  profileId: 'p7',
  organizationId: 'org-1',
  organizationName: 'Firm',
  role: 'admin',
  status: 'active',
  permissions: DEFAULT_PERMISSIONS.admin,
  mfaSetupRequired: false,
  mfaEnabled: true,
  mfaPrimaryMethod: 'email',
};

function Where() {
  const l = useLocation();
  return <output data-testid="location">{l.pathname + l.search}</output>;
}

/** The search page at `entry`, the server answering the search with `search` (or its function of the call). */
function renderAt(entry: string, search: (call: FetchCall) => Response = () => Response.json(answer())) {
  const calls = stubFetch((call) => {
    if (call.path === '/_api/search/documents') return search(call);
    if (call.path === '/_api/matters/list') {
      const harbour = makeMatter({ id: MATTER_ID, matterName: 'Harbour lease', matterNumber: 'MAT-2026-014' });
      const matters = (call.url.searchParams.get('search') ?? 'harbour').startsWith('harb') ? [harbour] : [];
      return Response.json({ matters, totalCount: matters.length });
    }
    if (call.path === '/_api/settings/users') return Response.json({ users: [], invitations: [], canManage: true });
    return Response.json({ error: 'not here', code: 'NOT_FOUND' }, { status: 404 });
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(sessionQueryKey, { user, session: null, apiVersion: null });
  const r = renderWithClient(
    <MemoryRouter initialEntries={[entry]}>
      <Where />
      <Routes>
        <Route path="/search" element={<SearchPage />} />
        <Route path="/matters/:matterId" element={<p>Matter workspace</p>} />
      </Routes>
    </MemoryRouter>,
    { client },
  );
  const searches = () => calls.filter((c) => c.path === '/_api/search/documents');
  return { ...r, searches };
}

describe('the document search page', () => {
  it("sends the address's query and filters", async () => {
    const r = renderAt(
      `/search?q=indemnity&matterId=${MATTER_ID}&clientName=Quayside&fileType=pdf&uploadedBy=${UPLOADER_ID}&dateFrom=2026-01-01&dateTo=2026-06-30&versions=all&page=2`,
      () => Response.json(answer({ page: 2, total: 30 })),
    );
    await screen.findByRole('link', { name: /Lease agreement\.pdf/ });
    const sent = r.searches().at(-1)!.url.searchParams;
    expect(Object.fromEntries(sent)).toEqual({
      q: 'indemnity',
      matterId: MATTER_ID,
      clientName: 'Quayside',
      fileType: 'pdf',
      uploadedBy: UPLOADER_ID,
      dateFrom: '2026-01-01',
      dateTo: '2026-06-30',
      versions: 'all',
      page: '2',
      limit: '20',
    });
    expect(screen.getByLabelText(DOCUMENT_SEARCH_MSG.label)).toHaveValue('indemnity');
    expect(screen.getByRole('checkbox', { name: DOCUMENT_SEARCH_MSG.allVersions })).toBeChecked();
  });

  it('marks the matched words, and shows a snippet holding markup as text, never as HTML', async () => {
    const hostile = hit({
      nodeId: 'n2',
      name: '<b>Memo</b>.txt',
      page: null,
      snippet: [
        { text: 'see <img src=x onerror=alert(1)> the ', match: false },
        { text: 'indemnity', match: true },
      ],
    });
    const { container } = renderAt('/search?q=indemnity', () => Response.json(answer({ total: 2, hits: [hit(), hostile] })));
    const links = await screen.findAllByRole('link');
    expect(links).toHaveLength(2);
    const marks = container.querySelectorAll('mark');
    expect([...marks].map((m) => m.textContent)).toEqual(['indemnity', 'indemnity']);
    expect(container.querySelector('img')).toBeNull();
    expect(container.querySelector('b')).toBeNull();
    expect(links[1]).toHaveTextContent('see <img src=x onerror=alert(1)> the indemnity');
    expect(links[1]).toHaveTextContent('<b>Memo</b>.txt');
    // The first hit: its matter, client, folder, uploader, and no version badge for a current version.
    expect(links[0]).toHaveTextContent('Harbour lease · MAT-2026-014 · Quayside Ltd');
    expect(links[0]).toHaveTextContent('Root / Contracts / Signed');
    expect(links[0]).toHaveTextContent('Ada Lovelace');
    expect(links[0]).not.toHaveTextContent('Version');
  });

  it("opens a hit in its matter at its folder with the file's preview at the page of the words", async () => {
    const older = hit({ nodeId: 'n3', name: 'Notes.txt', path: [], page: null, current: false, versionNumber: 2 });
    const r = renderAt('/search?q=indemnity', () => Response.json(answer({ total: 2, hits: [hit(), older] })));
    const [first, second] = await screen.findAllByRole('link');
    expect(first).toHaveAttribute('href', `/matters/${MATTER_ID}?folder=d2&preview=n1&page=3`);
    expect(second).toHaveAttribute('href', `/matters/${MATTER_ID}?preview=n3`);
    expect(within(second!).getByText('Version 2')).toBeInTheDocument();
    await r.user.click(first!);
    expect(screen.getByTestId('location').textContent).toBe(`/matters/${MATTER_ID}?folder=d2&preview=n1&page=3`);
  });

  it('tells the page and the count, and 1,000+ when the count is capped', async () => {
    const r = renderAt('/search?q=indemnity', () => Response.json(answer({ total: 1000, totalCapped: true })));
    expect(await screen.findByText('Page 1 of 50 (1,000+ results)')).toBeInTheDocument();
    await r.user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByTestId('location').textContent).toBe('/search?q=indemnity&page=2');
  });

  it('tells an exact count truthfully', async () => {
    renderAt('/search?q=indemnity&page=2', () => Response.json(answer({ page: 2, total: 45 })));
    expect(await screen.findByText('Page 2 of 3 (45 results)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous' })).toBeEnabled();
  });

  it('says when nothing matches', async () => {
    renderAt('/search?q=indemnity', () => Response.json(answer({ total: 0, hits: [] })));
    expect(await screen.findByRole('heading', { name: DOCUMENT_SEARCH_MSG.noResults })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull();
  });

  it("shows the server's message when the search is refused", async () => {
    renderAt('/search?q=a', () => Response.json({ error: DOCUMENT_SEARCH_MSG.queryTooShort, code: 'VALIDATION_ERROR' }, { status: 400 }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(DOCUMENT_SEARCH_MSG.queryTooShort);
    expect(within(alert).queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('limits the search to a matter picked from those matching the typed text', async () => {
    const r = renderAt('/search?q=indemnity');
    await screen.findByRole('link', { name: /Lease agreement\.pdf/ });
    await r.user.type(screen.getByRole('combobox', { name: 'Matter' }), 'harb');
    await r.user.click(await screen.findByRole('option', { name: /Harbour lease · MAT-2026-014/ }));
    expect(screen.getByTestId('location').textContent).toBe(`/search?q=indemnity&matterId=${MATTER_ID}`);
    await waitFor(() => expect(r.searches().at(-1)!.url.searchParams.get('matterId')).toBe(MATTER_ID));
    expect(screen.getByRole('combobox', { name: 'Matter' })).toHaveValue('Harbour lease · MAT-2026-014');
  });

  it('asks nothing without words, and a submitted search goes into the address', async () => {
    const r = renderAt('/search');
    await r.user.type(screen.getByLabelText(DOCUMENT_SEARCH_MSG.label), 'indemnity clause{Enter}');
    expect(screen.getByTestId('location').textContent).toBe('/search?q=indemnity+clause');
    await screen.findByRole('link', { name: /Lease agreement\.pdf/ });
    expect(r.searches()).toHaveLength(1);
    expect(r.searches()[0]!.url.searchParams.get('q')).toBe('indemnity clause');
  });
});
