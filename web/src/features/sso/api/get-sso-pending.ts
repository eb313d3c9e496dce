import { queryOptions, useQuery } from '@tanstack/react-query';
import { SSO_MSG, type SsoPendingResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** GET /_api/auth/sso/pending: the person of the pending sign-in the provider started, for the second step. */
function getSsoPending(signal?: AbortSignal): Promise<SsoPendingResponse> {
  return apiRequest<SsoPendingResponse>('/_api/auth/sso/pending', { signal, fallbackMessage: SSO_MSG.noPendingSignIn });
}

export function useSsoPending(enabled: boolean) {
  return useQuery(
    queryOptions({ queryKey: ['auth', 'sso-pending'], queryFn: ({ signal }) => getSsoPending(signal), enabled, retry: false }),
  );
}
