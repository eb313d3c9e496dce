import { describe, expect, it } from 'vitest';
import { formatBytes } from './format-bytes';

describe('formatBytes', () => {
  it('keeps small sizes in bytes', () => {
    expect(formatBytes(0)).toBe('0 Bytes');
    expect(formatBytes(1023)).toBe('1023 Bytes');
  });
  it('uses two decimals from KB up', () => {
    expect(formatBytes(1024)).toBe('1.00 KB');
    expect(formatBytes(1536)).toBe('1.50 KB');
    expect(formatBytes(120 * 1024 * 1024)).toBe('120.00 MB');
    expect(formatBytes(5 * 1024 ** 3)).toBe('5.00 GB');
    expect(formatBytes(2 * 1024 ** 4)).toBe('2.00 TB');
    expect(formatBytes(3 * 1024 ** 5)).toBe('3072.00 TB');
  });
  it('shows a dash for folders and unknown sizes', () => {
    expect(formatBytes(null)).toBe('—');
    expect(formatBytes(undefined)).toBe('—');
  });
});
