import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateProfileRequest, UpdateProfileResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { profileQueryKey } from './keys';

/**
 * POST /_api/settings/profile. A new email address needs a fresh MFA code: the api client asks for it and sends
 * the same request again. An address another account uses answers 409 (reason EMAIL_TAKEN, field email).
 */
function updateProfile(body: UpdateProfileRequest): Promise<UpdateProfileResponse> {
  return apiRequest<UpdateProfileResponse>('/_api/settings/profile', { body });
}

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateProfile,
    meta: { handlesError: true },
    onSuccess: (answer) => queryClient.setQueryData(profileQueryKey, answer.profile),
  });
}
