import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SsoDiscoverResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/auth/sso/discover: whether the address's domain signs in with a provider (from the domain alone). */
function discoverSso(email: string, signal?: AbortSignal): Promise<SsoDiscoverResponse> {
  return apiRequest<SsoDiscoverResponse>('/_api/auth/sso/discover', { body: { email }, signal, mfaRetry: false });
}

/** Asked once per domain: the answer depends on nothing else. */
export function useSsoDiscovery(email: string | null) {
  const domain = email?.split('@')[1]?.toLowerCase() ?? '';
  return useQuery(
    queryOptions({
      queryKey: ['auth', 'sso-discover', domain],
      queryFn: ({ signal }) => discoverSso(email!, signal),
      enabled: !!email && domain.includes('.'),
      staleTime: 60_000,
      retry: false,
    }),
  );
}
