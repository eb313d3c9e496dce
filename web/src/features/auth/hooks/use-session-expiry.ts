import { useCallback, useEffect, useRef, useState } from 'react';
import { formatAnnouncement, isInWarningWindow, secondsUntil, shouldAnnounce } from './session-countdown';

type SessionExpiryOptions = {
  /** When the session ends (ISO time from the session answer); undefined while unknown. */
  expiresAt: string | null | undefined;
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

/** Drives the session-expiring notice: a one-second tick, the announcement schedule and the sign-out at 0. */
export function useSessionExpiry({ expiresAt, onExpired, onWarningStart }: SessionExpiryOptions): SessionExpiryState {
  const target = expiresAt ? Date.parse(expiresAt) : Number.NaN;
  const [secondsLeft, setSecondsLeft] = useState(() => (Number.isFinite(target) ? secondsUntil(target, Date.now()) : Infinity));
  const [announcement, setAnnouncement] = useState('');
  const [dismissedFor, setDismissedFor] = useState<number | null>(null);

  const callbacks = useRef({ onExpired, onWarningStart });
  callbacks.current = { onExpired, onWarningStart };
  const progress = useRef<{ target: number; started: boolean; lastAnnounced: number | null; expired: boolean }>({
    target: Number.NaN,
    started: false,
    lastAnnounced: null,
    expired: false,
  });
  const dismissedRef = useRef<number | null>(null);
  dismissedRef.current = dismissedFor;

  useEffect(() => {
    if (!Number.isFinite(target)) {
      setSecondsLeft(Infinity);
      return;
    }
    progress.current = { target, started: false, lastAnnounced: null, expired: false };
    setAnnouncement('');

    const tick = () => {
      const p = progress.current;
      const left = secondsUntil(target, Date.now());
      setSecondsLeft(left);
      if (left <= 0) {
        if (!p.expired) {
          p.expired = true;
          callbacks.current.onExpired();
        }
        return;
      }
      if (!isInWarningWindow(left)) return;
      const isStart = !p.started;
      if (isStart) {
        p.started = true;
        callbacks.current.onWarningStart?.();
      }
      if (dismissedRef.current === target) return;
      if (p.lastAnnounced !== left && shouldAnnounce(left, isStart)) {
        p.lastAnnounced = left;
        setAnnouncement(formatAnnouncement(left));
      }
    };
    tick();
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [target]);

  const dismiss = useCallback(() => {
    setDismissedFor(target);
    setAnnouncement('');
  }, [target]);

  return {
    visible: Number.isFinite(target) && isInWarningWindow(secondsLeft) && dismissedFor !== target,
    secondsLeft,
    announcement,
    dismiss,
  };
}
