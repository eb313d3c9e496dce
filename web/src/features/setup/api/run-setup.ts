import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SetupRequest, SetupResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { setupStatusQueryOptions } from './get-setup-status';

/** POST /_api/setup: creates the firm and its first administrator with the token printed by the server. */
function runSetup(body: SetupRequest): Promise<SetupResponse> {
  return apiRequest<SetupResponse>('/_api/setup', { body, mfaRetry: false });
}

export function useRunSetup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runSetup,
    meta: { handlesError: true },
    onSettled: () => queryClient.invalidateQueries({ queryKey: setupStatusQueryOptions().queryKey }),
  });
}
