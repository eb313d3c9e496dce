import { queryOptions, useQuery } from '@tanstack/react-query';
import { SIGNING_KEYS_PATH, type SigningKeysResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { signingKeysQueryKey } from './keys';

/** GET /.well-known/strongroom-signing-keys: the installation's published signing keys (no sign-in needed). */
function getSigningKeys(signal?: AbortSignal): Promise<SigningKeysResponse> {
  return apiRequest<SigningKeysResponse>(SIGNING_KEYS_PATH, { signal });
}

export function useSigningKeys() {
  return useQuery(queryOptions({ queryKey: signingKeysQueryKey, queryFn: ({ signal }) => getSigningKeys(signal), staleTime: 0 }));
}
