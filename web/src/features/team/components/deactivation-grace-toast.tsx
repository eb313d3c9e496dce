import { useEffect, useRef, useState } from 'react';
import { TEAM_LIMITS, TEAM_MSG, type UndoOffer, type UndoResponse } from '@strongroom/contracts';
import { toast } from '@/lib/toast';
import { undoAction } from '@/lib/undo';

type GraceCountdownProps = { seconds: number; onEnd: () => void };

/**
 * The seconds left, counted from when the toast appeared (by the clock, so a throttled background tab still ends
 * on time). Screen readers hear the window once rather than every tick.
 */
function GraceCountdown({ seconds, onEnd }: GraceCountdownProps) {
  const [left, setLeft] = useState(seconds);
  const end = useRef(onEnd);
  useEffect(() => {
    end.current = onEnd;
  });
  useEffect(() => {
    const started = Date.now();
    const timer = setInterval(() => {
      const remaining = Math.max(0, seconds - Math.floor((Date.now() - started) / 1000));
      setLeft(remaining);
      if (remaining === 0) {
        clearInterval(timer);
        end.current();
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [seconds]);
  return (
    <span data-testid="grace-countdown">
      <span aria-hidden="true">{TEAM_MSG.graceCountdown(left)}</span>
      <span className="sr-only">{TEAM_MSG.graceCountdown(seconds)}</span>
    </span>
  );
}

/**
 * The success toast of a deactivation: a live 30-second countdown with Undo. The deactivation itself has
 * already happened (sessions ended); Undo within the grace sends the server's undo entry, and when the countdown
 * reaches zero the toast closes itself. Without an undo offer it is a plain success toast.
 */
export function toastDeactivation(
  text: { title: string; description?: string },
  offer: UndoOffer,
  onUndone: (result: UndoResponse) => unknown,
): void {
  const { undoId } = offer;
  if (!undoId) {
    if (text.description) toast.success(text.title, { description: text.description });
    else toast.success(text.title);
    return;
  }
  const id = `deactivation-grace-${undoId}`;
  toast.success(text.title, {
    id,
    // The countdown closes it, not sonner's own timer (which pauses while hovered).
    duration: Number.POSITIVE_INFINITY,
    description: (
      <span className="grid gap-0.5">
        {text.description ? <span>{text.description}</span> : null}
        <GraceCountdown seconds={TEAM_LIMITS.deactivationGraceSeconds} onEnd={() => toast.dismiss(id)} />
      </span>
    ),
    action: undoAction(undoId, onUndone),
  });
}
