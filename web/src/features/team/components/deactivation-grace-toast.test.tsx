import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Toaster } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PERMISSIONS, TEAM_MSG, UNDO_MSG, type ManagedUser } from '@strongroom/contracts';
import { loadSonner } from '@/lib/toast';
import { renderWithClient } from '@/test/dom';
import { stubFetch, type FetchCall } from '@/test/fetch-stub';
import { DeactivateAccountDialog } from './deactivate-account-dialog';

const CARA: ManagedUser = {
  id: '22222222-2222-4222-8222-222222222222',
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
} as ManagedUser;
const UNDO_ID = 'a0a0a0a0-0000-4000-8000-000000000009';

let calls: FetchCall[];
let offerUndo: boolean;

beforeEach(async () => {
  offerUndo = true;
  calls = stubFetch(({ path }) => {
    if (path === '/_api/settings/users/deactivate') {
      const user = { ...CARA, status: 'deactivated', version: 5 };
      return Response.json({
        success: true,
        message: TEAM_MSG.deactivated,
        updatedUser: { userId: CARA.id, version: 5 },
        user,
        ...(offerUndo ? { undoId: UNDO_ID, undoExpiresAt: new Date(Date.now() + 300_000).toISOString() } : {}),
      });
    }
    if (path === '/_api/undo') {
      return Response.json({ success: true, message: UNDO_MSG.success, kind: 'user.update', targetId: CARA.id, matterId: null });
    }
    return Response.json({ error: 'not here' }, { status: 404 });
  });
  await loadSonner();
  // The countdown's clock and ticks only: the calls, the toasts and the waits keep real timeouts.
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

async function deactivate() {
  const onUndone = vi.fn();
  const onClose = vi.fn();
  renderWithClient(
    <>
      <DeactivateAccountDialog user={CARA} onClose={onClose} onUndone={onUndone} />
      <Toaster />
    </>,
  );
  fireEvent.click(within(screen.getByRole('dialog', { name: 'Deactivate User Account' })).getByRole('button', { name: 'Deactivate User' }));
  expect(await screen.findByText(TEAM_MSG.deactivated)).toBeInTheDocument();
  return { onUndone, onClose };
}

const tick = (ms: number) => act(() => vi.advanceTimersByTime(ms));

describe('the deactivation grace toast', () => {
  it('counts the 30 seconds down live, then closes itself', async () => {
    await deactivate();
    const countdown = screen.getByTestId('grace-countdown');
    expect(countdown).toHaveTextContent('Undo available for 30 more seconds.');
    expect(screen.getByRole('button', { name: UNDO_MSG.action })).toBeInTheDocument();
    await tick(1000);
    expect(within(countdown).getByText('Undo available for 29 more seconds.')).toBeInTheDocument();
    await tick(28_000);
    expect(within(countdown).getByText('Undo available for 1 more second.')).toBeInTheDocument();
    expect(screen.getByText(TEAM_MSG.deactivated)).toBeInTheDocument();
    await tick(1000);
    await waitFor(() => expect(screen.queryByText(TEAM_MSG.deactivated)).not.toBeInTheDocument());
    expect(calls.filter((c) => c.path === '/_api/undo')).toEqual([]);
  });

  it('Undo within the grace sends the undo entry once and says it worked', async () => {
    const { onUndone } = await deactivate();
    await tick(12_000);
    expect(within(screen.getByTestId('grace-countdown')).getByText('Undo available for 18 more seconds.')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: UNDO_MSG.action }));
    expect(await screen.findByText(UNDO_MSG.success)).toBeInTheDocument();
    await waitFor(() => expect(onUndone).toHaveBeenCalledTimes(1));
    expect(calls.filter((c) => c.path === '/_api/undo').map((c) => c.body)).toEqual([{ undoId: UNDO_ID }]);
    await waitFor(() => expect(screen.queryByTestId('grace-countdown')).not.toBeInTheDocument());
  });

  it('without an undo offer it is a plain success toast, with no countdown', async () => {
    offerUndo = false;
    await deactivate();
    expect(screen.queryByTestId('grace-countdown')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: UNDO_MSG.action })).not.toBeInTheDocument();
  });
});
