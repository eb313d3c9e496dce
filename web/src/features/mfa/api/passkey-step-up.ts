import type { PasskeyStepUpRequest, SystemMfaOperation, VerifySystemMfaResponse } from '@strongroom/contracts';
import { apiRequest } from '@/lib/api-client';
import { assertPasskey } from '@/lib/webauthn';
import { passkeyStepUpOptions } from './passkey-step-up-options';

/** POST /_api/auth/passkey-step-up: a passkey's assertion buys the system MFA token of the operation's class. */
function verifyPasskeyStepUp(body: PasskeyStepUpRequest): Promise<VerifySystemMfaResponse> {
  return apiRequest<VerifySystemMfaResponse>('/_api/auth/passkey-step-up', { body, mfaRetry: false });
}

/** The options, the browser's prompt, and the token that the sensitive call then carries as mfaToken. */
export async function stepUpWithPasskey(operation: SystemMfaOperation): Promise<string> {
  const response = await assertPasskey(await passkeyStepUpOptions({ operation }));
  return (await verifyPasskeyStepUp({ operation, response })).systemMfaToken;
}
