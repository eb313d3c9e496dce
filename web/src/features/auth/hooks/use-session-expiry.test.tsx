import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSessionExpiry, type SessionExpiryState } from './use-session-expiry';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

type HarnessProps = { expiresAt: string; onExpired: () => void; onWarningStart: () => void; out: { current?: SessionExpiryState } };

function Harness({ expiresAt, onExpired, onWarningStart, out }: HarnessProps) {
  out.current = useSessionExpiry({ expiresAt, onExpired, onWarningStart });
  return null;
}

describe('useSessionExpiry', () => {
  let root: Root;
  let container: HTMLElement;

  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
    container = document.createElement('div');
    root = createRoot(container);
  });

  afterEach(() => {
    act(() => root.unmount());
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
    const out: { current?: SessionExpiryState } = {};
    const announcements: string[] = [];
    act(() => root.render(<Harness expiresAt={new Date(150_000).toISOString()} onExpired={onExpired} onWarningStart={onWarningStart} out={out} />));

    expect(out.current!.visible).toBe(false);
    await advance(29_000); // 121 s left
    expect(out.current!.visible).toBe(false);
    expect(onWarningStart).not.toHaveBeenCalled();

    for (let i = 0; i < 150; i++) {
      await advance(1_000);
      const a = out.current!.announcement;
      if (a && a !== announcements[announcements.length - 1]) announcements.push(a);
      if (out.current!.secondsLeft === 60) expect(out.current!.visible).toBe(true);
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
    expect(out.current!.visible).toBe(false);
  });

  it('hides when dismissed but still signs out at zero', async () => {
    const onExpired = vi.fn();
    const out: { current?: SessionExpiryState } = {};
    act(() => root.render(<Harness expiresAt={new Date(100_000).toISOString()} onExpired={onExpired} onWarningStart={() => {}} out={out} />));
    expect(out.current!.visible).toBe(true);
    expect(out.current!.announcement).toBe('Automatic logout in 1 minutes and 40 seconds');

    act(() => out.current!.dismiss());
    expect(out.current!.visible).toBe(false);
    await advance(100_000);
    expect(onExpired).toHaveBeenCalledTimes(1);
  });

  it('starts over when the session is extended', async () => {
    const out: { current?: SessionExpiryState } = {};
    const onExpired = vi.fn();
    act(() => root.render(<Harness expiresAt={new Date(60_000).toISOString()} onExpired={onExpired} onWarningStart={() => {}} out={out} />));
    expect(out.current!.visible).toBe(true);
    act(() => root.render(<Harness expiresAt={new Date(3_600_000).toISOString()} onExpired={onExpired} onWarningStart={() => {}} out={out} />));
    expect(out.current!.visible).toBe(false);
    await advance(120_000);
    expect(onExpired).not.toHaveBeenCalled();
  });
});
