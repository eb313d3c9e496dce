import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordRequest, ChangePasswordResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/settings/password: the user's own password; the server ends the user's other sessions. */
function changePassword(body: ChangePasswordRequest): Promise<ChangePasswordResponse> {
  return apiRequest<ChangePasswordResponse>('/_api/settings/password', { body, mfaRetry: false });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword, meta: { handlesError: true } });
}
