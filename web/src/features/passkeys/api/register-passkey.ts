import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PasskeyChangeResponse, RegisterPasskeyRequest } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { createPasskey } from '@/lib/webauthn';
import { passkeysQueryKey } from './keys';
import { passkeyRegistrationOptions } from './passkey-registration-options';

/** POST /_api/settings/passkeys: the browser's new passkey, named; behind a fresh code (the api client asks for it). */
function registerPasskey(body: RegisterPasskeyRequest): Promise<PasskeyChangeResponse> {
  return apiRequest<PasskeyChangeResponse>('/_api/settings/passkeys', { body });
}

/** Adding a passkey: the server's options, the browser's prompt, then the answer kept under its name. */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (name: string) => registerPasskey({ name, response: await createPasskey(await passkeyRegistrationOptions()) }),
    meta: { handlesError: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysQueryKey }),
  });
}
