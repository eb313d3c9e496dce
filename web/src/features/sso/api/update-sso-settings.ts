import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateSsoSettingsRequest, UpdateSsoSettingsResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { ssoIdentityQueryKey, ssoSettingsQueryKey } from './keys';

/** POST /_api/settings/sso: always behind a fresh code (the api client asks for it). */
function updateSsoSettings(body: UpdateSsoSettingsRequest): Promise<UpdateSsoSettingsResponse> {
  return apiRequest<UpdateSsoSettingsResponse>('/_api/settings/sso', { body });
}

export function useUpdateSsoSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSsoSettings,
    meta: { handlesError: true },
    onSuccess: (answer) => {
      queryClient.setQueryData(ssoSettingsQueryKey, answer.settings);
      void queryClient.invalidateQueries({ queryKey: ssoIdentityQueryKey });
    },
  });
}
