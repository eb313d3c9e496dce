import { screen, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PERMISSIONS, type SessionUser } from '@strongroom/contracts';
import { sessionQueryKey } from '@/features/auth/api/get-session';
import { formatMatterDate } from '@/features/matters/lib/matter-format';
import { activeFilterCount, EMPTY_FILTERS } from '@/features/matters/components/matter-filters';
import { densityKey } from '@/lib/table-density';
import { PHONE_QUERY } from '@/lib/use-media-query';
import { renderWithClient } from '@/test/dom';
import { stubFetch } from '@/test/fetch-stub';
import { makeMatter } from '@/test/matter';
import { MattersPage } from './matters-page';

const HELD = makeMatter({
  id: '00000000-0000-4000-8000-000000000001',
  matterName: 'Harbour Lease Dispute',
  matterNumber: 'MAT-2026-014',
  clientName: 'Harbour Holdings',
  responsibleLawyer: 'Lena Layout',
  status: 'Vaulted',
  isVaulted: true,
  legalHold: true,
  updatedAt: new Date('2026-03-04T10:00:00.000Z'),
});
const BARE = makeMatter({
  id: '00000000-0000-4000-8000-000000000002',
  matterName: 'Unnumbered Matter',
  matterNumber: null,
  clientName: null,
  responsibleLawyer: null,
});

function sessionUser(id: number): SessionUser {
  return {
    id,
    email: `user${id}@firm.test`,
    displayName: 'Fay First',
    profileId: `profile-${id}`,
    organizationId: 'first-firm',
    organizationName: 'First Firm LLP',
    role: 'admin',
    status: 'active',
    permissions: DEFAULT_PERMISSIONS.admin,
    mfaSetupRequired: false,
    mfaEnabled: true,
    mfaPrimaryMethod: 'email',
  };
}

function Where() {
  const l = useLocation();
  return <output data-testid="location">{l.pathname + l.search}</output>;
}

function renderPage(userId: number, url = '/matters') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  client.setQueryData(sessionQueryKey, { user: sessionUser(userId), session: null, apiVersion: null });
  return renderWithClient(
    <MemoryRouter initialEntries={[url]}>
      <Where />
      <Routes>
        <Route path="/matters" element={<MattersPage />} />
      </Routes>
    </MemoryRouter>,
    { client },
  );
}

/** A screen as wide as a phone (matches the phone query) or as a laptop (matches nothing). */
function screenIs(phone: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({
      matches: phone && query === PHONE_QUERY,
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    })),
  );
}

beforeEach(() => {
  localStorage.clear();
  stubFetch(({ path }) => {
    if (path === '/_api/matters/list') return Response.json({ matters: [HELD, BARE], totalCount: 2 });
    return Response.json([]);
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('row density', () => {
  it('is remembered for the user who chose it, and only for them', async () => {
    screenIs(false);
    const first = renderPage(7);
    await screen.findByRole('row', { name: `Open matter ${HELD.matterName}` });
    const group = screen.getByRole('group', { name: 'Row density' });
    expect(within(group).getByRole('button', { name: 'Comfortable' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('table', { name: 'Matters' }).parentElement).toHaveAttribute('data-density', 'comfortable');

    await first.user.click(within(group).getByRole('button', { name: 'Compact' }));
    expect(within(group).getByRole('button', { name: 'Compact' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('table', { name: 'Matters' }).parentElement).toHaveAttribute('data-density', 'compact');
    expect(localStorage.getItem(densityKey(7))).toBe('compact');
    first.unmount();

    // The same user again: compact from the start.
    const again = renderPage(7);
    await screen.findByRole('row', { name: `Open matter ${HELD.matterName}` });
    expect(screen.getByRole('button', { name: 'Compact' })).toHaveAttribute('aria-pressed', 'true');
    again.unmount();

    // Another user of the same browser keeps their own (the default).
    renderPage(8);
    await screen.findByRole('row', { name: `Open matter ${HELD.matterName}` });
    expect(screen.getByRole('button', { name: 'Comfortable' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('table', { name: 'Matters' }).parentElement).toHaveAttribute('data-density', 'comfortable');
  });
});

describe('the matters list on a phone', () => {
  it('shows a card per matter with what the row shows, and no table', async () => {
    screenIs(true);
    renderPage(7);
    const held = await screen.findByRole('button', { name: `Open matter ${HELD.matterName}` });
    const list = screen.getByRole('list', { name: 'Matters' });
    expect(list).toContainElement(held);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    for (const text of [HELD.matterName, 'MAT-2026-014', 'Harbour Holdings', 'Lena Layout', 'Vaulted', 'Legal Hold']) {
      expect(held).toHaveTextContent(text);
    }
    expect(held).toHaveTextContent(`Updated${formatMatterDate(HELD.updatedAt)}`);
    const bare = within(list).getByRole('button', { name: `Open matter ${BARE.matterName}` });
    for (const text of ['No number', 'No client', 'No lawyer assigned', 'Open']) expect(bare).toHaveTextContent(text);
    expect(bare).not.toHaveTextContent('Legal Hold');
  });

  it('opens the matter from its card as a row does on a wide screen', async () => {
    screenIs(true);
    const phone = renderPage(7);
    await phone.user.click(await screen.findByRole('button', { name: `Open matter ${HELD.matterName}` }));
    expect(screen.getByTestId('location').textContent).toBe(`/matters/${HELD.id}`);
    phone.unmount();

    screenIs(false);
    const wide = renderPage(7);
    await wide.user.click(await screen.findByRole('row', { name: `Open matter ${HELD.matterName}` }));
    expect(screen.getByTestId('location').textContent).toBe(`/matters/${HELD.id}`);
  });

  it('keeps the search in sight and counts the other filters on the Filters button, which opens them', async () => {
    screenIs(true);
    const { user } = renderPage(7, '/matters?q=lease&status=Vaulted&client=Harbour&from=2026-01-01');
    expect(screen.getByRole('searchbox', { name: 'Search matters' })).toHaveValue('lease');
    const button = screen.getByRole('button', { name: 'Filters 3 active' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    const panel = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(panel).toHaveClass('hidden');
    expect(within(panel).getByRole('combobox', { name: 'Status' })).toBeInTheDocument();
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(panel).not.toHaveClass('hidden');
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });
});

describe('activeFilterCount', () => {
  it('counts status, client, lawyer and each date, never the search', () => {
    expect(activeFilterCount(EMPTY_FILTERS)).toBe(0);
    expect(activeFilterCount({ ...EMPTY_FILTERS, status: 'Open', responsibleLawyer: 'Jane', dateTo: '2026-02-01' })).toBe(3);
    expect(
      activeFilterCount({ ...EMPTY_FILTERS, status: 'Vaulted', clientName: 'A', responsibleLawyer: 'B', dateFrom: 'x', dateTo: 'y' }),
    ).toBe(5);
  });
});
