import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '@strongroom/contracts';
import { ApiError } from '@/lib/api-error';
import { clearSystemMfaTokens, closeSystemMfaPrompt, requireSystemMfa } from '@/lib/system-mfa';
import { renderWithClient } from '@/test/dom';
import { stubFetch } from '@/test/fetch-stub';
import { MfaHost } from '@/test/mfa-host';
import { MfaCodeDialog, type MfaCodeDialogProps } from './mfa-code-dialog';

const refused = () => Promise.reject(new ApiError({ status: 400, code: 'INVALID_CODE', message: 'That code was not accepted.' }));

function dialogProps(overrides: Partial<MfaCodeDialogProps>): MfaCodeDialogProps {
  return {
    open: true,
    requestKey: 1,
    title: 'Verification required',
    description: MSG.mfaRequired,
    onSubmitCode: refused,
    onCancel: vi.fn(),
    ...overrides,
  };
}

async function enterRefusedCode(user: ReturnType<typeof renderWithClient>['user']) {
  await user.type(screen.getByLabelText('Verification Code'), '123456');
  await user.click(screen.getByRole('button', { name: 'Verify' }));
  expect(await screen.findByText('That code was not accepted.')).toBeInTheDocument();
}

describe('the MFA code dialog', () => {
  it('shows a refused code’s error, and a new request opens without it', async () => {
    const { user, rerender } = renderWithClient(<MfaCodeDialog {...dialogProps({ requestKey: 1 })} />);
    await enterRefusedCode(user);
    await user.type(screen.getByLabelText('Verification Code'), '99');

    rerender(<MfaCodeDialog {...dialogProps({ requestKey: 2 })} />);
    expect(screen.getByRole('dialog', { name: 'Verification required' })).toBeInTheDocument();
    expect(screen.queryByText('That code was not accepted.')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Verification Code')).toHaveValue('');
  });

  it('starts empty when opened again after closing', async () => {
    const { user, rerender } = renderWithClient(<MfaCodeDialog {...dialogProps({})} />);
    await enterRefusedCode(user);
    await user.type(screen.getByLabelText('Verification Code'), '42');

    rerender(<MfaCodeDialog {...dialogProps({ open: false })} />);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    rerender(<MfaCodeDialog {...dialogProps({})} />);
    expect(screen.queryByText('That code was not accepted.')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Verification Code')).toHaveValue('');
    expect(screen.getByLabelText('Verification Code')).toHaveFocus();
  });
});

describe('the system MFA prompt when the code check itself fails', () => {
  afterEach(() => {
    closeSystemMfaPrompt();
    clearSystemMfaTokens();
  });

  /** The server's answer to POST /_api/auth/verifySystemMfa, one per attempt. */
  async function attempt(answer: () => Response | Promise<Response>) {
    stubFetch(({ path }) => (path === '/_api/auth/verifySystemMfa' ? answer() : Response.json({ error: 'not here' }, { status: 404 })));
    const { user } = renderWithClient(<MfaHost />);
    const pending = requireSystemMfa('VIEW_ARCHIVAL_STATS').catch(() => null);
    const prompt = await screen.findByRole('dialog', { name: 'Confirm it’s you' });
    await user.type(within(prompt).getByLabelText('Verification Code'), '123456');
    await user.click(within(prompt).getByRole('button', { name: 'Verify' }));
    return { prompt, pending, user };
  }

  it('says Authentication error when no answer comes (network)', async () => {
    const { prompt } = await attempt(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await within(prompt).findByText('Authentication error. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Confirm it’s you' })).toBeInTheDocument();
  });

  it('says Authentication error on a server fault, whatever its body', async () => {
    const { prompt } = await attempt(() => new Response('<html>upstream</html>', { status: 502 }));
    expect(await within(prompt).findByText('Authentication error. Please try again.')).toBeInTheDocument();
  });

  it('shows the server’s refusal of a wrong code as it is, and then accepts a good one', async () => {
    let tries = 0;
    const { prompt, pending, user } = await attempt(() =>
      ++tries === 1
        ? Response.json({ error: MSG.invalidCode }, { status: 400 })
        : Response.json({ success: true, systemMfaToken: 't'.repeat(64), expiresAt: new Date(Date.now() + 60_000).toISOString() }),
    );
    expect(await within(prompt).findByText(MSG.invalidCode)).toBeInTheDocument();
    expect(within(prompt).queryByText('Authentication error. Please try again.')).not.toBeInTheDocument();
    await user.type(within(prompt).getByLabelText('Verification Code'), '654321');
    await user.click(within(prompt).getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await pending).toBe('t'.repeat(64));
  });
});
