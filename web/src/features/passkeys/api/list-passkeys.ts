import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PasskeysResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { passkeysQueryKey } from './keys';

/** GET /_api/settings/passkeys: one's own passkeys and whether the organization allows passkey sign-in. */
function listPasskeys(signal?: AbortSignal): Promise<PasskeysResponse> {
  return apiRequest<PasskeysResponse>('/_api/settings/passkeys', { signal });
}

export function usePasskeys() {
  return useQuery(queryOptions({ queryKey: passkeysQueryKey, queryFn: ({ signal }) => listPasskeys(signal), staleTime: 0 }));
}
