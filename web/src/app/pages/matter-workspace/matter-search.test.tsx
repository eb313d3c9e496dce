import { MemoryRouter } from 'react-router';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PERMISSIONS, SEARCH_MSG, type NodeTreeDto, type SearchResponse, type SessionUser } from '@strongroom/contracts';
import { TooltipProvider } from '@/components/ui/tooltip';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { makeMatter } from '@/test/matter';
import { makeNode } from '@/test/node';
import { MatterWorkspace } from './matter-workspace-page';

const matter = makeMatter({
  id: '11111111-1111-4111-8111-111111111111',
  organizationId: '22222222-2222-4222-8222-222222222222',
  matterName: 'Smith v Jones',
});

function node(id: string, name: string, nodeType: 'file' | 'folder', parentId: string | null, children: NodeTreeDto[] = []): NodeTreeDto {
  const fileSize = nodeType === 'file' ? 2048 : null;
  return makeNode({ id, name, nodeType, parentId, children, fileSize, matterId: matter.id, organizationId: matter.organizationId });
}

const ids = {
  contracts: '30000000-0000-4000-8000-000000000001',
  signed: '30000000-0000-4000-8000-000000000002',
  deed: '30000000-0000-4000-8000-000000000003',
};
const deed = node(ids.deed, 'Orchid deed.pdf', 'file', ids.signed);
const signed = node(ids.signed, 'Signed', 'folder', ids.contracts, [deed]);
const contracts = node(ids.contracts, 'Contracts', 'folder', null, [signed]);

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

const hits = (q: string, nodes: SearchResponse['groups'][number]['nodes']): SearchResponse => ({
  query: q,
  page: 1,
  limit: 50,
  hasMore: false,
  groups: [
    {
      matter: {
        id: matter.id,
        matterName: matter.matterName,
        matterNumber: null,
        clientName: null,
        responsibleLawyer: null,
        status: 'Open',
        legalHold: false,
        matched: false,
      },
      nodes,
    },
  ],
});

const contractsStep = { id: ids.contracts, name: 'Contracts' };
const deedHit = {
  id: ids.deed,
  name: 'Orchid deed.pdf',
  kind: 'file' as const,
  size: 2048,
  parentId: ids.signed,
  path: [contractsStep, { id: ids.signed, name: 'Signed' }],
};
const signedHit = { id: ids.signed, name: 'Signed', kind: 'folder' as const, size: null, parentId: ids.contracts, path: [contractsStep] };

let searchAnswer: (q: string) => Response;
let calls: FetchCall[];
beforeEach(() => {
  searchAnswer = (q) => Response.json(hits(q, [deedHit, signedHit]));
  calls = stubFetch(({ url, path }) => {
    if (path === '/_api/matters/detail') return Response.json({ matter, nodes: [contracts] });
    if (path === '/_api/search') return searchAnswer(url.searchParams.get('q') ?? '');
    return Response.json({ error: 'not here' }, { status: 404 });
  });
});

async function open() {
  const r = renderWithClient(
    <MemoryRouter initialEntries={[`/matters/${matter.id}`]}>
      <TooltipProvider delayDuration={0}>
        <MatterWorkspace matterId={matter.id} user={user} />
      </TooltipProvider>
    </MemoryRouter>,
  );
  const box = await screen.findByRole('searchbox', { name: SEARCH_MSG.inMatterLabel });
  return { ...r, box };
}

const searches = () => calls.filter((c) => c.path === '/_api/search');

describe('Search in this matter', () => {
  it('finds files and folders at any depth on the server, each with its path, and clearing the box brings back the listing', async () => {
    const { user: u, box } = await open();
    expect(box).toHaveAttribute('placeholder', SEARCH_MSG.inMatterPlaceholder);
    await u.type(box, 'orchid');
    // A skeleton while the typing settles and the answer comes.
    expect(screen.getByLabelText('Searching')).toHaveAttribute('aria-busy', 'true');
    const results = await screen.findByRole('region', { name: SEARCH_MSG.inMatterResults('orchid') });
    // One request for the settled text, limited to this matter.
    expect(searches()).toHaveLength(1);
    expect(Object.fromEntries(searches()[0]!.url.searchParams)).toMatchObject({ q: 'orchid', matterId: matter.id });
    const file = within(results).getByRole('button', { name: /File Orchid deed\.pdf/ });
    expect(file).toHaveTextContent('Root / Contracts / Signed');
    expect(within(results).getByRole('button', { name: /Folder Signed/ })).toHaveTextContent('Root / Contracts');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    await u.clear(box);
    expect(await screen.findByRole('table', { name: 'Contents of Root' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: /Files and folders matching/ })).not.toBeInTheDocument();
  });

  it('choosing a file opens its folder with the file selected, from the keyboard', async () => {
    const { user: u, box } = await open();
    await u.type(box, 'orchid');
    const file = await screen.findByRole('button', { name: /File Orchid deed\.pdf/ });
    file.focus();
    await u.keyboard('{Enter}');
    const table = await screen.findByRole('table', { name: 'Contents of Signed' });
    const row = within(table).getByRole('row', { name: 'File Orchid deed.pdf' });
    expect(row).toHaveAttribute('aria-current', 'true');
    await waitFor(() => expect(row).toHaveFocus());
    expect(box).toHaveValue('');
  });

  it('choosing a folder opens it', async () => {
    const { user: u, box } = await open();
    await u.type(box, 'sig');
    await u.click(await screen.findByRole('button', { name: /Folder Signed/ }));
    expect(await screen.findByRole('table', { name: 'Contents of Signed' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByText('Signed')).toHaveAttribute('aria-current', 'page');
  });

  it('shows the empty state when nothing matches', async () => {
    searchAnswer = (q) => Response.json({ ...hits(q, []), groups: [] });
    const { user: u, box } = await open();
    await u.type(box, 'zz');
    expect(await screen.findByText(SEARCH_MSG.inMatterNoResults)).toBeInTheDocument();
  });

  it('shows the error with Retry, and Retry asks again', async () => {
    searchAnswer = () => Response.json({ error: 'Database unavailable.' }, { status: 503 });
    const { user: u, box } = await open();
    await u.type(box, 'orchid');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(SEARCH_MSG.failed);
    searchAnswer = (q) => Response.json(hits(q, [deedHit]));
    await u.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('button', { name: /File Orchid deed\.pdf/ })).toHaveTextContent('Root / Contracts / Signed');
  });

  it('waits for two characters before asking the server', async () => {
    const { user: u, box } = await open();
    await u.type(box, 'o');
    await new Promise((r) => setTimeout(r, 400));
    expect(searches()).toHaveLength(0);
    expect(screen.getByRole('table', { name: 'Contents of Root' })).toBeInTheDocument();
  });
});
