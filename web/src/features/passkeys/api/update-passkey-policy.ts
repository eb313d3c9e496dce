import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdatePasskeyPolicyRequest, UpdatePasskeyPolicyResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { passkeysQueryKey } from './keys';

/** POST /_api/settings/passkeys/policy: administrators, behind a fresh code or an organization-class token. */
function updatePasskeyPolicy(body: UpdatePasskeyPolicyRequest): Promise<UpdatePasskeyPolicyResponse> {
  return apiRequest<UpdatePasskeyPolicyResponse>('/_api/settings/passkeys/policy', { body });
}

export function useUpdatePasskeyPolicy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePasskeyPolicy,
    meta: { handlesError: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysQueryKey }),
  });
}
