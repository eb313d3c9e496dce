import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { MfaChallengeResponse } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch } from '@/test/fetch-stub';
import { SecondFactor } from './second-factor';

function start(challenge: MfaChallengeResponse) {
  const calls = stubFetch(({ path }) =>
    path === '/_api/auth/mfa-challenge' ? Response.json(challenge) : Response.json({ error: 'not here' }, { status: 404 }),
  );
  const r = renderWithClient(<SecondFactor userId={7} email="ada@example.test" onVerified={vi.fn()} onBack={vi.fn()} />);
  return { ...r, calls };
}

describe('the second-factor step', () => {
  it('asks for the authenticator code when the user has an app, and lets them switch to email and back', async () => {
    const { user, calls } = start({ availableMethods: ['email', 'totp'], preferredMethod: 'email' });
    expect(await screen.findByText('Enter the 6-digit code from your authenticator app.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Email me a code instead' }));
    expect(screen.getByText(/We will email a 6-digit verification code to/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Use authenticator app instead' }));
    expect(screen.getByText('Enter the 6-digit code from your authenticator app.')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/_api/auth/mfa-challenge')).toHaveLength(1);
  });

  it('offers the emailed code, with no switch, to a user who has only email', async () => {
    start({ availableMethods: ['email'], preferredMethod: 'email' });
    expect(await screen.findByRole('button', { name: 'Send Code' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Use authenticator app instead' })).not.toBeInTheDocument();
  });
});
