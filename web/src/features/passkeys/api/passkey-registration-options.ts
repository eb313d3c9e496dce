import type { PasskeyOptionsResponse, PasskeyRegistrationOptionsRequest } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';

/** POST /_api/settings/passkeys/registration-options: the options (and single-use challenge) to create a passkey. */
export function passkeyRegistrationOptions(): Promise<PasskeyOptionsResponse> {
  return apiRequest<PasskeyOptionsResponse>('/_api/settings/passkeys/registration-options', {
    body: {} satisfies PasskeyRegistrationOptionsRequest,
  });
}
