import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS, type SessionUser } from '@strongroom/contracts';
import { TooltipProvider } from '@/components/ui/tooltip';
import { renderWithClient } from '@/test/dom';
import { stubFetch } from '@/test/fetch-stub';
import { makeMatter } from '@/test/matter';
import { makeNode } from '@/test/node';
import { MattersPage } from '../matters-page';
import { MatterWorkspace } from './matter-workspace-page';

const matter = makeMatter({
  id: '11111111-1111-4111-8111-111111111111',
  organizationId: '22222222-2222-4222-8222-222222222222',
  matterName: 'Smith v Jones',
});
const SHA = 'ab'.repeat(32);
const pleadings = makeNode({ id: '30000000-0000-4000-8000-000000000001', name: 'Pleadings', nodeType: 'folder', matterId: matter.id });
const defence = makeNode({
  id: '30000000-0000-4000-8000-000000000002',
  name: 'Defence.pdf',
  parentId: pleadings.id,
  matterId: matter.id,
  fileSize: 2048,
  sha256Hash: SHA,
  createdByName: 'Ada Lovelace',
});
pleadings.children = [defence];

const user: SessionUser = {
  id: 1,
  email: 'pat@firm.test',
  displayName: 'Pat',
  profileId: '44444444-4444-4444-8444-444444444444',
  organizationId: matter.organizationId,
  organizationName: 'Acme LLP',
  role: 'user',
  status: 'active',
  permissions: DEFAULT_PERMISSIONS.user,
  mfaSetupRequired: false,
  mfaEnabled: true,
  mfaPrimaryMethod: 'email',
};

function Where() {
  const l = useLocation();
  return <output data-testid="location">{l.pathname + l.search}</output>;
}
const where = () => screen.getByTestId('location').textContent;

beforeEach(() => {
  stubFetch(({ path }) => {
    if (path === '/_api/matters/detail') return Response.json({ matter, nodes: [pleadings] });
    if (path === '/_api/matters/list') return Response.json({ matters: [matter], totalCount: 1 });
    return Response.json({ error: 'Please log in to continue.', code: 'UNAUTHENTICATED' }, { status: 401 });
  });
});

function renderAt(url: string) {
  return renderWithClient(
    <MemoryRouter initialEntries={[url]}>
      <Where />
      <TooltipProvider delayDuration={0}>
        <Routes>
          <Route path="/matters" element={<MattersPage />} />
          <Route path="/matters/:matterId" element={<MatterWorkspace matterId={matter.id} user={user} />} />
        </Routes>
      </TooltipProvider>
    </MemoryRouter>,
  );
}

describe('old links to a matter over the list', () => {
  it('lead to the matter’s own page, keeping the folder and the file', async () => {
    renderAt(`/matters?matter=${matter.id}&folder=${pleadings.id}&file=${defence.id}`);
    await waitFor(() => expect(where()).toBe(`/matters/${matter.id}?folder=${pleadings.id}&file=${defence.id}`));
    expect(await screen.findByRole('heading', { level: 1, name: 'Smith v Jones' })).toBeInTheDocument();
    expect(await screen.findByRole('row', { name: 'File Defence.pdf' })).toHaveAttribute('aria-current', 'true');
  });
});

describe('the matters list', () => {
  it('names each matter with a real link to its page, and a row click opens it', async () => {
    const { user: u } = renderAt('/matters?q=smith');
    const row = await screen.findByRole('row', { name: 'Open matter Smith v Jones' });
    expect(within(row).getByRole('link', { name: 'Smith v Jones' })).toHaveAttribute('href', `/matters/${matter.id}`);
    await u.click(within(row).getAllByRole('cell').at(-1)!);
    await waitFor(() => expect(where()).toBe(`/matters/${matter.id}`));
  });
});

describe('the preview panel', () => {
  it('opens with a double-click on a file, shows its facts, and Close takes it away', async () => {
    const { user: u } = renderAt(`/matters/${matter.id}?folder=${pleadings.id}`);
    await u.dblClick(await screen.findByRole('row', { name: 'File Defence.pdf' }));
    await waitFor(() => expect(where()).toBe(`/matters/${matter.id}?folder=${pleadings.id}&preview=${defence.id}`));
    const panel = screen.getByRole('complementary', { name: 'File preview' });
    expect(within(panel).getByRole('heading', { name: 'Defence.pdf' })).toBeInTheDocument();
    expect(panel).toHaveTextContent('Ada Lovelace');
    expect(panel).toHaveTextContent(SHA);
    expect(panel).toHaveTextContent('Root / Pleadings / Defence.pdf');
    expect(within(panel).getByRole('button', { name: 'Download' })).toBeInTheDocument();
    await u.click(within(panel).getByRole('button', { name: 'Close preview' }));
    await waitFor(() => expect(where()).toBe(`/matters/${matter.id}?folder=${pleadings.id}`));
    expect(screen.queryByRole('complementary', { name: 'File preview' })).not.toBeInTheDocument();
  });

  it('opens with Enter on a file row; Enter on a folder opens the folder', async () => {
    const { user: u } = renderAt(`/matters/${matter.id}`);
    (await screen.findByRole('row', { name: 'Folder Pleadings' })).focus();
    await u.keyboard('{Enter}');
    await waitFor(() => expect(where()).toBe(`/matters/${matter.id}?folder=${pleadings.id}`));
    (await screen.findByRole('row', { name: 'File Defence.pdf' })).focus();
    await u.keyboard('{Enter}');
    expect(await screen.findByRole('complementary', { name: 'File preview' })).toBeInTheDocument();
    expect(where()).toBe(`/matters/${matter.id}?folder=${pleadings.id}&preview=${defence.id}`);
  });

  it('shows no Download to someone who may not retrieve', async () => {
    const guest = { ...user, permissions: { ...user.permissions, canRetrieve: false } };
    renderWithClient(
      <MemoryRouter initialEntries={[`/matters/${matter.id}?folder=${pleadings.id}&preview=${defence.id}`]}>
        <TooltipProvider delayDuration={0}>
          <MatterWorkspace matterId={matter.id} user={guest} />
        </TooltipProvider>
      </MemoryRouter>,
    );
    const panel = await screen.findByRole('complementary', { name: 'File preview' });
    expect(within(panel).queryByRole('button', { name: 'Download' })).not.toBeInTheDocument();
  });
});
