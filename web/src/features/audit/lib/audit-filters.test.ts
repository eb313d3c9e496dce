import { describe, expect, it } from 'vitest';
import { AUDIT_ACTION_CATEGORIES } from '@strongroom/contracts';
import { auditQueryString, defaultRange, nextSort } from './audit-filters';

describe('the audit page sort rules', () => {
  it('sorts a new column descending, flips the active descending column to ascending, else descending', () => {
    expect(nextSort({ sortBy: 'created_at', sortDirection: 'desc' }, 'action')).toEqual({ sortBy: 'action', sortDirection: 'desc' });
    expect(nextSort({ sortBy: 'action', sortDirection: 'desc' }, 'action')).toEqual({ sortBy: 'action', sortDirection: 'asc' });
    expect(nextSort({ sortBy: 'action', sortDirection: 'asc' }, 'action')).toEqual({ sortBy: 'action', sortDirection: 'desc' });
    expect(nextSort({ sortBy: 'action', sortDirection: 'asc' }, 'created_at')).toEqual({ sortBy: 'created_at', sortDirection: 'desc' });
  });
});

describe('the audit page query', () => {
  it('defaults to the 30 days ending today', () => {
    const now = new Date(2026, 10, 26, 15, 30);
    const { from, to } = defaultRange(now);
    expect(from).toEqual(new Date(2026, 9, 28));
    expect(to).toEqual(new Date(2026, 10, 26));
  });

  it('covers whole days, repeats actions[] for a category, trims the search', () => {
    const qs = new URLSearchParams(
      auditQueryString(
        {
          range: { from: new Date(2026, 10, 1), to: new Date(2026, 10, 2) },
          category: 'Vault Operations',
          action: null,
          search: '  vale ',
        },
        { sortBy: 'action', sortDirection: 'asc' },
        { page: 2 },
      ),
    );
    expect(qs.get('startDate')).toBe(new Date(2026, 10, 1).toISOString());
    expect(qs.get('endDate')).toBe(new Date(2026, 10, 2, 23, 59, 59, 999).toISOString());
    expect(qs.getAll('actions[]')).toEqual([...AUDIT_ACTION_CATEGORIES['Vault Operations']]);
    expect(qs.get('search')).toBe('vale');
    expect(qs.get('page')).toBe('2');
    expect(qs.get('sortBy')).toBe('action');
    expect(qs.get('sortDirection')).toBe('asc');
  });

  it('asks for one action once chosen, and no dates for any date', () => {
    const qs = new URLSearchParams(
      auditQueryString(
        { range: null, category: 'Vault Operations', action: 'VAULT_TRANSFER_FAILED', search: '' },
        { sortBy: 'created_at', sortDirection: 'desc' },
      ),
    );
    expect(qs.getAll('actions[]')).toEqual(['VAULT_TRANSFER_FAILED']);
    expect(qs.has('startDate')).toBe(false);
    expect(qs.has('search')).toBe(false);
  });
});
