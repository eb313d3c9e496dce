import { act } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PERMISSIONS, type MatterDto, type NodeTreeDto, type Permissions, type SessionUser } from '@strongroom/contracts';
import { TooltipProvider } from '@/components/ui/tooltip';
import { button, mount, waitFor, type Mounted } from '@/test/dom';
import { MatterDetailDialog } from './matter-detail-dialog';

const READ_ONLY = 'Actions are disabled for read-only matters';

const matter: MatterDto = {
  id: '11111111-1111-4111-8111-111111111111',
  organizationId: '22222222-2222-4222-8222-222222222222',
  matterName: 'Smith v Jones',
  matterNumber: 'MAT-2026-001',
  clientName: 'Smith Ltd',
  description: null,
  responsibleLawyer: 'Jane Counsel',
  status: 'Open',
  isVaulted: false,
  legalHold: false,
  holdReason: null,
  retentionExpiresAt: null,
  vaultedAt: null,
  createdAt: '2026-01-02T10:00:00.000Z',
  updatedAt: '2026-01-02T10:00:00.000Z',
  version: 1,
};
const folder: NodeTreeDto = {
  id: '33333333-3333-4333-8333-333333333333',
  matterId: matter.id,
  organizationId: matter.organizationId,
  parentId: null,
  name: 'Pleadings',
  nodeType: 'folder',
  path: '/Pleadings',
  fileSize: null,
  mimeType: null,
  sha256Hash: null,
  storagePath: null,
  uploadId: null,
  uploadStatus: null,
  uploadProgress: null,
  createdBy: null,
  createdAt: matter.createdAt,
  updatedAt: matter.updatedAt,
  children: [],
};

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

let mounted: Mounted | null = null;
let detail: { matter: MatterDto; nodes: NodeTreeDto[] };
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
afterEach(() => {
  mounted?.unmount();
  mounted = null;
  document.body.innerHTML = '';
});

function open(user: SessionUser) {
  mounted = mount(
    <MemoryRouter initialEntries={[`/matters?matter=${matter.id}`]}>
      <TooltipProvider delayDuration={0}>
        <MatterDetailDialog matterId={matter.id} user={user} onClose={() => {}} />
      </TooltipProvider>
    </MemoryRouter>,
  );
  return waitFor(() => button('Edit'));
}

describe('a matter the person may see but not change', () => {
  it('shows the Read-only notice and disables Edit, New folder and Upload with the read-only text', async () => {
    const edit = await open(userWith('user', { canUpload: false, canRename: false, canDelete: false }));
    expect(document.body.textContent).toContain('Read-only');
    expect(document.body.textContent).toContain(`${READ_ONLY}.`);
    expect(edit.disabled).toBe(true);
    expect(button('Create folder').disabled).toBe(true);
    expect(button('Upload').disabled).toBe(true);
    // The reason shows when the disabled control's wrapper gets focus.
    const wrapper = edit.parentElement!;
    act(() => wrapper.focus());
    await waitFor(() => expect(document.body.querySelector('[role="tooltip"]')?.textContent).toBe(READ_ONLY));
  });

  it('is read-only for everyone once the retention has expired', async () => {
    detail = { matter: { ...matter, retentionExpiresAt: '2020-01-01T00:00:00.000Z' }, nodes: [folder] };
    const edit = await open(userWith('admin'));
    expect(document.body.textContent).toContain('Retention expired');
    expect(edit.disabled).toBe(true);
  });

  it('is not read-only for someone who may change it', async () => {
    const edit = await open(userWith('user'));
    expect(edit.disabled).toBe(false);
    expect(document.body.textContent).not.toContain(READ_ONLY);
  });
});
