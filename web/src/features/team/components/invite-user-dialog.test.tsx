import { screen, waitFor, within } from '@testing-library/react';
import { Toaster } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG, TEAM_MSG, type Role } from '@strongroom/contracts';
import { resetMfaRequestsForTest } from '@/lib/mfa-bridge';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { MfaHost } from '@/test/mfa-host';
import { InviteUserDialog } from './invite-user-dialog';

const VALID_CODE = '246810';
const mfaRequired = () =>
  Response.json(
    {
      error: 'MFA_REQUIRED',
      code: 'MFA_REQUIRED',
      mfaRequired: true,
      message: MSG.mfaRequired,
      details: { operation: 'MFA_USER_MANAGEMENT', availableMethods: ['totp'], mfaMethod: 'totp' },
    },
    { status: 401 },
  );

/** The server: the invite call demands a fresh code; with the right one it sends the invitation. */
let calls: FetchCall[];
const invites = () => calls.filter((c) => c.path === '/_api/settings/users/invite').map((c) => c.body);

beforeEach(() => {
  calls = stubFetch(({ path, body }) => {
    if (path !== '/_api/settings/users/invite') return Response.json({ error: 'not here' }, { status: 404 });
    const { email, role, mfaToken } = body as { email: string; role: string; mfaToken?: string };
    if (mfaToken !== VALID_CODE) return mfaRequired();
    return Response.json({
      success: true,
      message: MSG.inviteSent(email),
      invitation: { id: 'i1', email, role, expiresAt: '2030-01-01T00:00:00.000Z' },
    });
  });
});
afterEach(() => resetMfaRequestsForTest());

const ADMIN_ROLES: Role[] = ['admin', 'user', 'guest'];

function open(roles: Role[] = ADMIN_ROLES) {
  const onOpenChange = vi.fn();
  const r = renderWithClient(
    <>
      <InviteUserDialog open onOpenChange={onOpenChange} roles={roles} />
      <MfaHost />
      <Toaster />
    </>,
  );
  return { ...r, dialog: screen.getByRole('dialog', { name: 'Invite New Team Member' }), onOpenChange };
}

describe('Invite New Team Member', () => {
  it('is titled Invite New Team Member', () => {
    open();
    expect(screen.getByRole('heading', { name: 'Invite New Team Member' })).toBeInTheDocument();
  });

  it('starts with the User role; administrators may also choose Admin, others only User and Guest', async () => {
    const admin = open();
    const role = within(admin.dialog).getByRole('combobox', { name: 'Role' });
    expect(role).toHaveTextContent('User');
    expect(role).toHaveAccessibleDescription('Standard access: upload and download files.');
    await admin.user.click(role);
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['User', 'Guest', 'Admin']);
    await admin.user.click(screen.getByRole('option', { name: 'Guest' }));
    expect(role).toHaveTextContent('Guest');
    expect(role).toHaveAccessibleDescription('Limited, read-only access to the matters shared with them.');
    admin.unmount();

    const manager = open(['user', 'guest']);
    await manager.user.click(within(manager.dialog).getByRole('combobox', { name: 'Role' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['User', 'Guest']);
    manager.unmount();

    // Someone who may only invite guests starts on Guest and has nothing else to pick.
    const inviter = open(['guest']);
    const only = within(inviter.dialog).getByRole('combobox', { name: 'Role' });
    expect(only).toHaveTextContent('Guest');
    await inviter.user.click(only);
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['Guest']);
  });

  it('refuses a missing or malformed email on the field and sends nothing', async () => {
    const { user, dialog } = open();
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    const email = within(dialog).getByLabelText('Email');
    expect(await within(dialog).findByText(MSG.validEmail)).toBeInTheDocument();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    await user.type(email, 'colleague@');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(within(dialog).getByText(MSG.validEmail)).toBeInTheDocument();
    expect(invites()).toHaveLength(0);
  });

  it('asks for a fresh code when the server demands one, then sends the same invitation with it', async () => {
    const { user, dialog, onOpenChange } = open();
    await user.type(within(dialog).getByLabelText('Email'), 'cole@acme.test');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));

    const mfa = await screen.findByRole('dialog', { name: 'Verification required' });
    expect(mfa).toHaveTextContent(MSG.mfaRequired);
    // A wrong code keeps the dialog open with the reason.
    await user.type(within(mfa).getByLabelText('Verification Code'), '111111');
    await user.click(within(mfa).getByRole('button', { name: 'Verify' }));
    expect(await within(mfa).findByText(MSG.invalidCode)).toBeInTheDocument();

    await user.type(within(mfa).getByLabelText('Verification Code'), VALID_CODE);
    await user.click(within(mfa).getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(MSG.inviteSent('cole@acme.test'))).toBeInTheDocument();
    await waitFor(() => expect(onOpenChange).toHaveBeenCalledWith(false));
    expect(invites()).toEqual([
      { email: 'cole@acme.test', role: 'user' },
      { email: 'cole@acme.test', role: 'user', mfaToken: '111111' },
      { email: 'cole@acme.test', role: 'user', mfaToken: VALID_CODE },
    ]);
  });

  it('says a code is needed, without alarm, when the user closes the code dialog', async () => {
    const { user, dialog, onOpenChange } = open();
    await user.type(within(dialog).getByLabelText('Email'), 'cole@acme.test');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    const mfa = await screen.findByRole('dialog', { name: 'Verification required' });
    await user.click(within(mfa).getByRole('button', { name: 'Cancel' }));
    expect(await within(dialog).findByText(MSG.mfaRequired)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Email')).toHaveValue('cole@acme.test');
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(invites()).toHaveLength(1);
  });
  it('says what a guest will see before a guest is invited', async () => {
    const { user, dialog } = open();
    expect(within(dialog).queryByText(TEAM_MSG.guestNoGrants)).toBeNull();
    await user.click(within(dialog).getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'Guest' }));
    expect(within(dialog).getByText(TEAM_MSG.guestNoGrants)).toBeInTheDocument();
  });

  it('an address already invited is refused in the dialog, never inside the code prompt', async () => {
    const alreadyInvited = () =>
      Response.json({ error: TEAM_MSG.alreadyInvited, code: 'CONFLICT_ERROR', details: { reason: 'ALREADY_INVITED' } }, { status: 409 });
    // At the first try (the server checks it before asking for a code) ...
    calls = stubFetch(() => alreadyInvited());
    const first = open();
    await first.user.type(within(first.dialog).getByLabelText('Email'), 'cole@acme.test');
    await first.user.click(within(first.dialog).getByRole('button', { name: 'Send Invitation' }));
    expect(await within(first.dialog).findByRole('alert')).toHaveTextContent(TEAM_MSG.alreadyInvited);
    expect(screen.queryByRole('dialog', { name: 'Verification required' })).toBeNull();
    first.unmount();

    // ... and when it comes with the code (someone invited the address meanwhile): the prompt closes.
    calls = stubFetch(({ body }) => ((body as { mfaToken?: string }).mfaToken === VALID_CODE ? alreadyInvited() : mfaRequired()));
    const { user, dialog } = open();
    await user.type(within(dialog).getByLabelText('Email'), 'cole@acme.test');
    await user.click(within(dialog).getByRole('button', { name: 'Send Invitation' }));
    const mfa = await screen.findByRole('dialog', { name: 'Verification required' });
    await user.type(within(mfa).getByLabelText('Verification Code'), VALID_CODE);
    await user.click(within(mfa).getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Verification required' })).toBeNull());
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(TEAM_MSG.alreadyInvited);
  });
});
