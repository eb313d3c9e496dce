import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PasskeyChangeResponse, RenamePasskeyRequest } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { passkeysQueryKey } from './keys';

/** POST /_api/settings/passkeys/rename */
function renamePasskey(body: RenamePasskeyRequest): Promise<PasskeyChangeResponse> {
  return apiRequest<PasskeyChangeResponse>('/_api/settings/passkeys/rename', { body });
}

export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renamePasskey,
    meta: { handlesError: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysQueryKey }),
  });
}
