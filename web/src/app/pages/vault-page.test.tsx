import { QueryClient } from '@tanstack/react-query';
import { configure, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_PERMISSIONS,
  VAULT_MSG,
  type NodeTreeDto,
  type Permissions,
  type SessionUser,
  type VaultAuditEntry,
} from '@strongroom/contracts';
import { TooltipProvider } from '@/components/ui/tooltip';
import type { VaultedMatter } from '@/lib/dates';
import { sessionQueryKey } from '@/features/auth/api/get-session';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { makeMatter } from '@/test/matter';
import { makeNode } from '@/test/node';
import { VaultPage } from './vault-page';

// Six people share two cores: a screen may take longer than the default second to answer.
configure({ asyncUtilTimeout: 5_000 });

function Where() {
  const l = useLocation();
  return <output data-testid="location">{l.search}</output>;
}
const where = () => new URLSearchParams(screen.getByTestId('location').textContent ?? '');

function inYears(years: number, days: number): Date {
  const d = new Date();
  d.setFullYear(d.getFullYear() + years);
  d.setDate(d.getDate() + days);
  d.setHours(d.getHours() - 1);
  return d;
}

function vaulted(n: number, overrides: Partial<VaultedMatter> = {}): VaultedMatter {
  return {
    ...makeMatter({
      id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
      matterName: `Matter ${n}`,
      clientName: `Client ${n}`,
      matterNumber: `MAT-2026-${String(100 + n)}`,
      status: 'Vaulted',
      isVaulted: true,
      legalHold: true,
      vaultedAt: new Date('2026-02-01T09:30:00.000Z'),
      retentionExpiresAt: inYears(2, 15),
    }),
    transferState: 'completed',
    fileCount: 2,
    totalBytes: 2048,
    lastVerification: null,
    ...overrides,
  };
}

const ROWS = [
  vaulted(1),
  vaulted(2, {
    legalHold: false,
    retentionExpiresAt: null,
    lastVerification: { checkedAt: '2026-03-01T00:00:00.000Z', result: 'passed', objectsChecked: 2, failures: 0 },
  }),
  vaulted(3, {
    retentionExpiresAt: new Date('2025-01-01T00:00:00.000Z'),
    transferState: 'transferring',
    lastVerification: { checkedAt: '2026-03-01T00:00:00.000Z', result: 'failed', objectsChecked: 2, failures: 1 },
  }),
];

const file = (id: string, name: string, parentId: string | null): NodeTreeDto =>
  makeNode({
    id,
    name,
    parentId,
    matterId: ROWS[0]!.id,
    organizationId: 'org-1',
    fileSize: 1536,
    mimeType: 'application/pdf',
    sha256Hash: 'ab'.repeat(32),
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  });
const TREE: NodeTreeDto[] = [
  {
    ...file('f0000000-0000-4000-8000-000000000001', 'Pleadings', null),
    nodeType: 'folder',
    fileSize: null,
    children: [file('f0000000-0000-4000-8000-000000000002', 'claim.pdf', 'f0000000-0000-4000-8000-000000000001')],
  },
  file('f0000000-0000-4000-8000-000000000003', 'engagement-letter.pdf', null),
];
const auditEntry = (i: number): VaultAuditEntry => ({
  id: `a${i}`,
  action: i === 0 ? 'VAULT_MATTER' : 'DOWNLOAD_FILE',
  actorName: i === 0 ? null : 'Ada Admin',
  actorEmail: 'ada@acme.test',
  timestamp: '2026-02-01T09:30:00.000Z',
  details: null,
});

type Server = { list: (url: URL) => Response | Promise<Response>; total: number };
let server: Server;
let calls: FetchCall[];
const listCalls = () => calls.filter((c) => c.path === '/_api/vault/list').map((c) => c.url.searchParams);
const auditCalls = () => calls.filter((c) => c.path === '/_api/vault/audit').map((c) => c.url.searchParams);

beforeEach(() => {
  server = { total: 45, list: () => Response.json({ matters: ROWS, totalCount: server.total }) };
  calls = stubFetch(({ path, url }) => {
    if (path === '/_api/vault/list') return server.list(url);
    if (path === '/_api/vault/detail') {
      const m = ROWS.find((r) => r.id === url.searchParams.get('matterId'));
      return m ? Response.json({ matter: m, nodes: TREE }) : Response.json({ error: 'Matter not found.' }, { status: 404 });
    }
    if (path === '/_api/vault/audit') {
      const page = Number(url.searchParams.get('page'));
      return Response.json({
        logs: Array.from({ length: page === 1 ? 50 : 10 }, (_, i) => auditEntry(i + (page - 1) * 50)),
        totalCount: 60,
      });
    }
    return Response.json({ error: 'not here' }, { status: 404 });
  });
});

function userWith(permissions: Partial<Permissions> = {}): SessionUser {
  return {
    id: 1,
    email: 'ada@acme.test',
    displayName: 'Ada Admin',
    profileId: '44444444-4444-4444-8444-444444444444',
    organizationId: 'org-1',
    organizationName: 'Acme LLP',
    role: 'admin',
    status: 'active',
    permissions: { ...DEFAULT_PERMISSIONS.admin, ...permissions },
    mfaSetupRequired: false,
    mfaEnabled: true,
    mfaPrimaryMethod: 'totp',
  };
}

function renderPage(entry = '/vault', user = userWith()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } } });
  client.setQueryData(sessionQueryKey, { user, session: null, apiVersion: null });
  return renderWithClient(
    <MemoryRouter initialEntries={[entry]}>
      <TooltipProvider delayDuration={0}>
        <Where />
        <Routes>
          <Route path="/vault" element={<VaultPage />} />
        </Routes>
      </TooltipProvider>
    </MemoryRouter>,
    { client },
  );
}

const table = () => screen.getByRole('table', { name: 'Vaulted matters' });
const rowOf = (name: string) => within(table()).getByText(name).closest('tr')!;

// Whole journeys of clicks and reads: more than the default 5 s on a busy machine.
describe('the Vault page', { timeout: 20_000 }, () => {
  it('asks for the newest vaulted first, 20 to a page, and shows each matter’s retention, hold and verification', async () => {
    renderPage();
    expect(screen.getByRole('heading', { name: 'Vault', level: 1 })).toBeInTheDocument();
    expect(screen.getByText('Review immutable vaulted matters, read-only, for compliance and chain of custody.')).toBeInTheDocument();
    await screen.findByText('Matter 1');
    expect(Object.fromEntries(listCalls()[0]!)).toEqual({
      page: '1',
      pageSize: '20',
      legalHold: 'all',
      sortBy: 'vaultedAt',
      sortDirection: 'desc',
    });

    expect(rowOf('Matter 1')).toHaveTextContent('Client 1');
    expect(rowOf('Matter 1')).toHaveTextContent('2 years, 15 days left');
    expect(within(rowOf('Matter 1')).getByText('Active')).toBeInTheDocument();
    expect(rowOf('Matter 1')).toHaveTextContent('Not yet');
    expect(rowOf('Matter 2')).toHaveTextContent('Permanent');
    expect(within(rowOf('Matter 2')).getByText('Inactive')).toBeInTheDocument();
    expect(rowOf('Matter 2')).toHaveTextContent('Passed');
    expect(within(rowOf('Matter 3')).getByText('Expired')).toBeInTheDocument();
    expect(rowOf('Matter 3')).toHaveTextContent('Failed');
    expect(within(table()).getAllByRole('button', { name: /View details of/ })).toHaveLength(3);
  });

  it('pages with Previous and Next, disabled at the first and the last page', async () => {
    const { user } = renderPage();
    expect(await screen.findByText('Page 1 of 3 (45 results)')).toBeInTheDocument();
    const previous = screen.getByRole('button', { name: 'Previous' });
    expect(previous).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 2 of 3 (45 results)')).toBeInTheDocument();
    expect(where().get('page')).toBe('2');
    expect(previous).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(await screen.findByText('Page 3 of 3 (45 results)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(listCalls().map((q) => q.get('page'))).toEqual(['1', '2', '3']);
  });

  it('reads its state from the address', async () => {
    renderPage('/vault?page=2&pageSize=10&searchQuery=vale&legalHold=false&sortBy=retentionExpiresAt&sortDirection=asc');
    await screen.findByText('Matter 1');
    expect(Object.fromEntries(listCalls()[0]!)).toEqual({
      page: '2',
      pageSize: '10',
      searchQuery: 'vale',
      legalHold: 'false',
      sortBy: 'retentionExpiresAt',
      sortDirection: 'asc',
    });
    expect(screen.getByRole('searchbox', { name: 'Search vaulted matters' })).toHaveValue('vale');
    expect(screen.getByRole('combobox', { name: 'Legal hold status' })).toHaveTextContent('Not Under Legal Hold');
    expect(screen.getByText('Page 2 of 5 (45 results)')).toBeInTheDocument();
  });

  it('searches 500 ms after the last keystroke, once, from page 1', async () => {
    const { user } = renderPage('/vault?page=3');
    await screen.findByText('Matter 1');
    const box = screen.getByRole('searchbox', { name: 'Search vaulted matters' });
    expect(box).toHaveAttribute('placeholder', 'Search by matter name or client...');
    await user.type(box, 'vale');
    // Typed faster than the debounce: nothing asked yet.
    expect(where().get('searchQuery')).toBeNull();
    await waitFor(() => expect(where().get('searchQuery')).toBe('vale'));
    expect(where().get('page')).toBeNull();
    await waitFor(() => expect(listCalls().at(-1)!.get('searchQuery')).toBe('vale'));
    expect(
      listCalls()
        .filter((q) => q.has('searchQuery'))
        .map((q) => q.get('searchQuery')),
    ).toEqual(['vale']);
    expect(listCalls().at(-1)!.get('page')).toBe('1');
  });

  it('filters by legal hold from page 1', async () => {
    const { user } = renderPage('/vault?page=2');
    await screen.findByText('Matter 1');
    const filter = screen.getByRole('combobox', { name: 'Legal hold status' });
    expect(filter).toHaveTextContent('All Statuses');
    await user.click(filter);
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'All Statuses',
      'Under Legal Hold',
      'Not Under Legal Hold',
    ]);
    await user.click(screen.getByRole('option', { name: 'Under Legal Hold' }));
    await waitFor(() => expect(where().get('legalHold')).toBe('true'));
    expect(where().get('page')).toBeNull();
    await waitFor(() => expect(listCalls().at(-1)!.get('legalHold')).toBe('true'));
  });

  it('sorts by a column and flips the direction when the same column is chosen again', async () => {
    const { user } = renderPage();
    await screen.findByText('Matter 1');
    const header = (name: string) => within(table()).getByRole('columnheader', { name: new RegExp(name) });
    expect(header('Vaulted At')).toHaveAttribute('aria-sort', 'descending');
    await user.click(within(header('Matter Name')).getByRole('button'));
    await waitFor(() => expect(where().get('sortBy')).toBe('matterName'));
    expect(where().get('sortDirection')).toBe('asc');
    expect(header('Matter Name')).toHaveAttribute('aria-sort', 'ascending');
    await user.click(within(header('Matter Name')).getByRole('button'));
    await waitFor(() => expect(where().get('sortDirection')).toBe('desc'));
    await user.click(within(header('Retention Ends')).getByRole('button'));
    await waitFor(() => expect(where().get('sortBy')).toBe('retentionExpiresAt'));
    expect(where().get('sortDirection')).toBe('asc');
    await user.click(within(header('Vaulted At')).getByRole('button'));
    await waitFor(() => expect(where().get('sortBy')).toBe('vaultedAt'));
    expect(where().get('sortDirection')).toBe('desc');
    await user.click(within(header('Vaulted At')).getByRole('button'));
    await waitFor(() => expect(where().get('sortDirection')).toBe('asc'));
    await waitFor(() =>
      expect(listCalls().map((q) => `${q.get('sortBy')} ${q.get('sortDirection')}`)).toEqual([
        'vaultedAt desc',
        'matterName asc',
        'matterName desc',
        'retentionExpiresAt asc',
        // vaultedAt desc again comes from the cache.
        'vaultedAt asc',
      ]),
    );
  });

  it('shows 10 skeleton rows while loading', async () => {
    server.list = () => new Promise<Response>(() => {});
    renderPage();
    expect(await screen.findAllByTestId('vault-skeleton-row')).toHaveLength(10);
    expect(table()).toHaveAttribute('aria-busy', 'true');
  });

  it('says the list failed, with the server’s reason', async () => {
    server.list = () => Response.json({ error: 'The database is unavailable.' }, { status: 503 });
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(VAULT_MSG.loadFailed);
    expect(alert).toHaveTextContent('The database is unavailable.');
  });

  it('says when no vaulted matter matches', async () => {
    server.list = () => Response.json({ matters: [], totalCount: 0 });
    renderPage('/vault?searchQuery=nothing');
    expect(await screen.findByRole('heading', { name: VAULT_MSG.emptyTitle })).toBeInTheDocument();
    expect(screen.getByText(VAULT_MSG.emptyBody)).toBeInTheDocument();
  });

  it('shows no vault data to someone without the right to see vaulted matters', async () => {
    renderPage('/vault', userWith({ canViewVaulted: false }));
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.getByText(VAULT_MSG.viewPermissionDenied)).toBeInTheDocument();
    expect(listCalls()).toHaveLength(0);
  });

  it('shows the same message when the server refuses the list', async () => {
    server.list = () => Response.json({ error: VAULT_MSG.viewPermissionDenied, code: 'FORBIDDEN' }, { status: 403 });
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });
});

describe('the vaulted matter sheet', { timeout: 20_000 }, () => {
  it('opens from View Details with the facts, the files and folders, and the audit log in pages of 50', async () => {
    const { user } = renderPage();
    await screen.findByText('Matter 1');
    // With no matter selected the page's Export Report still offers the register of every vaulted matter.
    expect(screen.getByRole('button', { name: 'Export Report' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'View details of Matter 1' }));
    expect(where().get('matter')).toBe(ROWS[0]!.id);

    const sheet = await screen.findByRole('dialog', { name: 'Matter 1' });
    expect(sheet).toHaveTextContent('Client: Client 1');
    expect(within(sheet).getByText('Under Legal Hold')).toBeInTheDocument();
    for (const label of ['Vaulted On', 'Retention Expires', 'Status', 'Matter Number'])
      expect(within(sheet).getByText(label)).toBeInTheDocument();
    expect(sheet).toHaveTextContent('MAT-2026-101');
    expect(sheet).toHaveTextContent('In the vault');
    expect(sheet).toHaveTextContent('2 files, 2.00 KB');

    // Files & Folders first: the root's entries, then a folder's.
    expect(within(sheet).getByRole('tab', { name: 'Files & Folders' })).toHaveAttribute('aria-selected', 'true');
    const rootContents = within(sheet).getByRole('table', { name: 'Contents of Root' });
    expect(rootContents).toHaveTextContent('Pleadings');
    expect(rootContents).toHaveTextContent('engagement-letter.pdf');
    await user.click(within(within(sheet).getByRole('navigation', { name: 'Vaulted folders' })).getByRole('button', { name: 'Pleadings' }));
    expect(within(sheet).getByRole('table', { name: 'Contents of Pleadings' })).toHaveTextContent('claim.pdf');

    await user.click(within(sheet).getByRole('tab', { name: 'Audit Log' }));
    const log = await within(sheet).findByRole('list', { name: 'Audit log' });
    expect(within(log).getAllByRole('listitem')).toHaveLength(50);
    expect(within(log).getAllByRole('listitem')[0]).toHaveTextContent('VAULT_MATTER');
    // Each entry reads as a sentence with names (the address when the actor has no name), its code beside it.
    expect(within(log).getAllByRole('listitem')[0]).toHaveTextContent(`ada@acme.test vaulted the matter “${ROWS[0]!.matterName}”`);
    expect(within(log).getAllByRole('listitem')[1]).toHaveTextContent(`Ada Admin downloaded a file from “${ROWS[0]!.matterName}”`);
    expect(within(sheet).getByText('Page 1 of 2 (60 entries)')).toBeInTheDocument();
    await user.click(within(within(sheet).getByRole('navigation', { name: 'Audit log pages' })).getByRole('button', { name: 'Next' }));
    expect(await within(sheet).findByText('Page 2 of 2 (60 entries)')).toBeInTheDocument();
    expect(auditCalls().map((q) => Object.fromEntries(q))).toEqual([
      { matterId: ROWS[0]!.id, page: '1', pageSize: '50' },
      { matterId: ROWS[0]!.id, page: '2', pageSize: '50' },
    ]);
  });

  it('offers Export Report for a matter whose files are all in the vault, not before', async () => {
    const { user } = renderPage(`/vault?matter=${ROWS[2]!.id}`);
    const sheet = await screen.findByRole('dialog', { name: 'Matter 3' });
    expect(sheet).toHaveTextContent('Transferring');
    expect(within(sheet).getByRole('button', { name: 'Export Report' })).toBeDisabled();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(where().get('matter')).toBeNull());

    await user.click(screen.getByRole('button', { name: 'View details of Matter 1' }));
    const ready = await screen.findByRole('dialog', { name: 'Matter 1' });
    await user.click(within(ready).getByRole('button', { name: 'Export Report' }));
    expect(await screen.findByRole('menuitem', { name: 'Chain-of-custody report (HTML)' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Signed certificate (JSON)' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(where().get('matter')).toBeNull());

    // Closed, the matter stays selected: its row is marked and the page's Export Report acts on it.
    expect(where().get('selected')).toBe(ROWS[0]!.id);
    expect(rowOf('Matter 1')).toHaveAttribute('data-state', 'selected');
    await user.click(screen.getByRole('button', { name: 'Export Report' }));
    expect(await screen.findByRole('menuitem', { name: 'Signed certificate (JSON)' })).toBeInTheDocument();
  });

  it('says the details failed to load, or that there is no data for the matter', async () => {
    renderPage('/vault?matter=00000000-0000-4000-8000-000000000999');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(VAULT_MSG.detailEmpty);
  });
});
