import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';
import { formatAnnouncement, isInWarningWindow, secondsUntil, shouldAnnounce } from './session-countdown';

type SessionExpiryOptions = {
  /** When the session ends (from the session answer); undefined while unknown. */
  expiresAt: Date | null | undefined;
  /** Called once when the countdown reaches zero. */
  onExpired: () => void;
  /** Called once when the warning window opens (used to re-check expiresAt with the server). */
  onWarningStart?: () => void;
};

export type SessionExpiryState = {
  /** The notice is on screen. */
  visible: boolean;
  secondsLeft: number;
  /** The latest screen-reader announcement (for an aria-live region). */
  announcement: string;
  dismiss: () => void;
};

/** A value together with the session end it was computed for, so a new end never shows an old value. */
type ForTarget<T> = { target: number; value: T };

/** Drives the session-expiring notice: a one-second tick, the announcement schedule and the sign-out at 0. */
export function useSessionExpiry({ expiresAt, onExpired, onWarningStart }: SessionExpiryOptions): SessionExpiryState {
  const target = expiresAt ? expiresAt.getTime() : Number.NaN;
  const [left, setLeft] = useState<ForTarget<number>>(() => ({
    target,
    value: Number.isFinite(target) ? secondsUntil(target, Date.now()) : Infinity,
  }));
  const [announced, setAnnounced] = useState<ForTarget<string>>({ target, value: '' });
  const [dismissedFor, setDismissedFor] = useState<number | null>(null);

  // Until the first tick for a new session end, nothing is known about it: no notice, no announcement.
  const secondsLeft = Number.isFinite(target) && left.target === target ? left.value : Infinity;
  const announcement = Number.isFinite(target) && announced.target === target ? announced.value : '';

  // The tick always calls the latest callbacks and sees the latest dismissal, without restarting the timer.
  const expired = useEffectEvent(() => onExpired());
  const warningStarted = useEffectEvent(() => onWarningStart?.());
  const isDismissed = useEffectEvent((t: number) => dismissedFor === t);

  // Once-per-session-end bookkeeping of the running countdown; only the timer reads and writes it.
  const progress = useRef({ started: false, lastAnnounced: null as number | null, expired: false });

  useEffect(() => {
    if (!Number.isFinite(target)) return;
    progress.current = { started: false, lastAnnounced: null, expired: false };

    const tick = () => {
      const p = progress.current;
      const now = secondsUntil(target, Date.now());
      setLeft({ target, value: now });
      if (now <= 0) {
        if (!p.expired) {
          p.expired = true;
          expired();
        }
        return;
      }
      if (!isInWarningWindow(now)) return;
      const isStart = !p.started;
      if (isStart) {
        p.started = true;
        warningStarted();
      }
      if (isDismissed(target)) return;
      if (p.lastAnnounced !== now && shouldAnnounce(now, isStart)) {
        p.lastAnnounced = now;
        setAnnounced({ target, value: formatAnnouncement(now) });
      }
    };
    tick();
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [target]);

  const dismiss = useCallback(() => {
    setDismissedFor(target);
    setAnnounced({ target, value: '' });
  }, [target]);

  return {
    visible: Number.isFinite(target) && isInWarningWindow(secondsLeft) && dismissedFor !== target,
    secondsLeft,
    announcement,
    dismiss,
  };
}
