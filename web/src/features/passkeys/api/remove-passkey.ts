import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RemovePasskeyRequest, RemovePasskeyResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { passkeysQueryKey } from './keys';

/** POST /_api/settings/passkeys/remove: behind a fresh code (the api client asks for it). */
function removePasskey(body: RemovePasskeyRequest): Promise<RemovePasskeyResponse> {
  return apiRequest<RemovePasskeyResponse>('/_api/settings/passkeys/remove', { body });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removePasskey,
    meta: { handlesError: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysQueryKey }),
  });
}
