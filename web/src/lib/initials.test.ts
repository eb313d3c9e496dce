import { describe, expect, it } from 'vitest';
import { initialsOf } from './initials';

describe('initialsOf', () => {
  it('takes the first letters of the first and last names', () => {
    expect(initialsOf('Ada Lovelace')).toBe('AL');
    expect(initialsOf('Maria de la Cruz')).toBe('MC');
  });

  it('gives one initial for a single name, upper-cased', () => {
    expect(initialsOf('ada')).toBe('A');
  });

  it('ignores surrounding and repeated whitespace and leading punctuation', () => {
    expect(initialsOf('  jean   "jj"  dupont ')).toBe('JD');
    expect(initialsOf('(Admin) Zoe')).toBe('AZ');
  });

  it("shows '...' while loading and '?' without a name", () => {
    expect(initialsOf('Ada Lovelace', true)).toBe('...');
    expect(initialsOf('')).toBe('?');
    expect(initialsOf('   ')).toBe('?');
    expect(initialsOf(undefined)).toBe('?');
    expect(initialsOf(null)).toBe('?');
  });

  it('keeps letters outside ASCII whole', () => {
    expect(initialsOf('Émile Ørsted')).toBe('ÉØ');
  });
});
