import { describe, expect, it } from 'vitest';
import { descriptionPreview, formatMatterDate } from './matter-format';

describe('descriptionPreview', () => {
  it('keeps short descriptions whole', () => {
    expect(descriptionPreview('Lease dispute')).toBe('Lease dispute');
    expect(descriptionPreview('x'.repeat(100))).toBe('x'.repeat(100));
  });
  it('cuts at 100 characters and adds an ellipsis', () => {
    const long = 'a'.repeat(99) + 'bcd';
    expect(descriptionPreview(long)).toBe('a'.repeat(99) + 'b...');
  });
  it('is empty for no description', () => {
    expect(descriptionPreview(null)).toBe('');
    expect(descriptionPreview('')).toBe('');
  });
});

describe('formatMatterDate', () => {
  it('answers N/A for a missing or broken date', () => {
    expect(formatMatterDate(null)).toBe('N/A');
    expect(formatMatterDate('not a date')).toBe('N/A');
  });
  it('formats a date with its year', () => {
    expect(formatMatterDate('2026-11-25T10:00:00Z')).toMatch(/2026/);
  });
});
