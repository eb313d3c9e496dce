import { MemoryRouter, useLocation } from 'react-router';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PERMISSIONS, type SessionUser } from '@strongroom/contracts';
import { TooltipProvider } from '@/components/ui/tooltip';
import type { FilePreviewPanelProps } from '@/features/preview/components/file-preview-panel';
import { renderWithClient } from '@/test/dom';
import { stubFetch } from '@/test/fetch-stub';
import { makeMatter } from '@/test/matter';
import { makeNode } from '@/test/node';
import { MatterWorkspace } from './matter-workspace-page';

// The panel itself is tested on its own: here only what the workspace hands it.
vi.mock('@/features/preview/components/file-preview-panel', () => ({
  FilePreviewPanel: ({ node, page, onClose }: FilePreviewPanelProps) => (
    <section aria-label={`Preview of ${node.name}`}>
      <p>Opens at page {page ?? 'none'}</p>
      <button onClick={onClose}>Close preview</button>
    </section>
  ),
}));

const matter = makeMatter({ id: '11111111-1111-4111-8111-111111111111', matterName: 'Smith v Jones' });
const defence = makeNode({ id: '30000000-0000-4000-8000-000000000002', name: 'Defence.pdf', matterId: matter.id, textState: 'indexed' });

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

beforeEach(() => {
  stubFetch(({ path }) => {
    if (path === '/_api/matters/detail') return Response.json({ matter, nodes: [defence] });
    return Response.json({ error: 'not here' }, { status: 404 });
  });
});

function renderAt(url: string) {
  return renderWithClient(
    <MemoryRouter initialEntries={[url]}>
      <Where />
      <TooltipProvider delayDuration={0}>
        <MatterWorkspace matterId={matter.id} user={user} />
      </TooltipProvider>
    </MemoryRouter>,
  );
}

describe('a preview opened at a page (from a search hit)', () => {
  it('hands the page to the preview, and Close drops the page with the preview', async () => {
    const r = renderAt(`/matters/${matter.id}?preview=${defence.id}&page=3`);
    const panel = await screen.findByRole('region', { name: 'Preview of Defence.pdf' });
    expect(within(panel).getByText('Opens at page 3')).toBeInTheDocument();
    await r.user.click(within(panel).getByRole('button', { name: 'Close preview' }));
    expect(screen.getByTestId('location').textContent).toBe(`/matters/${matter.id}`);
  });

  it('ignores a page that is not a page number', async () => {
    renderAt(`/matters/${matter.id}?preview=${defence.id}&page=x`);
    const panel = await screen.findByRole('region', { name: 'Preview of Defence.pdf' });
    expect(within(panel).getByText('Opens at page none')).toBeInTheDocument();
  });
});
