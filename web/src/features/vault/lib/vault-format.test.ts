import { describe, expect, it } from 'vitest';
import { retentionLeft, retentionLeftText } from './vault-format';

const now = new Date('2026-03-10T12:00:00.000Z');

describe('retention left', () => {
  it('is permanent without an end, expired once the end has passed', () => {
    expect(retentionLeft(null, now)).toEqual({ kind: 'permanent' });
    expect(retentionLeft('2026-03-10T11:59:59.000Z', now)).toEqual({ kind: 'expired' });
    expect(retentionLeft('2026-03-10T12:00:00.000Z', now)).toEqual({ kind: 'expired' });
  });

  it('counts whole years, then the days beyond them', () => {
    expect(retentionLeft('2033-03-10T12:00:00.000Z', now)).toEqual({ kind: 'running', years: 7, days: 0 });
    expect(retentionLeft('2028-03-25T12:00:00.000Z', now)).toEqual({ kind: 'running', years: 2, days: 15 });
    expect(retentionLeft('2027-03-09T12:00:00.000Z', now)).toEqual({ kind: 'running', years: 0, days: 364 });
    // Part of a day counts as a day; a minute short of whole years reads as those years.
    expect(retentionLeft('2026-03-10T20:00:00.000Z', now)).toEqual({ kind: 'running', years: 0, days: 1 });
    expect(retentionLeft('2028-03-25T11:00:00.000Z', now)).toEqual({ kind: 'running', years: 2, days: 15 });
    expect(retentionLeft('2036-03-10T11:59:00.000Z', now)).toEqual({ kind: 'running', years: 10, days: 0 });
  });

  it('reads as years and days', () => {
    expect(retentionLeftText({ kind: 'running', years: 2, days: 15 })).toBe('2 years, 15 days left');
    expect(retentionLeftText({ kind: 'running', years: 1, days: 1 })).toBe('1 year, 1 day left');
    expect(retentionLeftText({ kind: 'running', years: 7, days: 0 })).toBe('7 years left');
    expect(retentionLeftText({ kind: 'running', years: 0, days: 40 })).toBe('40 days left');
  });
});
