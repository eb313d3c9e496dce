import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SsoUnlinkRequest, SsoUnlinkResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { ssoIdentityQueryKey } from './keys';

/** POST /_api/settings/sso/unlink: behind a fresh code (the api client asks for it). */
function unlinkSso(body: SsoUnlinkRequest): Promise<SsoUnlinkResponse> {
  return apiRequest<SsoUnlinkResponse>('/_api/settings/sso/unlink', { body });
}

export function useUnlinkSso() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: unlinkSso,
    meta: { handlesError: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ssoIdentityQueryKey }),
  });
}
