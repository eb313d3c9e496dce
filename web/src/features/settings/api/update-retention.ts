import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RetentionSettingsResponse, UpdateRetentionRequest, UpdateRetentionResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { retentionQueryKey } from './keys';

/** POST /_api/settings/retention (admins). With MFA_RETENTION_POLICIES on, the api client asks for a code. */
function updateRetention(body: UpdateRetentionRequest): Promise<UpdateRetentionResponse> {
  return apiRequest<UpdateRetentionResponse>('/_api/settings/retention', { body });
}

export function useUpdateRetention() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateRetention,
    meta: { handlesError: true },
    onSuccess: (answer) => {
      queryClient.setQueryData<RetentionSettingsResponse>(retentionQueryKey, (old) =>
        old ? { ...old, defaultRetentionYears: answer.defaultRetentionYears } : old,
      );
      return queryClient.invalidateQueries({ queryKey: retentionQueryKey });
    },
  });
}
