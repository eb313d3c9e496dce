import { describe, expect, it } from 'vitest';
import {
  announcementSchedule,
  formatAnnouncement,
  formatCountdown,
  isInWarningWindow,
  secondsUntil,
  shouldAnnounce,
} from './session-countdown';

describe('formatCountdown', () => {
  it('shows mm:ss', () => {
    expect(formatCountdown(120)).toBe('02:00');
    expect(formatCountdown(65)).toBe('01:05');
    expect(formatCountdown(9)).toBe('00:09');
    expect(formatCountdown(0)).toBe('00:00');
    expect(formatCountdown(-3)).toBe('00:00');
  });
});

describe('formatAnnouncement', () => {
  it("reads 'Automatic logout in X minutes and Y seconds'", () => {
    expect(formatAnnouncement(90)).toBe('Automatic logout in 1 minutes and 30 seconds');
    expect(formatAnnouncement(7)).toBe('Automatic logout in 0 minutes and 7 seconds');
  });
});

describe('announcement schedule', () => {
  it('announces at the start, on each half minute and in each of the last 10 seconds', () => {
    expect(announcementSchedule(120)).toEqual([120, 90, 60, 30, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
  });

  it('announces an odd starting value too', () => {
    expect(announcementSchedule(95)).toEqual([95, 90, 60, 30, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
  });

  it('stays quiet between the marks and at zero', () => {
    expect(shouldAnnounce(89, false)).toBe(false);
    expect(shouldAnnounce(31, false)).toBe(false);
    expect(shouldAnnounce(11, false)).toBe(false);
    expect(shouldAnnounce(0, false)).toBe(false);
    expect(shouldAnnounce(0, true)).toBe(false);
  });
});

describe('secondsUntil and the warning window', () => {
  it('rounds up and never goes below zero', () => {
    expect(secondsUntil(10_500, 0)).toBe(11);
    expect(secondsUntil(10_000, 0)).toBe(10);
    expect(secondsUntil(0, 5_000)).toBe(0);
  });

  it('opens 120 seconds before the end', () => {
    expect(isInWarningWindow(121)).toBe(false);
    expect(isInWarningWindow(120)).toBe(true);
    expect(isInWarningWindow(1)).toBe(true);
    expect(isInWarningWindow(0)).toBe(false);
  });
});
