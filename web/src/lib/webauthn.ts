import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import {
  PASSKEY_MSG,
  type PasskeyAuthenticationResponse,
  type PasskeyOptionsResponse,
  type PasskeyRegistrationResponse,
} from '@strongroom/contracts';

/**
 * Whether this browser offers WebAuthn at all (the passkey buttons are shown only then). Checked without the
 * WebAuthn library, which is loaded only when a passkey is actually used: the sign-in page stays light.
 */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/** The browser's own refusals (prompt closed, timed out, no matching passkey) in the app's words. */
function browserFailure(err: unknown): Error {
  const name = err instanceof Error ? err.name : '';
  if (name === 'NotAllowedError' || name === 'AbortError') return new Error(PASSKEY_MSG.cancelled);
  if (name === 'NotSupportedError') return new Error(PASSKEY_MSG.unsupported);
  return err instanceof Error && err.message ? err : new Error(PASSKEY_MSG.verificationFailed);
}

/** navigator.credentials.create with the server's options: the new passkey's answer for the server to verify. */
export async function createPasskey(options: PasskeyOptionsResponse): Promise<PasskeyRegistrationResponse> {
  try {
    const { startRegistration } = await import('@simplewebauthn/browser');
    const answer = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
    return answer as unknown as PasskeyRegistrationResponse;
  } catch (err) {
    throw browserFailure(err);
  }
}

/** navigator.credentials.get with the server's options: an assertion of one of the person's passkeys. */
export async function assertPasskey(options: PasskeyOptionsResponse): Promise<PasskeyAuthenticationResponse> {
  try {
    const { startAuthentication } = await import('@simplewebauthn/browser');
    const answer = await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
    return answer as unknown as PasskeyAuthenticationResponse;
  } catch (err) {
    throw browserFailure(err);
  }
}
