import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SETTINGS_MSG, type MfaChallengeResponse } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { SecondFactor } from './second-factor';

const signedIn = {
  id: 7,
  email: 'ada@example.test',
  displayName: 'Ada Admin',
  profileId: 'profile-7',
  organizationId: 'acme',
  organizationName: 'Acme LLP',
  role: 'admin',
  status: 'active',
  permissions: {
    canUpload: true,
    canDelete: true,
    canRename: true,
    canVault: true,
    canRetrieve: true,
    canManageUsers: true,
    canInviteUsers: true,
    canViewVaulted: true,
  },
  mfaSetupRequired: false,
  mfaEnabled: true,
  mfaPrimaryMethod: 'totp',
};

function start(challenge: MfaChallengeResponse, recovery: (call: FetchCall) => Response) {
  const calls = stubFetch((call) => {
    if (call.path === '/_api/auth/mfa-challenge') return Response.json(challenge);
    if (call.path === '/_api/auth/mfa-recovery') return recovery(call);
    return Response.json({ error: 'not here' }, { status: 404 });
  });
  const onVerified = vi.fn();
  const r = renderWithClient(<SecondFactor userId={7} email="ada@example.test" onVerified={onVerified} onBack={vi.fn()} />);
  return { ...r, calls, onVerified };
}

describe('signing in with a recovery code', () => {
  it('is offered with the authenticator, checks the format, shows a refused code and signs in with a good one', async () => {
    let good = false;
    const { user, calls, onVerified } = start({ availableMethods: ['totp'], preferredMethod: 'totp' }, () =>
      good
        ? Response.json({ user: signedIn, message: SETTINGS_MSG.recoveryLoginVerified, recoveryCodesRemaining: 9 })
        : Response.json({ error: SETTINGS_MSG.recoveryCodeInvalid, code: 'MFA_INVALID' }, { status: 401 }),
    );
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    const field = screen.getByLabelText('Recovery code');
    await user.type(field, 'abc');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(SETTINGS_MSG.recoveryCodeFormat)).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/_api/auth/mfa-recovery')).toEqual([]);

    await user.clear(field);
    await user.type(field, 'K7M2P-X9Q4R');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(SETTINGS_MSG.recoveryCodeInvalid)).toBeInTheDocument();
    expect(field).toHaveAccessibleDescription(SETTINGS_MSG.recoveryCodeInvalid);

    good = true;
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(onVerified).toHaveBeenCalledWith(signedIn));
    expect(calls.filter((c) => c.path === '/_api/auth/mfa-recovery').map((c) => c.body)).toEqual([
      { userId: 7, recoveryCode: 'k7m2px9q4r' },
      { userId: 7, recoveryCode: 'k7m2px9q4r' },
    ]);
  });

  it('goes back to the authenticator code', async () => {
    const { user } = start({ availableMethods: ['totp'], preferredMethod: 'totp' }, () => Response.json({}));
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    await user.click(screen.getByRole('button', { name: 'Use authenticator app instead' }));
    expect(screen.getByText('Enter the 6-digit code from your authenticator app.')).toBeInTheDocument();
  });

  it('is not offered with an emailed code', async () => {
    start({ availableMethods: ['email'], preferredMethod: 'email' }, () => Response.json({}));
    expect(await screen.findByRole('button', { name: 'Send Code' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Use a recovery code' })).toBeNull();
  });
});
