import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MSG, type UpdateFeatureFlagsRequest, type UpdateFeatureFlagsResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { isMfaCancelledError } from '@/lib/api-error';
import { runWithSystemMfa } from '@/lib/system-mfa';
import { featureFlagsQueryKey } from './get-feature-flags';

type UpdateFlags = Pick<UpdateFeatureFlagsRequest, 'flagsToUpdate' | 'organizationId'>;

/** Whether the change turns an MFA flag off: the server takes only a fresh code for that, never a kept token. */
const turnsSafeguardOff = (body: UpdateFlags) => body.flagsToUpdate.some((f) => f.flagName.startsWith('MFA_') && !f.enabled);

/**
 * POST /_api/settings/feature-flags. Changing the flags always needs a system MFA code (MANAGE_FEATURE_FLAGS):
 * the prompt asks for one unless a token from the last 30 minutes is kept, and the token goes as mfaToken.
 * Turning an MFA flag off goes without a token: the server answers MFA_REQUIRED, the MFA dialog asks for a code
 * and the same call goes again with it (closing the dialog counts as closing the prompt).
 */
function updateFeatureFlags(body: UpdateFlags): Promise<UpdateFeatureFlagsResponse> {
  if (turnsSafeguardOff(body)) {
    return apiRequest<UpdateFeatureFlagsResponse>('/_api/settings/feature-flags', { body }).catch((error: unknown) => {
      throw isMfaCancelledError(error) ? new Error(MSG.mfaPromptClosed) : error;
    });
  }
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
