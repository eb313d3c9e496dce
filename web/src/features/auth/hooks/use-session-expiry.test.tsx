import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionExpiry } from './use-session-expiry';

type Props = { expiresAt: Date; onExpired: () => void; onWarningStart: () => void };

function renderExpiry(initialProps: Props) {
  return renderHook((props: Props) => useSessionExpiry(props), { initialProps });
}

describe('useSessionExpiry', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });

  afterEach(() => {
    vi.useRealTimers();
  });

  async function advance(ms: number) {
    await act(async () => {
      await vi.advanceTimersByTimeAsync(ms);
    });
  }

  it('shows the notice 120 s before the end, announces on schedule and signs out at zero', async () => {
    const onExpired = vi.fn();
    const onWarningStart = vi.fn();
    const announcements: string[] = [];
    const { result: out } = renderExpiry({ expiresAt: new Date(150_000), onExpired, onWarningStart });

    expect(out.current.visible).toBe(false);
    await advance(29_000); // 121 s left
    expect(out.current.visible).toBe(false);
    expect(onWarningStart).not.toHaveBeenCalled();

    for (let i = 0; i < 150; i++) {
      await advance(1_000);
      const a = out.current.announcement;
      if (a && a !== announcements[announcements.length - 1]) announcements.push(a);
      if (out.current.secondsLeft === 60) expect(out.current.visible).toBe(true);
    }

    expect(onWarningStart).toHaveBeenCalledTimes(1);
    expect(announcements).toEqual([
      'Automatic logout in 2 minutes and 0 seconds',
      'Automatic logout in 1 minutes and 30 seconds',
      'Automatic logout in 1 minutes and 0 seconds',
      'Automatic logout in 0 minutes and 30 seconds',
      ...[10, 9, 8, 7, 6, 5, 4, 3, 2, 1].map((s) => `Automatic logout in 0 minutes and ${s} seconds`),
    ]);
    expect(onExpired).toHaveBeenCalledTimes(1);
    expect(out.current.visible).toBe(false);
  });

  it('hides when dismissed but still signs out at zero', async () => {
    const onExpired = vi.fn();
    const { result: out } = renderExpiry({ expiresAt: new Date(100_000), onExpired, onWarningStart: () => {} });
    expect(out.current.visible).toBe(true);
    expect(out.current.announcement).toBe('Automatic logout in 1 minutes and 40 seconds');

    act(() => out.current.dismiss());
    expect(out.current.visible).toBe(false);
    await advance(100_000);
    expect(onExpired).toHaveBeenCalledTimes(1);
  });

  it('starts over when the session is extended', async () => {
    const onExpired = vi.fn();
    const { result: out, rerender } = renderExpiry({ expiresAt: new Date(60_000), onExpired, onWarningStart: () => {} });
    expect(out.current.visible).toBe(true);
    rerender({ expiresAt: new Date(3_600_000), onExpired, onWarningStart: () => {} });
    expect(out.current.visible).toBe(false);
    expect(out.current.announcement).toBe('');
    await advance(120_000);
    expect(onExpired).not.toHaveBeenCalled();
  });

  it('signs out through the callback of the latest render, without restarting the countdown', async () => {
    const first = vi.fn();
    const latest = vi.fn();
    const { result: out, rerender } = renderExpiry({ expiresAt: new Date(30_000), onExpired: first, onWarningStart: () => {} });
    await advance(10_000);
    // A session answer fetched again brings a new Date for the same end: the countdown goes on.
    rerender({ expiresAt: new Date(30_000), onExpired: latest, onWarningStart: () => {} });
    expect(out.current.secondsLeft).toBe(20);
    await advance(20_000);
    expect(first).not.toHaveBeenCalled();
    expect(latest).toHaveBeenCalledTimes(1);
  });
});
