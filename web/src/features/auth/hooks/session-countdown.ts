import { LIMITS } from '@strongroom/contracts';

/**
 * The session-expiring notice: it appears LIMITS.sessionWarningSeconds before the
 * session ends, counts down in mm:ss, and makes screen-reader announcements at the start, on each half
 * minute and in each of the last 10 seconds.
 */
const SESSION_WARNING_SECONDS = LIMITS.sessionWarningSeconds;
const FINAL_ANNOUNCED_SECONDS = 10;

/** Whole seconds left until `expiresAt` (rounded up, never negative). */
export function secondsUntil(expiresAt: number, now: number): number {
  return Math.max(0, Math.ceil((expiresAt - now) / 1000));
}

/** '01:05' for 65 seconds. */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const mm = Math.floor(s / 60);
  const ss = s % 60;
  return `${String(mm).padStart(2, '0')}:${String(ss).padStart(2, '0')}`;
}

/** 'Automatic logout in 1 minutes and 30 seconds': the published wording, '1 minutes' included. */
export function formatAnnouncement(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `Automatic logout in ${Math.floor(s / 60)} minutes and ${s % 60} seconds`;
}

/**
 * Whether to announce at `seconds` left. `isStart` is the first tick the notice is shown. Zero is not
 * announced: at zero the user is signed out and told so by a toast.
 */
export function shouldAnnounce(seconds: number, isStart: boolean): boolean {
  if (seconds <= 0) return false;
  if (isStart) return true;
  if (seconds <= FINAL_ANNOUNCED_SECONDS) return true;
  return seconds % 30 === 0;
}

/** Every second, from `start` down to 1, at which an announcement is made. */
export function announcementSchedule(start: number): number[] {
  const out: number[] = [];
  for (let s = start; s >= 1; s--) if (shouldAnnounce(s, s === start)) out.push(s);
  return out;
}

/** Whether the notice should be on screen with `seconds` left. */
export function isInWarningWindow(seconds: number): boolean {
  return seconds > 0 && seconds <= SESSION_WARNING_SECONDS;
}
