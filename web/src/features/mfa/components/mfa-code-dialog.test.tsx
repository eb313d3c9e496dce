import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { MSG } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { MfaCodeDialog, type MfaCodeDialogProps } from './mfa-code-dialog';

const refused = () => Promise.reject(new Error('That code was not accepted.'));

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
