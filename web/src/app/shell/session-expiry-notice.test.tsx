import { act, fireEvent, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithClient } from '@/test/dom';
import { stubFetch } from '@/test/fetch-stub';
import { SessionExpiryNotice } from './session-expiry-notice';

/** The polite live region the notice speaks through (it exists before the notice shows, so readers pick it up). */
function liveRegion(): HTMLElement {
  const region = document.querySelector<HTMLElement>('[aria-live="polite"]');
  if (!region) throw new Error('no live region');
  return region;
}

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

function renderNotice(expiresAtMs: number) {
  return renderWithClient(
    <MemoryRouter>
      <SessionExpiryNotice expiresAt={new Date(expiresAtMs)} />
    </MemoryRouter>,
  );
}

describe('the Session Expiring toast', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
    // The session re-check at the start of the warning and the sign-out at zero.
    stubFetch(({ path }) =>
      path === '/_api/auth/session'
        ? Response.json({ error: 'Not authenticated', code: 'UNAUTHENTICATED' }, { status: 401 })
        : Response.json({ success: true }),
    );
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows its title, text and a mm:ss countdown bottom-right, and speaks at the start, each half minute and the last 10 seconds', async () => {
    renderNotice(95_000);
    const region = liveRegion();
    const notice = screen.getByRole('region', { name: 'Session Expiring' });
    expect(notice).toHaveClass('fixed', 'right-4', 'bottom-4');
    expect(screen.getByText('You will be logged out automatically for security reasons.')).toBeInTheDocument();
    expect(screen.getByTestId('session-countdown')).toHaveTextContent('01:35');
    expect(region).toHaveTextContent('Automatic logout in 1 minutes and 35 seconds');

    const heard: string[] = [region.textContent ?? ''];
    for (let i = 0; i < 94; i++) {
      await advance(1_000);
      const now = region.textContent ?? '';
      if (now !== heard[heard.length - 1]) heard.push(now);
    }
    expect(heard).toEqual([
      'Automatic logout in 1 minutes and 35 seconds',
      'Automatic logout in 1 minutes and 30 seconds',
      'Automatic logout in 1 minutes and 0 seconds',
      'Automatic logout in 0 minutes and 30 seconds',
      ...[10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map((s) => `Automatic logout in 0 minutes and ${s} seconds`),
    ]);
    expect(screen.getByTestId('session-countdown')).toHaveTextContent('00:01');
  });

  it('stays up however long it is shown (never auto-dismissed) until the session ends', async () => {
    renderNotice(120_000);
    await advance(110_000);
    expect(screen.getByRole('region', { name: 'Session Expiring' })).toBeInTheDocument();
    expect(screen.getByTestId('session-countdown')).toHaveTextContent('00:10');
  });

  it('goes away with its dismiss button and stops speaking', async () => {
    renderNotice(100_000);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('region', { name: 'Session Expiring' })).toBeNull();
    expect(liveRegion()).toBeEmptyDOMElement();
    await advance(70_000);
    expect(liveRegion()).toBeEmptyDOMElement();
  });

  it('is not shown while the session has more than two minutes left', async () => {
    renderNotice(10 * 60_000);
    expect(screen.queryByRole('region', { name: 'Session Expiring' })).toBeNull();
    await advance(8 * 60_000);
    expect(screen.getByRole('region', { name: 'Session Expiring' })).toBeInTheDocument();
    expect(liveRegion()).toHaveTextContent('Automatic logout in 2 minutes and 0 seconds');
  });
});
