import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { clearSystemMfaTokens, closeSystemMfaPrompt, requireSystemMfa, type SystemMfaPrompt } from '@/lib/system-mfa';
import SystemMfaPromptDialog from './system-mfa-prompt';

// The browser's passkey prompt is the one part jsdom lacks: the assertion it would give is made up here.
vi.mock('@/lib/webauthn', () => ({
  passkeysSupported: () => true,
  assertPasskey: vi.fn(async () => ({
    id: 'credential',
    rawId: 'credential',
    type: 'public-key',
    response: {},
    clientExtensionResults: {},
  })),
}));

let calls: FetchCall[];
const prompt: SystemMfaPrompt = { operation: 'EXPORT_AUDIT_LOGS' };

beforeEach(() => {
  clearSystemMfaTokens();
  calls = stubFetch(({ path }) => {
    if (path === '/_api/auth/passkey-step-up-options') return Response.json({ challenge: 'challenge-1' });
    if (path === '/_api/auth/passkey-step-up')
      return Response.json({
        success: true,
        systemMfaToken: 'token-from-passkey',
        expiresAt: new Date(Date.now() + 1800_000).toISOString(),
      });
    return Response.json({ error: 'Not found.', code: 'NOT_FOUND' }, { status: 404 });
  });
});
afterEach(() => act(() => closeSystemMfaPrompt()));

describe("the 'Confirm it’s you' prompt", () => {
  it('offers a passkey to a person who has one, and the token it buys unlocks the operation without a code', async () => {
    let token: Promise<string> = Promise.resolve('');
    act(() => {
      token = requireSystemMfa('EXPORT_AUDIT_LOGS');
    });
    const { user } = renderWithClient(<SystemMfaPromptDialog prompt={prompt} userId={7} userMethod="totp" hasPasskey />);
    const dialog = screen.getByRole('dialog', { name: 'Confirm it’s you' });
    await user.click(within(dialog).getByRole('button', { name: 'Use a passkey' }));
    await expect(token).resolves.toBe('token-from-passkey');
    expect(calls.map((c) => c.path)).toEqual(['/_api/auth/passkey-step-up-options', '/_api/auth/passkey-step-up']);
    expect(calls[0]!.body).toEqual({ operation: 'EXPORT_AUDIT_LOGS' });
    expect(calls.some((c) => c.path === '/_api/auth/verify-system-mfa')).toBe(false);
  });

  it('asks only for the code of a person without a passkey', () => {
    renderWithClient(<SystemMfaPromptDialog prompt={prompt} userId={7} userMethod="totp" hasPasskey={false} />);
    const dialog = screen.getByRole('dialog', { name: 'Confirm it’s you' });
    expect(within(dialog).getByLabelText('Verification Code')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Use a passkey' })).not.toBeInTheDocument();
  });
});
