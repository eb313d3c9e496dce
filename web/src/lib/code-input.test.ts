import { describe, expect, it } from 'vitest';
import { isCompleteCode, toCodeDigits } from './code-input';

describe('toCodeDigits', () => {
  it('keeps digits only', () => {
    expect(toCodeDigits('12a3-4 5')).toBe('12345');
    expect(toCodeDigits('abc')).toBe('');
  });

  it('caps the code at 6 digits', () => {
    expect(toCodeDigits('1234567890')).toBe('123456');
    expect(toCodeDigits('123 456 789')).toBe('123456');
  });

  it('accepts a pasted code with spaces or dashes', () => {
    expect(toCodeDigits(' 987-654 ')).toBe('987654');
  });

  it('drops non-ASCII digits and letters alike', () => {
    expect(toCodeDigits('١٢٣456')).toBe('456');
  });
});

describe('isCompleteCode', () => {
  it('is true only for exactly 6 digits', () => {
    expect(isCompleteCode('123456')).toBe(true);
    expect(isCompleteCode('12345')).toBe(false);
    expect(isCompleteCode('1234567')).toBe(false);
    expect(isCompleteCode('12345a')).toBe(false);
  });
});
