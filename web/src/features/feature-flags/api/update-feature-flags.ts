import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateFeatureFlagsRequest, UpdateFeatureFlagsResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { runWithSystemMfa } from '@/lib/system-mfa';
import { featureFlagsQueryKey } from './get-feature-flags';

type UpdateFlags = Pick<UpdateFeatureFlagsRequest, 'flagsToUpdate' | 'organizationId'>;

/**
 * POST /_api/settings/feature-flags. Changing the flags always needs a system MFA code (MANAGE_FEATURE_FLAGS):
 * the prompt asks for one unless a token from the last 30 minutes is kept, and the token goes as mfaToken.
 */
function updateFeatureFlags(body: UpdateFlags): Promise<UpdateFeatureFlagsResponse> {
  return runWithSystemMfa('MANAGE_FEATURE_FLAGS', (mfaToken) =>
    apiRequest<UpdateFeatureFlagsResponse>('/_api/settings/feature-flags', { body: { ...body, mfaToken }, mfaRetry: false }),
  );
}

export function useUpdateFeatureFlags() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFeatureFlags,
    meta: { handlesError: true },
    onSuccess: (answer) => queryClient.setQueryData(featureFlagsQueryKey, { featureFlags: answer.featureFlags }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: featureFlagsQueryKey }),
  });
}
