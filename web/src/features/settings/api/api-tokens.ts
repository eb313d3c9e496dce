import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ApiTokensResponse,
  CreateApiTokenRequest,
  CreateApiTokenResponse,
  RevokeApiTokenRequest,
  RevokeApiTokenResponse,
} from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { apiTokensQueryKey } from './keys';

/** GET /_api/settings/api-tokens: one's own tokens (an administrator: every token of the organization). */
function listApiTokens(signal?: AbortSignal): Promise<ApiTokensResponse> {
  return apiRequest<ApiTokensResponse>('/_api/settings/api-tokens', { signal });
}

export function useApiTokens() {
  return useQuery(queryOptions({ queryKey: apiTokensQueryKey, queryFn: ({ signal }) => listApiTokens(signal), staleTime: 0 }));
}

/** POST /_api/settings/api-tokens: always behind a fresh code (the api client asks for it). */
function createApiToken(body: CreateApiTokenRequest): Promise<CreateApiTokenResponse> {
  return apiRequest<CreateApiTokenResponse>('/_api/settings/api-tokens', { body });
}

export function useCreateApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createApiToken,
    meta: { handlesError: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensQueryKey }),
  });
}

/** POST /_api/settings/api-tokens/revoke */
function revokeApiToken(body: RevokeApiTokenRequest): Promise<RevokeApiTokenResponse> {
  return apiRequest<RevokeApiTokenResponse>('/_api/settings/api-tokens/revoke', { body });
}

export function useRevokeApiToken() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeApiToken,
    meta: { handlesError: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokensQueryKey }),
  });
}
