import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG, SETTINGS_MSG, type ProfileResponse } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { MfaHost } from '@/test/mfa-host';
import { ProfileTab } from './profile-tab';

let profile: ProfileResponse;
let calls: FetchCall[];
let answers: Record<string, (call: FetchCall) => Response>;

const QR = 'data:image/png;base64,iVBORw0KGgo=';
const CODES = [
  'k7m2p-x9q4r',
  'a1b2c-d3e4f',
  'g5h6i-j7k8l',
  'm9n0o-p1q2r',
  's3t4u-v5w6x',
  'y7z8a-b9c0d',
  'e1f2g-h3i4j',
  'k5l6m-n7o8p',
  'q9r0s-t1u2v',
  'w3x4y-z5a6b',
];

beforeEach(() => {
  profile = {
    fullName: 'Fay First',
    email: 'fay@first.test',
    phoneNumber: null,
    role: 'user',
    mfaEnabled: true,
    mfaPrimaryMethod: 'email',
    recoveryCodesRemaining: 0,
  };
  answers = {};
  calls = stubFetch((call) => {
    const key = `${call.method} ${call.path}`;
    if (answers[key]) return answers[key](call);
    if (key === 'GET /_api/settings/profile') return Response.json(profile);
    return Response.json({ error: 'Not found.', code: 'NOT_FOUND' }, { status: 404 });
  });
});

function renderTab() {
  const onSessionChange = vi.fn();
  const rendered = renderWithClient(
    <>
      <ProfileTab userId={7} onSessionChange={onSessionChange} />
      <MfaHost />
    </>,
  );
  return { ...rendered, onSessionChange };
}

const card = (name: string) => screen.getByRole('region', { name });

describe('Personal Information', () => {
  it('shows name, email, phone (Not set), role and initials', async () => {
    renderTab();
    const info = await screen.findByRole('region', { name: 'Personal Information' });
    expect(within(info).getByText('Fay First')).toBeInTheDocument();
    expect(within(info).getByText('fay@first.test')).toBeInTheDocument();
    expect(within(info).getByText('Not set')).toBeInTheDocument();
    expect(within(info).getByText('User')).toBeInTheDocument();
    expect(within(info).getByTestId('profile-initials')).toHaveTextContent('FF');
  });

  it('checks the name and the address before sending', async () => {
    const { user } = renderTab();
    await user.click(
      await within(await screen.findByRole('region', { name: 'Personal Information' })).findByRole('button', { name: 'Edit' }),
    );
    await user.clear(screen.getByLabelText('Full name'));
    await user.type(screen.getByLabelText('Full name'), 'F');
    await user.clear(screen.getByLabelText('Email address'));
    await user.type(screen.getByLabelText('Email address'), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Full name must be at least 2 characters.')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it("shows the server's 409 for an address in use on the email field", async () => {
    answers['POST /_api/settings/profile'] = () =>
      Response.json(
        { error: SETTINGS_MSG.emailTaken, code: 'CONFLICT_ERROR', details: { reason: 'EMAIL_TAKEN', field: 'email' } },
        { status: 409 },
      );
    const { user } = renderTab();
    await user.click(
      await within(await screen.findByRole('region', { name: 'Personal Information' })).findByRole('button', { name: 'Edit' }),
    );
    await user.clear(screen.getByLabelText('Email address'));
    await user.type(screen.getByLabelText('Email address'), 'sam@first.test');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const email = screen.getByLabelText('Email address');
    await waitFor(() => expect(email).toHaveAccessibleDescription(expect.stringContaining(SETTINGS_MSG.emailTaken)));
    expect(email).toHaveAttribute('aria-invalid', 'true');
  });

  it('saves name and phone, shows the new values and refreshes the session', async () => {
    answers['POST /_api/settings/profile'] = ({ body }) => {
      const b = body as { fullName: string; email: string; phoneNumber: string | null };
      profile = { ...profile, fullName: b.fullName, phoneNumber: b.phoneNumber };
      return Response.json({ success: true, message: SETTINGS_MSG.profileUpdated, profile });
    };
    const { user, onSessionChange } = renderTab();
    await user.click(
      await within(await screen.findByRole('region', { name: 'Personal Information' })).findByRole('button', { name: 'Edit' }),
    );
    await user.clear(screen.getByLabelText('Full name'));
    await user.type(screen.getByLabelText('Full name'), 'Fay Firstly');
    await user.type(screen.getByLabelText('Phone number'), '+44 20 7946 0000');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await within(card('Personal Information')).findByText('Fay Firstly')).toBeInTheDocument();
    expect(within(card('Personal Information')).getByText('+44 20 7946 0000')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      fullName: 'Fay Firstly',
      email: 'fay@first.test',
      phoneNumber: '+44 20 7946 0000',
    });
    expect(onSessionChange).toHaveBeenCalled();
  });

  it('asks for a fresh code when the email address changes, and sends the same change again with it', async () => {
    answers['POST /_api/settings/profile'] = ({ body }) => {
      const b = body as { email: string; mfaToken?: string };
      if (b.email !== profile.email && b.mfaToken !== '654321') {
        return Response.json(
          {
            error: 'MFA_REQUIRED',
            message: MSG.mfaRequired,
            code: 'MFA_REQUIRED',
            details: { operation: 'UPDATE_PROFILE_EMAIL', mfaMethod: 'totp' },
          },
          { status: 401 },
        );
      }
      profile = { ...profile, email: b.email };
      return Response.json({ success: true, message: SETTINGS_MSG.profileUpdated, profile });
    };
    const { user } = renderTab();
    await user.click(
      await within(await screen.findByRole('region', { name: 'Personal Information' })).findByRole('button', { name: 'Edit' }),
    );
    await user.clear(screen.getByLabelText('Email address'));
    await user.type(screen.getByLabelText('Email address'), 'fay@newfirm.test');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    const prompt = await screen.findByRole('dialog');
    await user.type(within(prompt).getByLabelText('Verification Code'), '654321');
    await user.click(within(prompt).getByRole('button', { name: 'Verify' }));
    expect(await within(card('Personal Information')).findByText('fay@newfirm.test')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/_api/settings/profile' && c.method === 'POST').map((c) => c.body)).toEqual([
      { fullName: 'Fay First', email: 'fay@newfirm.test', phoneNumber: null },
      { fullName: 'Fay First', email: 'fay@newfirm.test', phoneNumber: null, mfaToken: '654321' },
    ]);
  });
});

describe('Change Password', () => {
  it("shows the spec's messages", async () => {
    const { user } = renderTab();
    await screen.findByRole('region', { name: 'Change Password' });
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.type(screen.getByLabelText('Confirm new password'), 'other');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Current password is required.')).toBeInTheDocument();
    expect(screen.getByText('New password must be at least 8 characters.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'long enough now');
    await user.type(screen.getByLabelText('Current password'), 'old password');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText("New passwords don't match.")).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('puts a wrong current password on its field, and clears the form once changed', async () => {
    let right = false;
    answers['POST /_api/settings/password'] = () =>
      right
        ? Response.json({ message: MSG.passwordChanged })
        : Response.json({ error: MSG.currentPasswordWrong, code: 'VALIDATION_ERROR' }, { status: 400 });
    const { user } = renderTab();
    await screen.findByRole('region', { name: 'Change Password' });
    await user.type(screen.getByLabelText('Current password'), 'wrong password');
    await user.type(screen.getByLabelText('New password'), 'a new password');
    await user.type(screen.getByLabelText('Confirm new password'), 'a new password');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    await waitFor(() => expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription(MSG.currentPasswordWrong));
    right = true;
    await user.clear(screen.getByLabelText('Current password'));
    await user.type(screen.getByLabelText('Current password'), 'right password');
    await user.click(screen.getByRole('button', { name: 'Change Password' }));
    await waitFor(() => expect(screen.getByLabelText('Current password')).toHaveValue(''));
    expect(calls.filter((c) => c.path === '/_api/settings/password').at(-1)?.body).toEqual({
      currentPassword: 'right password',
      newPassword: 'a new password',
      confirmPassword: 'a new password',
    });
  });
});

describe('Security: the second factor', () => {
  it('shows the masked password and MFA Enabled with its method, and Setup when MFA is off', async () => {
    renderTab();
    const security = await screen.findByRole('region', { name: 'Security' });
    expect(within(security).getByLabelText('Password hidden')).toHaveTextContent('••••••••••');
    expect(within(security).getByTestId('mfa-status')).toHaveTextContent('EnabledEmail');
    expect(within(security).getByRole('button', { name: 'Manage' })).toBeInTheDocument();
  });

  it('offers Setup when MFA is off, and never a way to turn it off', async () => {
    profile = { ...profile, mfaEnabled: false, mfaPrimaryMethod: null };
    const { user } = renderTab();
    const security = await screen.findByRole('region', { name: 'Security' });
    expect(within(security).getByTestId('mfa-status')).toHaveTextContent('Disabled');
    await user.click(within(security).getByRole('button', { name: 'Setup' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set Up Multi-Factor Authentication' });
    expect(within(dialog).getByRole('button', { name: /Authenticator App/ })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: /Email/ })).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: /disable|turn off/i })).toBeNull();
  });

  it('switches from email to the authenticator: QR scan, an emailed code, the new code; then the recovery codes once', async () => {
    answers['POST /_api/settings/mfa-manage'] = ({ body }) => {
      const b = body as { operation: string };
      if (b.operation === 'generate_totp_secret')
        return Response.json({ success: true, message: MSG.totpScanPrompt, qrCode: QR, secret: 'JBSWY3DPEHPK3PXP' });
      profile = { ...profile, mfaPrimaryMethod: 'totp', recoveryCodesRemaining: 10 };
      return Response.json({ success: true, message: MSG.totpEnabled, mfaEnabled: true, mfaPrimaryMethod: 'totp', recoveryCodes: CODES });
    };
    answers['POST /_api/auth/mfa-email'] = () => Response.json({ success: true, message: MSG.emailCodeSent });
    const { user, onSessionChange } = renderTab();
    await user.click(await within(await screen.findByRole('region', { name: 'Security' })).findByRole('button', { name: 'Manage' }));
    const dialog = await screen.findByRole('dialog', { name: 'Manage Multi-Factor Authentication' });
    expect(within(dialog).queryByRole('button', { name: /Switch to Email/ })).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: /Switch to Authenticator App/ }));

    const flow = await screen.findByRole('dialog', { name: 'Switch to Authenticator App' });
    expect(await within(flow).findByRole('img', { name: 'QR code for your authenticator app' })).toHaveAttribute('src', QR);
    expect(within(flow).getByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    expect(within(flow).getByRole('button', { name: 'Verify & Switch' })).toBeDisabled();
    await user.click(within(flow).getByRole('button', { name: 'Send code to my email' }));
    expect(calls.find((c) => c.path === '/_api/auth/mfa-email')?.body).toEqual({ userId: 7 });
    await user.type(within(flow).getByLabelText('Code from your email'), '111111');
    await user.type(within(flow).getByLabelText('Code from the new authenticator app'), '222222');
    await user.click(within(flow).getByRole('button', { name: 'Verify & Switch' }));

    const codes = await screen.findByRole('dialog', { name: 'Recovery Codes' });
    expect(within(codes).getAllByRole('listitem')).toHaveLength(10);
    expect(within(codes).getByText(SETTINGS_MSG.recoveryCodesNotice)).toBeInTheDocument();
    expect(within(codes).getByRole('button', { name: 'Copy codes' })).toBeInTheDocument();
    expect(within(codes).getByRole('button', { name: 'Download' })).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/_api/settings/mfa-manage').map((c) => c.body)).toEqual([
      { operation: 'generate_totp_secret' },
      { operation: 'switch_to_totp', totpToken: '222222', mfaToken: '111111' },
    ]);
    expect(onSessionChange).toHaveBeenCalled();
    // The codes are shown once: the dialog is left only after saying they were saved.
    expect(within(codes).getByRole('button', { name: 'Done' })).toBeDisabled();
    await user.click(within(codes).getByRole('checkbox', { name: 'I have saved these codes' }));
    await user.click(within(codes).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(within(card('Security')).getByTestId('mfa-status')).toHaveTextContent('EnabledAuthenticator App'));
    expect(within(card('Security')).getByText(/10 unused codes left/)).toBeInTheDocument();
  });

  it('switches from the authenticator to email with the current authenticator code, and shows a refused code', async () => {
    profile = { ...profile, mfaPrimaryMethod: 'totp', recoveryCodesRemaining: 8 };
    let accept = false;
    answers['POST /_api/settings/mfa-manage'] = () => {
      if (!accept) return Response.json({ error: 'Invalid verification code.', code: 'MFA_INVALID' }, { status: 400 });
      profile = { ...profile, mfaPrimaryMethod: 'email', recoveryCodesRemaining: 0 };
      return Response.json({ success: true, message: MSG.emailEnabled, mfaEnabled: true, mfaPrimaryMethod: 'email' });
    };
    const { user } = renderTab();
    await user.click(await within(await screen.findByRole('region', { name: 'Security' })).findByRole('button', { name: 'Manage' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: /Switch to Email/ }));
    const flow = await screen.findByRole('dialog', { name: 'Switch to Email' });
    await user.type(within(flow).getByLabelText('Current authenticator code'), '333333');
    await user.click(within(flow).getByRole('button', { name: 'Switch to Email' }));
    expect(await within(flow).findByText('Invalid verification code.')).toBeInTheDocument();
    accept = true;
    await user.type(within(flow).getByLabelText('Current authenticator code'), '444444');
    await user.click(within(flow).getByRole('button', { name: 'Switch to Email' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.filter((c) => c.path === '/_api/settings/mfa-manage').at(-1)?.body).toEqual({
      operation: 'switch_to_email',
      mfaToken: '444444',
    });
    await waitFor(() => expect(within(card('Security')).getByTestId('mfa-status')).toHaveTextContent('EnabledEmail'));
  });

  it('regenerates the recovery codes with a fresh code and shows the new set', async () => {
    profile = { ...profile, mfaPrimaryMethod: 'totp', recoveryCodesRemaining: 3 };
    answers['POST /_api/settings/mfa/recovery-codes'] = ({ body }) =>
      (body as { mfaToken?: string }).mfaToken === '555555'
        ? Response.json({ success: true, message: SETTINGS_MSG.recoveryCodesRegenerated, recoveryCodes: CODES })
        : Response.json(
            {
              error: 'MFA_REQUIRED',
              message: MSG.mfaRequired,
              code: 'MFA_REQUIRED',
              details: { operation: 'MFA_SETTINGS', mfaMethod: 'totp' },
            },
            { status: 401 },
          );
    const { user } = renderTab();
    const security = await screen.findByRole('region', { name: 'Security' });
    expect(within(security).getByText(/3 unused codes left/)).toBeInTheDocument();
    await user.click(within(security).getByRole('button', { name: 'Regenerate' }));
    const prompt = await screen.findByRole('dialog');
    await user.type(within(prompt).getByLabelText('Verification Code'), '555555');
    await user.click(within(prompt).getByRole('button', { name: 'Verify' }));
    const codes = await screen.findByRole('dialog', { name: 'New Recovery Codes' });
    expect(within(codes).getAllByRole('listitem')).toHaveLength(10);
  });
});
