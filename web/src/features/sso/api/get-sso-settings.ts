import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SsoSettingsResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { ssoSettingsQueryKey } from './keys';

/** GET /_api/settings/sso (administrators): the provider, never its secret, and the redirect URI. */
function getSsoSettings(signal?: AbortSignal): Promise<SsoSettingsResponse> {
  return apiRequest<SsoSettingsResponse>('/_api/settings/sso', { signal });
}

export function useSsoSettings(enabled = true) {
  return useQuery(queryOptions({ queryKey: ssoSettingsQueryKey, queryFn: ({ signal }) => getSsoSettings(signal), enabled }));
}
