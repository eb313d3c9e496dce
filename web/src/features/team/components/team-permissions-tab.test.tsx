import { screen, waitFor, within } from '@testing-library/react';
import { toast, Toaster } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_PERMISSIONS,
  MSG,
  TEAM_MSG,
  UNDO_MSG,
  type GuestGrant,
  type ManagedUser,
  type GuestGrantAccess,
  type PendingInvitation,
  type SessionUser,
  type TeamListResponse,
} from '@strongroom/contracts';
import { resetMfaRequestsForTest } from '@/lib/mfa-bridge';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { makeMatter } from '@/test/matter';
import { MfaHost } from '@/test/mfa-host';
import { TeamPermissionsTab } from './team-permissions-tab';

const VALID_CODE = '246810';
const ADMIN_ID = '11111111-1111-4111-8111-111111111111';
const CARA_ID = '22222222-2222-4222-8222-222222222222';
const GUS_ID = '33333333-3333-4333-8333-333333333333';
const DAN_ID = '44444444-4444-4444-8444-444444444444';

const viewer: SessionUser = {
  id: 1,
  email: 'ada@firm.test',
  displayName: 'Ada Admin',
  profileId: 'p1',
  organizationId: 'org-1',
  organizationName: 'Firm',
  role: 'admin',
  status: 'active',
  permissions: DEFAULT_PERMISSIONS.admin,
  mfaSetupRequired: false,
  mfaEnabled: true,
  mfaPrimaryMethod: 'totp',
};

function member(over: Partial<ManagedUser>): ManagedUser {
  return {
    id: CARA_ID,
    organizationId: 'org-1',
    fullName: 'Cara User',
    email: 'cara@firm.test',
    role: 'user',
    status: 'active',
    permissions: { ...DEFAULT_PERMISSIONS.user },
    mfaEnabled: true,
    mfaMethod: 'totp',
    version: 4,
    updatedAt: '2026-11-20T10:00:00.000Z',
    updatedBy: null,
    lastSignInAt: null,
    guestMatterCount: 0,
    ...over,
  };
}

const mfaRequired = () =>
  Response.json(
    {
      error: 'MFA_REQUIRED',
      code: 'MFA_REQUIRED',
      mfaRequired: true,
      message: MSG.mfaRequired,
      details: { operation: 'MFA_USER_MANAGEMENT' },
    },
    { status: 401 },
  );

/** The server of these tests: the team, and what each call answers (replaced per test). */
let users: ManagedUser[];
let invitations: PendingInvitation[];
let grants: GuestGrant[];
let onManage: (body: Record<string, unknown>) => Response;
let onDeactivate: (body: Record<string, unknown>) => Response;
let onResetMfa: (body: Record<string, unknown>) => Response;
let calls: FetchCall[];
/** While set, the team list answers only once it resolves (to see the loading state). */
let listGate: Promise<void> | null = null;
const callsTo = (path: string) => calls.filter((c) => c.path === path).map((c) => c.body as Record<string, unknown>);

const changed = (u: ManagedUser, patch: Partial<ManagedUser>) => {
  const next = { ...u, ...patch, version: u.version + 1 };
  users = users.map((x) => (x.id === u.id ? next : x));
  return next;
};

beforeEach(() => {
  users = [
    member({ id: ADMIN_ID, fullName: 'Ada Admin', email: 'ada@firm.test', role: 'admin', permissions: { ...DEFAULT_PERMISSIONS.admin } }),
    member({}),
    member({
      id: GUS_ID,
      fullName: 'Gus Guest',
      email: 'gus@firm.test',
      role: 'guest',
      permissions: { ...DEFAULT_PERMISSIONS.guest },
      mfaEnabled: false,
      mfaMethod: null,
    }),
    member({ id: DAN_ID, fullName: 'Dan Former', email: 'dan@firm.test', status: 'deactivated' }),
  ];
  invitations = [
    {
      id: '55555555-5555-4555-8555-555555555555',
      email: 'new@firm.test',
      role: 'user',
      invitedBy: { name: 'Ada Admin' },
      createdAt: '2026-11-25T00:00:00.000Z',
      expiresAt: '2026-12-02T00:00:00.000Z',
    },
  ];
  onManage = (body) => {
    const u = users.find((x) => x.id === body.userId)!;
    const changes = body.changes as { role?: ManagedUser['role']; isActive?: boolean; permissions?: Partial<ManagedUser['permissions']> };
    const next = changed(u, {
      ...(changes.role ? { role: changes.role } : {}),
      ...(changes.isActive !== undefined ? { status: changes.isActive ? 'active' : 'deactivated' } : {}),
      permissions: { ...(changes.role ? DEFAULT_PERMISSIONS[changes.role] : u.permissions), ...changes.permissions },
    });
    return Response.json({
      success: true,
      message: TEAM_MSG.userUpdated,
      updatedUser: { userId: next.id, version: next.version },
      user: next,
      undoId: 'a0a0a0a0-0000-4000-8000-000000000001',
      undoExpiresAt: '2030-01-01T00:00:00.000Z',
    });
  };
  onDeactivate = (body) => {
    const next = changed(
      users.find((x) => x.id === body.userId)!,
      { status: 'deactivated' },
    );
    return Response.json({
      success: true,
      message: TEAM_MSG.deactivated,
      updatedUser: { userId: next.id, version: next.version },
      user: next,
    });
  };
  onResetMfa = (body) => {
    if (body.mfaToken !== VALID_CODE) return mfaRequired();
    const next = changed(
      users.find((x) => x.id === body.userId)!,
      { mfaMethod: 'email' },
    );
    return Response.json({ success: true, message: 'reset', user: next });
  };
  listGate = null;
  grants = [];
  calls = stubFetch(({ path, body }) => {
    const b = (body ?? {}) as Record<string, unknown>;
    switch (path) {
      case '/_api/settings/users':
        if (listGate)
          return listGate.then(() => Response.json({ users, invitations, canManage: true, canInvite: true, invitableRoles: [] }));
        return Response.json({
          users,
          invitations,
          canManage: true,
          canInvite: true,
          invitableRoles: ['admin', 'user', 'guest'],
        } satisfies TeamListResponse);
      case '/_api/settings/users/manage':
        return onManage(b);
      case '/_api/settings/users/deactivate':
        return onDeactivate(b);
      case '/_api/settings/users/reset-mfa':
        return onResetMfa(b);
      case '/_api/settings/guest-access':
        return Response.json({ grants });
      case '/_api/settings/guest-access/grant': {
        const access = (b.access as GuestGrantAccess | undefined) ?? 'download';
        if (grants.some((g) => g.matterId === b.matterId)) {
          grants = grants.map((g) => (g.matterId === b.matterId ? { ...g, access } : g));
          return Response.json({ success: true, message: TEAM_MSG.guestAccessChanged, grants });
        }
        grants = [
          ...grants,
          {
            userId: GUS_ID,
            matterId: b.matterId as string,
            matterName: 'Lease dispute',
            matterNumber: 'MAT-2026-001',
            grantedBy: { name: 'Ada Admin' },
            grantedAt: '2026-11-26T09:00:00.000Z',
            access,
          },
        ];
        return Response.json({ success: true, message: TEAM_MSG.guestGranted, grants });
      }
      case '/_api/settings/guest-access/revoke':
        grants = grants.filter((g) => g.matterId !== b.matterId);
        return Response.json({ success: true, message: TEAM_MSG.guestRevoked, grants });
      case '/_api/matters/list':
        return Response.json({ matters: [makeMatter()], totalCount: 1 });
      case '/_api/settings/users/invitations/resend':
        return Response.json({ success: true, message: 'sent', invitation: invitations[0] });
      case '/_api/settings/users/invitations/revoke':
        invitations = [];
        return Response.json({ success: true, message: TEAM_MSG.invitationRevoked });
      case '/_api/undo':
        return Response.json({ success: true, message: UNDO_MSG.success, kind: 'user.update', targetId: CARA_ID, matterId: null });
      default:
        return Response.json({ error: 'not here', code: 'NOT_FOUND' }, { status: 404 });
    }
  });
});
afterEach(() => {
  // Sonner keeps its toasts between renders: each test starts without the last one's.
  toast.dismiss();
  resetMfaRequestsForTest();
  vi.restoreAllMocks();
});

function renderTab() {
  return renderWithClient(
    <>
      <TeamPermissionsTab viewer={viewer} />
      <MfaHost />
      <Toaster />
    </>,
  );
}

async function openDrawer(name: string) {
  const r = renderTab();
  await r.user.click(await screen.findByRole('button', { name: `Manage ${name}` }));
  const drawer = await screen.findByRole('dialog', { name });
  return { ...r, drawer };
}

describe('Team table', () => {
  it('shows 3 skeleton rows, then each user with role, status and the permissions summary', async () => {
    renderTab();
    expect(screen.getAllByTestId('team-skeleton-row')).toHaveLength(3);
    const table = await screen.findByRole('table', { name: 'Team & Permissions' });
    await within(table).findByText('Cara User');
    const row = (name: string) => within(table).getByText(name).closest('tr')!;
    expect(row('Ada Admin')).toHaveTextContent('ada@firm.test');
    expect(row('Ada Admin')).toHaveTextContent('Administrator');
    expect(row('Ada Admin')).toHaveTextContent(TEAM_MSG.summaryFullAccess);
    expect(row('Cara User')).toHaveTextContent(TEAM_MSG.summaryCustom);
    expect(row('Gus Guest')).toHaveTextContent('Guest');
    expect(row('Dan Former')).toHaveTextContent('Deactivated');
    expect(row('Dan Former')).toHaveTextContent(TEAM_MSG.summaryNoAccess);
    expect(within(row('Cara User')).getByRole('button', { name: 'Manage Cara User' })).toBeInTheDocument();
    // One cannot deactivate oneself from the list.
    expect(within(row('Ada Admin')).queryByRole('button', { name: /Deactivate/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Invite User' })).toBeInTheDocument();
    expect(screen.getByText('new@firm.test')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend invitation to new@firm.test' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Revoke invitation to new@firm.test' })).toBeInTheDocument();
  });
});

describe('Manage drawer', () => {
  it('loads with 8 permission skeleton rows, then shows the user, their role and their 8 switches', async () => {
    const { user } = renderTab();
    const manage = await screen.findByRole('button', { name: 'Manage Cara User' });
    let release = () => {};
    listGate = new Promise<void>((r) => (release = r));
    await user.click(manage);
    expect(await screen.findByRole('list', { name: 'Loading permissions' })).toBeInTheDocument();
    expect(within(screen.getByRole('list', { name: 'Loading permissions' })).getAllByRole('listitem')).toHaveLength(8);
    release();
    const drawer = await screen.findByRole('dialog', { name: 'Cara User' });
    expect(drawer).toHaveTextContent('cara@firm.test');
    expect(within(drawer).getAllByText('Active')).toHaveLength(2);
    expect(within(drawer).getByRole('combobox', { name: 'Role' })).toHaveTextContent('User');
    expect(within(drawer).getAllByRole('switch')).toHaveLength(9);
    expect(within(drawer).getByRole('switch', { name: 'Upload' })).toBeChecked();
    expect(within(drawer).getByRole('switch', { name: 'Delete' })).not.toBeChecked();
    expect(within(drawer).getByRole('switch', { name: 'Account Status' })).toBeChecked();
    // Nothing changed: Save is disabled and no indicator shows.
    expect(within(drawer).getByRole('button', { name: 'Save Changes' })).toBeDisabled();
    expect(within(drawer).queryByText('Unsaved changes')).toBeNull();
  });

  it('a role change asks for a reason of 10 characters, resets the switches to the role defaults and saves with the version read', async () => {
    const { user, drawer } = await openDrawer('Cara User');
    await user.click(within(drawer).getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'Administrator' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change role to Administrator for Cara User?' });
    await user.type(within(dialog).getByLabelText('Reason'), 'too short');
    await user.click(within(dialog).getByRole('button', { name: 'Change Role' }));
    expect(await within(dialog).findByText(TEAM_MSG.roleReasonMin)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Reason'), ' - promoted to partner');
    await user.click(within(dialog).getByRole('button', { name: 'Change Role' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /Change role/ })).toBeNull());

    expect(within(drawer).getByRole('combobox', { name: 'Role' })).toHaveTextContent('Administrator');
    for (const s of within(drawer)
      .getAllByRole('switch')
      .filter((x) => x.id.startsWith('perm-')))
      expect(s).toBeChecked();
    expect(within(drawer).getByText('Unsaved changes')).toBeInTheDocument();
    await user.click(within(drawer).getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText(TEAM_MSG.updated('Cara User'))).toBeInTheDocument();
    expect(screen.getByText('User updated successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Cara User' })).toBeNull());
    const [sent] = callsTo('/_api/settings/users/manage');
    expect(sent).toMatchObject({
      userId: CARA_ID,
      version: 4,
      updatedBy: 'Ada Admin',
      reason: 'too short - promoted to partner',
      changes: { role: 'admin', permissions: DEFAULT_PERMISSIONS.admin },
    });
    expect(Number.isNaN(Date.parse(sent!.timestamp as string))).toBe(false);

    // The toast offers Undo.
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText(UNDO_MSG.success)).toBeInTheDocument();
    expect(callsTo('/_api/undo')).toEqual([{ undoId: 'a0a0a0a0-0000-4000-8000-000000000001' }]);
  });

  it('sends only the switches moved; switching back leaves nothing to save', async () => {
    const { user, drawer } = await openDrawer('Cara User');
    const rename = within(drawer).getByRole('switch', { name: 'Rename' });
    await user.click(rename);
    expect(within(drawer).getByText('Unsaved changes')).toBeInTheDocument();
    await user.click(rename);
    expect(within(drawer).getByRole('button', { name: 'Save Changes' })).toBeDisabled();
    await user.click(rename);
    await user.click(within(drawer).getByRole('button', { name: 'Save Changes' }));
    await screen.findByText(TEAM_MSG.updated('Cara User'));
    expect(callsTo('/_api/settings/users/manage')[0]!.changes).toEqual({ permissions: { canRename: true } });
  });

  it('asks before deactivating and before closing with unsaved changes', async () => {
    const confirm = vi.fn(() => false);
    vi.stubGlobal('confirm', confirm);
    const { user, drawer } = await openDrawer('Cara User');
    await user.click(within(drawer).getByRole('switch', { name: 'Account Status' }));
    const ask = await screen.findByRole('dialog', { name: 'Deactivate User?' });
    expect(ask).toHaveTextContent(TEAM_MSG.deactivateWarning);
    await user.click(within(ask).getByRole('button', { name: 'Deactivate' }));
    expect(within(drawer).getByRole('switch', { name: 'Account Status' })).not.toBeChecked();

    await user.click(within(drawer).getByRole('button', { name: 'Cancel' }));
    expect(confirm).toHaveBeenCalledWith(TEAM_MSG.unsavedChangesConfirm);
    expect(screen.getByRole('dialog', { name: 'Cara User' })).toBeInTheDocument();
    confirm.mockReturnValue(true);
    await user.click(within(drawer).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Cara User' })).toBeNull());
    expect(callsTo('/_api/settings/users/manage')).toHaveLength(0);
  });

  it('reactivation asks with its own dialog', async () => {
    const { user, drawer } = await openDrawer('Dan Former');
    await user.click(within(drawer).getByRole('switch', { name: 'Account Status' }));
    const ask = await screen.findByRole('dialog', { name: 'Reactivate User?' });
    expect(ask).toHaveTextContent(TEAM_MSG.reactivateWarning);
    await user.click(within(ask).getByRole('button', { name: 'Reactivate' }));
    await user.click(within(drawer).getByRole('button', { name: 'Save Changes' }));
    await screen.findByText(TEAM_MSG.updated('Dan Former'));
    expect(callsTo('/_api/settings/users/manage')[0]!.changes).toEqual({ isActive: true });
  });

  it('a stale version shows the Edit Conflict dialog with who changed the user, and refreshes the form', async () => {
    onManage = () => {
      changed(users[1]!, { permissions: { ...DEFAULT_PERMISSIONS.user, canDelete: true } });
      return Response.json(
        {
          error: TEAM_MSG.conflict,
          code: 'CONFLICT_ERROR',
          details: {
            reason: 'VERSION_MISMATCH',
            conflictData: { updatedBy: { name: 'Bea Second' }, updatedAt: '2026-11-26T09:00:00.000Z', currentVersion: 5 },
          },
        },
        { status: 409 },
      );
    };
    const { user, drawer } = await openDrawer('Cara User');
    await user.click(within(drawer).getByRole('switch', { name: 'Rename' }));
    await user.click(within(drawer).getByRole('button', { name: 'Save Changes' }));
    const dialog = await screen.findByRole('dialog', { name: TEAM_MSG.conflictTitle });
    expect(dialog).toHaveTextContent(TEAM_MSG.conflict);
    expect(dialog).toHaveTextContent('Bea Second');
    expect(await screen.findByText(TEAM_MSG.conflictToast)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(await screen.findByText(TEAM_MSG.conflictResolved)).toBeInTheDocument();
    // The form shows the other change and none of ours.
    expect(within(drawer).getByRole('switch', { name: 'Delete' })).toBeChecked();
    expect(within(drawer).getByRole('switch', { name: 'Rename' })).not.toBeChecked();

    // The next save goes against the newer version.
    onManage = (body) =>
      Response.json({
        success: true,
        message: 'ok',
        updatedUser: { userId: CARA_ID, version: 6 },
        user: { ...users[1]!, version: 6, ...(body as object) },
      });
    await user.click(within(drawer).getByRole('switch', { name: 'Rename' }));
    await user.click(within(drawer).getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(callsTo('/_api/settings/users/manage')).toHaveLength(2));
    expect(callsTo('/_api/settings/users/manage')[1]!.version).toBe(5);
  });

  it('the last administrator: Operation blocked, shown in the drawer', async () => {
    onManage = () =>
      Response.json({ error: TEAM_MSG.operationBlocked, code: 'LAST_ADMIN_ERROR', message: TEAM_MSG.lastAdmin }, { status: 409 });
    const { user, drawer } = await openDrawer('Cara User');
    await user.click(within(drawer).getByRole('switch', { name: 'Vault' }));
    await user.click(within(drawer).getByRole('button', { name: 'Save Changes' }));
    const alert = await within(drawer).findByRole('alert');
    expect(alert).toHaveTextContent(TEAM_MSG.operationBlocked);
    expect(alert).toHaveTextContent(TEAM_MSG.lastAdmin);
    // The list shows the stored state again.
    expect(screen.getByRole('dialog', { name: 'Cara User' })).toBeInTheDocument();
  });

  it('a rate-limit refusal is toasted and Save waits for the time the server names', async () => {
    onManage = () =>
      Response.json({ error: TEAM_MSG.tooManyRequests, code: 'RATE_LIMIT_EXCEEDED', details: { retryAfterSeconds: 42 } }, { status: 429 });
    const { user, drawer } = await openDrawer('Cara User');
    await user.click(within(drawer).getByRole('switch', { name: 'Vault' }));
    await user.click(within(drawer).getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText(TEAM_MSG.tooManyRequests)).toBeInTheDocument();
    expect(within(drawer).getByText(/Please wait 4\d s before trying again\./)).toBeInTheDocument();
    expect(within(drawer).getByRole('button', { name: 'Save Changes' })).toBeDisabled();
  });

  it('with MFA_USER_MANAGEMENT on, the save asks for a code; a business refusal that comes with it shows in the drawer, not the prompt', async () => {
    onManage = (body) =>
      body.mfaToken === VALID_CODE
        ? Response.json({ error: TEAM_MSG.operationBlocked, code: 'LAST_ADMIN_ERROR', message: TEAM_MSG.lastAdmin }, { status: 409 })
        : mfaRequired();
    const { user, drawer } = await openDrawer('Cara User');
    await user.click(within(drawer).getByRole('switch', { name: 'Vault' }));
    await user.click(within(drawer).getByRole('button', { name: 'Save Changes' }));
    const mfa = await screen.findByRole('dialog', { name: 'Verification required' });
    await user.type(within(mfa).getByLabelText('Verification Code'), VALID_CODE);
    await user.click(within(mfa).getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Verification required' })).toBeNull());
    expect(await within(drawer).findByRole('alert')).toHaveTextContent(TEAM_MSG.operationBlocked);
  });

  it('Reset MFA: only for an active user with MFA; a reason of 10 characters, then the admin code', async () => {
    const { user, drawer } = await openDrawer('Cara User');
    await user.click(within(drawer).getByRole('button', { name: 'Reset MFA' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset Multi-Factor Authentication?' });
    expect(dialog).toHaveTextContent(TEAM_MSG.auditReasonHint);
    await user.type(within(dialog).getByLabelText('Reason'), 'lost it');
    await user.click(within(dialog).getByRole('button', { name: 'Reset MFA' }));
    expect(await within(dialog).findByText(TEAM_MSG.auditReasonMin)).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Reason'), ' - phone stolen');
    await user.click(within(dialog).getByRole('button', { name: 'Reset MFA' }));
    const mfa = await screen.findByRole('dialog', { name: 'Verification required' });
    await user.type(within(mfa).getByLabelText('Verification Code'), VALID_CODE);
    await user.click(within(mfa).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(TEAM_MSG.mfaReset('Cara User'))).toBeInTheDocument();
    expect(callsTo('/_api/settings/users/reset-mfa').at(-1)).toEqual({
      userId: CARA_ID,
      reason: 'lost it - phone stolen',
      mfaToken: VALID_CODE,
    });
  });

  it('no Reset MFA for a user without MFA or a deactivated one', async () => {
    const { user, drawer } = await openDrawer('Gus Guest');
    expect(within(drawer).queryByRole('button', { name: 'Reset MFA' })).toBeNull();
    // A guest's shared matters are listed in the drawer.
    expect(await within(drawer).findByText(TEAM_MSG.guestNoGrants)).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Gus Guest' })).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Manage Dan Former' }));
    const dan = await screen.findByRole('dialog', { name: 'Dan Former' });
    expect(within(dan).queryByRole('button', { name: 'Reset MFA' })).toBeNull();
  });
});

describe('Deactivate User Account', () => {
  it('deactivates from the list, with Undo in the toast', async () => {
    const { user } = renderTab();
    await user.click(await screen.findByRole('button', { name: 'Deactivate Cara User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate User Account' });
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate User' }));
    expect(await screen.findByText(TEAM_MSG.deactivated)).toBeInTheDocument();
    expect(callsTo('/_api/settings/users/deactivate')).toEqual([{ userId: CARA_ID, version: 4 }]);
  });

  it('refuses a short reason, and shows the last-admin block in the dialog', async () => {
    onDeactivate = () =>
      Response.json({ error: TEAM_MSG.operationBlocked, code: 'LAST_ADMIN_ERROR', message: TEAM_MSG.lastAdmin }, { status: 409 });
    const { user } = renderTab();
    await user.click(await screen.findByRole('button', { name: 'Deactivate Cara User' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate User Account' });
    await user.type(within(dialog).getByLabelText('Reason (optional)'), 'short');
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate User' }));
    expect(await within(dialog).findByText(TEAM_MSG.auditReasonMin)).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Reason (optional)'));
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate User' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent(TEAM_MSG.operationBlocked);
    expect(alert).toHaveTextContent(TEAM_MSG.lastAdmin);
  });
});

describe('Pending invitations and guests', () => {
  it('resends and revokes a pending invitation', async () => {
    const { user } = renderTab();
    await user.click(await screen.findByRole('button', { name: 'Resend invitation to new@firm.test' }));
    expect(await screen.findByText(TEAM_MSG.invitationResent('new@firm.test'))).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Revoke invitation to new@firm.test' }));
    expect(await screen.findByText(TEAM_MSG.invitationRevoked)).toBeInTheDocument();
    expect(await screen.findByText('No invitations are waiting to be accepted.')).toBeInTheDocument();
    expect(callsTo('/_api/settings/users/invitations/revoke')).toEqual([{ invitationId: '55555555-5555-4555-8555-555555555555' }]);
  });

  it("an administrator shares a matter from the guest's drawer and stops sharing it", async () => {
    const { user, drawer } = await openDrawer('Gus Guest');
    const shared = within(drawer).getByRole('region', { name: 'Shared matters' });
    expect(await within(shared).findByText(TEAM_MSG.guestNoGrants)).toBeInTheDocument();
    await user.click(await within(shared).findByRole('button', { name: 'Share Lease dispute' }));
    expect(await screen.findByText(TEAM_MSG.guestGranted)).toBeInTheDocument();
    expect(within(shared).getByRole('list', { name: 'Matters shared with this guest' })).toHaveTextContent('Lease dispute');
    await user.click(within(shared).getByRole('button', { name: 'Stop sharing Lease dispute' }));
    expect(await screen.findByText(TEAM_MSG.guestRevoked)).toBeInTheDocument();
    expect(await within(shared).findByText(TEAM_MSG.guestNoGrants)).toBeInTheDocument();
    expect(callsTo('/_api/settings/guest-access/grant')).toEqual([{ userId: GUS_ID, matterId: makeMatter().id, access: 'download' }]);
  });

  it("shares a matter view only, shows each grant's access, and changes it to download", async () => {
    const { user, drawer } = await openDrawer('Gus Guest');
    const shared = within(drawer).getByRole('region', { name: 'Shared matters' });
    await user.selectOptions(within(shared).getByLabelText('Shared as'), 'View only');
    expect(within(shared).getByText('The guest sees the files but cannot download them.')).toBeInTheDocument();
    await user.click(await within(shared).findByRole('button', { name: 'Share Lease dispute' }));
    expect(await screen.findByText(TEAM_MSG.guestGranted)).toBeInTheDocument();
    const access = within(shared).getByRole('combobox', { name: 'Access to Lease dispute' });
    expect(access).toHaveValue('view');
    await user.selectOptions(access, 'Can download');
    expect(await screen.findByText(TEAM_MSG.guestAccessChanged)).toBeInTheDocument();
    expect(within(shared).getByRole('combobox', { name: 'Access to Lease dispute' })).toHaveValue('download');
    expect(callsTo('/_api/settings/guest-access/grant')).toEqual([
      { userId: GUS_ID, matterId: makeMatter().id, access: 'view' },
      { userId: GUS_ID, matterId: makeMatter().id, access: 'download' },
    ]);
  });
});
