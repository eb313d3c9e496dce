import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PASSKEY_LIMITS, PASSKEY_MSG, type Passkey, type PasskeysResponse } from '@strongroom/contracts';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { PasskeysCard } from './passkeys-card';

const toasts = vi.hoisted(() => ({ success: vi.fn(), error: vi.fn() }));
vi.mock('@/lib/toast', () => ({ toast: { ...toasts, warning: vi.fn(), info: vi.fn(), message: vi.fn(), dismiss: vi.fn() } }));

const passkey = (over: Partial<Passkey> = {}): Passkey => ({
  passkeyId: '6f1c1b1e-0000-4000-8000-000000000001',
  name: 'Work laptop',
  createdAt: '2026-11-01T00:00:00.000Z',
  lastUsedAt: null,
  deviceType: 'multiDevice',
  backedUp: true,
  ...over,
});

let list: Passkey[];
let allowed: boolean;
let calls: FetchCall[];

beforeEach(() => {
  toasts.success.mockClear();
  list = [
    passkey(),
    passkey({
      passkeyId: '6f1c1b1e-0000-4000-8000-000000000002',
      name: 'Key fob',
      backedUp: false,
      deviceType: 'singleDevice',
      lastUsedAt: '2026-11-20T00:00:00.000Z',
    }),
  ];
  allowed = false;
  calls = stubFetch(({ path, method, body }) => {
    if (path === '/_api/settings/passkeys' && method === 'GET')
      return Response.json({ passkeys: list, allowPasskeySignIn: allowed } satisfies PasskeysResponse);
    if (path === '/_api/settings/passkeys/rename') {
      const b = body as { passkeyId: string; name: string };
      list = list.map((p) => (p.passkeyId === b.passkeyId ? { ...p, name: b.name } : p));
      return Response.json({ success: true, message: PASSKEY_MSG.renamed, passkey: list.find((p) => p.passkeyId === b.passkeyId) });
    }
    if (path === '/_api/settings/passkeys/remove') {
      list = list.filter((p) => p.passkeyId !== (body as { passkeyId: string }).passkeyId);
      return Response.json({ success: true, message: PASSKEY_MSG.removed, passkeysRemaining: list.length });
    }
    if (path === '/_api/settings/passkeys/policy') {
      allowed = (body as { allowPasskeySignIn: boolean }).allowPasskeySignIn;
      return Response.json({ success: true, message: PASSKEY_MSG.policyUpdated, allowPasskeySignIn: allowed });
    }
    return Response.json({ error: 'Not found.', code: 'NOT_FOUND' }, { status: 404 });
  });
});

describe('the passkeys card', () => {
  it('lists each passkey with its sync state and last use', async () => {
    renderWithClient(<PasskeysCard isAdmin={false} />);
    const rows = await screen.findAllByTestId('passkey-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Synced')).toBeInTheDocument();
    expect(within(rows[0]!).getByText(/Never used/)).toBeInTheDocument();
    expect(within(rows[1]!).getByText('This device only')).toBeInTheDocument();
    expect(within(rows[1]!).getByText(/Last used/)).toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
  });

  it('renames with the name checked as the server checks it', async () => {
    const { user } = renderWithClient(<PasskeysCard isAdmin={false} />);
    await user.click(await screen.findByRole('button', { name: 'Rename passkey Work laptop' }));
    const dialog = screen.getByRole('dialog', { name: 'Rename passkey' });
    const field = within(dialog).getByLabelText('Passkey name');
    await user.clear(field);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText(PASSKEY_MSG.nameRequired)).toBeInTheDocument();
    await user.type(field, 'x'.repeat(PASSKEY_LIMITS.nameMax + 1));
    expect(within(dialog).getByText(PASSKEY_MSG.nameTooLong)).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'Home desktop');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Home desktop')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/_api/settings/passkeys/rename')).toBe(true);
    expect(toasts.success).toHaveBeenCalledWith(PASSKEY_MSG.renamed);
  });

  it('removes a passkey, and shows the empty state when none is left', async () => {
    list = [passkey()];
    const { user } = renderWithClient(<PasskeysCard isAdmin={false} />);
    await user.click(await screen.findByRole('button', { name: 'Remove passkey Work laptop' }));
    expect(await screen.findByText('No passkeys yet')).toBeInTheDocument();
    expect(toasts.success).toHaveBeenCalledWith(PASSKEY_MSG.removed);
  });

  it('lets an administrator allow passwordless sign-in', async () => {
    const { user } = renderWithClient(<PasskeysCard isAdmin />);
    const toggle = await screen.findByRole('switch', { name: 'Allow passwordless sign-in with a passkey' });
    expect(toggle).toHaveAttribute('aria-checked', 'false');
    await user.click(toggle);
    expect(await screen.findByRole('switch', { checked: true })).toBeInTheDocument();
    expect(toasts.success).toHaveBeenCalledWith(PASSKEY_MSG.policyUpdated);
  });
});
