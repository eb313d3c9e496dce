import { describe, expect, it, vi } from 'vitest';
import { createAppQueryClient } from '@/lib/query-client';
import { clientSuggestionsQueryOptions } from './get-client-suggestions';
import { lawyerSuggestionsQueryOptions } from './get-lawyer-suggestions';
import { matterDetailQueryOptions } from './get-matter-detail';
import { mattersQueryOptions } from './get-matters';

const MINUTE = 60_000;

describe('how long matter answers are reused', () => {
  it('matter detail is stale after 1 minute, the list after 2, suggestions are kept 5 minutes', () => {
    expect(matterDetailQueryOptions('m1').staleTime).toBe(1 * MINUTE);
    expect(mattersQueryOptions({ sortBy: 'created_at', sortDirection: 'desc', page: 1, pageSize: 50 }).staleTime).toBe(2 * MINUTE);
    for (const options of [clientSuggestionsQueryOptions('ac'), lawyerSuggestionsQueryOptions('ja')]) {
      expect(options.staleTime).toBe(5 * MINUTE);
      expect(options.gcTime).toBe(5 * MINUTE);
    }
  });

  it('other queries are stale after 5 minutes', () => {
    expect(createAppQueryClient().getDefaultOptions().queries?.staleTime).toBe(5 * MINUTE);
  });

  it('a suggestion answered within 5 minutes is not asked for again, an older one is', async () => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['Date'] });
    try {
      const client = createAppQueryClient();
      let asked = 0;
      const options = { ...clientSuggestionsQueryOptions('ac'), queryFn: async () => (asked++, []) };
      await client.fetchQuery(options);
      vi.setSystemTime(1_000_000 + 4 * MINUTE);
      await client.fetchQuery(options);
      expect(asked).toBe(1);
      vi.setSystemTime(1_000_000 + 5 * MINUTE + 1);
      await client.fetchQuery(options);
      expect(asked).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
