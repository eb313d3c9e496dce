import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { RecoveryCodesAcknowledge } from './recovery-codes-acknowledge';

const CODES = Array.from({ length: 10 }, (_, i) => `abcd${i}-efgh${i}`);

describe('RecoveryCodesAcknowledge', () => {
  it('shows the ten codes and goes on only after "I have saved these codes" is ticked', async () => {
    const onContinue = vi.fn();
    render(<RecoveryCodesAcknowledge codes={CODES} onContinue={onContinue} />);
    expect(screen.getByRole('list', { name: 'Recovery codes' }).querySelectorAll('li')).toHaveLength(10);
    expect(screen.getByRole('button', { name: 'Copy codes' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Download' })).toBeEnabled();
    const go = screen.getByRole('button', { name: 'Continue' });
    expect(go).toBeDisabled();
    await userEvent.click(go);
    expect(onContinue).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('checkbox', { name: 'I have saved these codes' }));
    expect(go).toBeEnabled();
    await userEvent.click(go);
    expect(onContinue).toHaveBeenCalledTimes(1);
  });
});
