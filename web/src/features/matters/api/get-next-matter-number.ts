import { useQuery } from '@tanstack/react-query';
import type { NextMatterNumberResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { mattersQueryKey } from '@/lib/query-keys';

/** GET /_api/matters/next-number: the number a new matter would take now (shown, editable, not reserved). */
function getNextMatterNumber(signal?: AbortSignal): Promise<NextMatterNumberResponse> {
  return apiRequest<NextMatterNumberResponse>('/_api/matters/next-number', { signal });
}

/** Asked anew each time the Create dialog opens (another matter may have taken the last one). */
export function useNextMatterNumber(enabled: boolean) {
  return useQuery({
    queryKey: [...mattersQueryKey, 'next-number'],
    queryFn: ({ signal }) => getNextMatterNumber(signal),
    enabled,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
