import { MemoryRouter } from 'react-router';
import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PERMISSIONS, type NodeTreeDto, type Permissions, type SessionUser } from '@strongroom/contracts';
import type { Matter } from '@/lib/dates';
import { TooltipProvider } from '@/components/ui/tooltip';
import { renderWithClient } from '@/test/dom';
import { makeMatter } from '@/test/matter';
import { makeNode } from '@/test/node';
import { MatterWorkspace } from './matter-workspace-page';

const READ_ONLY = 'Actions are disabled for read-only matters';

const matter = makeMatter({
  id: '11111111-1111-4111-8111-111111111111',
  organizationId: '22222222-2222-4222-8222-222222222222',
  matterName: 'Smith v Jones',
  clientName: 'Smith Ltd',
  description: null,
  createdAt: new Date('2026-01-02T10:00:00.000Z'),
  updatedAt: new Date('2026-01-02T10:00:00.000Z'),
  version: 1,
});
const folder: NodeTreeDto = makeNode({
  id: '33333333-3333-4333-8333-333333333333',
  matterId: matter.id,
  organizationId: matter.organizationId,
  name: 'Pleadings',
  nodeType: 'folder',
});

function userWith(role: SessionUser['role'], permissions: Partial<Permissions> = {}): SessionUser {
  return {
    id: 1,
    email: 'pat@firm.test',
    displayName: 'Pat',
    profileId: '44444444-4444-4444-8444-444444444444',
    organizationId: matter.organizationId,
    organizationName: 'Acme LLP',
    role,
    status: 'active',
    permissions: { ...DEFAULT_PERMISSIONS[role], ...permissions },
    mfaSetupRequired: false,
    mfaEnabled: true,
    mfaPrimaryMethod: 'email',
  };
}

let detail: { matter: Matter; nodes: NodeTreeDto[] };
beforeEach(() => {
  detail = { matter, nodes: [folder] };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const u = new URL(url, 'http://strongroom.test');
      if (u.pathname === '/_api/matters/detail') return Response.json(detail);
      return Response.json({ error: 'not here' }, { status: 404 });
    }),
  );
});

async function open(user: SessionUser) {
  const r = renderWithClient(
    <MemoryRouter initialEntries={[`/matters/${matter.id}`]}>
      <TooltipProvider delayDuration={0}>
        <MatterWorkspace matterId={matter.id} user={user} />
      </TooltipProvider>
    </MemoryRouter>,
  );
  return { ...r, edit: await screen.findByRole('button', { name: 'Edit' }) };
}

describe('a matter the person may see but not change', () => {
  it('shows the Read-only notice and disables Edit, New folder and Upload with the read-only text', async () => {
    const { edit, user } = await open(userWith('user', { canUpload: false, canRename: false, canDelete: false }));
    expect(screen.getByText('Read-only')).toBeInTheDocument();
    expect(screen.getByText(`${READ_ONLY}.`, { exact: false })).toBeInTheDocument();
    expect(edit).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Create folder' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeDisabled();
    // The reason shows when the keyboard reaches the disabled control (its focusable wrapper).
    for (let i = 0; i < 30 && document.activeElement !== edit.parentElement; i += 1) await user.tab();
    expect(edit.parentElement).toHaveFocus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent(READ_ONLY);
  });

  it('is read-only for everyone once the retention has expired', async () => {
    detail = { matter: { ...matter, retentionExpiresAt: new Date('2020-01-01T00:00:00.000Z') }, nodes: [folder] };
    const { edit } = await open(userWith('admin'));
    expect(screen.getByText('Retention expired', { exact: false })).toBeInTheDocument();
    expect(edit).toBeDisabled();
  });

  it('is not read-only for someone who may change it', async () => {
    const { edit } = await open(userWith('user'));
    expect(edit).toBeEnabled();
    expect(screen.queryByText(READ_ONLY, { exact: false })).not.toBeInTheDocument();
  });
});

describe('the legal hold and vault buttons', { timeout: 20_000 }, () => {
  it('an administrator may apply a hold and vault an open matter', async () => {
    await open(userWith('admin'));
    expect(screen.getByRole('button', { name: 'Apply Legal Hold' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Vault Matter' })).toBeEnabled();
  });

  it('a held matter offers Remove Legal Hold and cannot be vaulted', async () => {
    detail = { matter: { ...matter, legalHold: true, holdReason: 'Pending litigation' }, nodes: [folder] };
    await open(userWith('admin'));
    expect(screen.getByRole('button', { name: 'Remove Legal Hold' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Vault Matter' })).toBeDisabled();
  });

  it('a vaulted matter keeps the hold button for administrators and has no Vault Matter', async () => {
    detail = { matter: { ...matter, isVaulted: true, status: 'Vaulted', legalHold: true }, nodes: [folder] };
    await open(userWith('admin'));
    expect(screen.getByRole('button', { name: 'Remove Legal Hold' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Vault Matter' })).not.toBeInTheDocument();
  });

  it('a member sees no hold button, and Vault Matter only with canVault', async () => {
    const r = await open(userWith('user'));
    expect(screen.queryByRole('button', { name: /Legal Hold/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Vault Matter' })).not.toBeInTheDocument();
    r.unmount();
    await open(userWith('user', { canVault: true }));
    expect(screen.getByRole('button', { name: 'Vault Matter' })).toBeEnabled();
  });
});
