import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SsoIdentityResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { ssoIdentityQueryKey } from './keys';

/** GET /_api/settings/sso/identity: the organization's provider and whether one's account is linked to it. */
function getSsoIdentity(signal?: AbortSignal): Promise<SsoIdentityResponse> {
  return apiRequest<SsoIdentityResponse>('/_api/settings/sso/identity', { signal });
}

export function useSsoIdentity() {
  return useQuery(queryOptions({ queryKey: ssoIdentityQueryKey, queryFn: ({ signal }) => getSsoIdentity(signal) }));
}
