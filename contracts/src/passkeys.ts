import { z } from 'zod';
import { SYSTEM_MFA_OPERATIONS } from './constants.js';
import { optionalMfaToken, text, userIdSchema } from './common.js';

/**
 * Passkeys (WebAuthn credentials): a person registers one or more in Settings → Profile (Passkeys) and uses one as the
 * second factor of signing in, for a step-up of a sensitive action and, where the organization allows it, to sign
 * in without a password. Every ceremony requires user verification; sign-in credentials are discoverable.
 */
export const PASSKEY_LIMITS = {
  nameMax: 64,
  /** Passkeys a person may hold at once. */
  perUserMax: 10,
  /** How long a ceremony's challenge lives. */
  challengeMinutes: 5,
} as const;

export const PASSKEY_MSG = {
  nameRequired: 'Give the passkey a name.',
  nameTooLong: `A passkey name cannot exceed ${PASSKEY_LIMITS.nameMax} characters.`,
  responseRequired: "The browser's passkey response is missing or malformed.",
  invalidPasskeyId: 'Invalid passkey ID format.',
  notFound: 'Passkey not found.',
  tooMany: `You can hold at most ${PASSKEY_LIMITS.perUserMax} passkeys: remove one first.`,
  alreadyRegistered: 'This passkey is registered already.',
  registered: 'Passkey added.',
  renamed: 'Passkey renamed.',
  removed: 'Passkey removed.',
  /** Any failed check of a ceremony: wrong origin, challenge unknown, expired or spent, bad signature. */
  verificationFailed: 'The passkey could not be verified. Try again.',
  /** The signature counter did not go forward: the credential may have been copied. */
  cloneSuspected:
    'This passkey was refused: its signature counter went back, which can mean it was copied. Sign in another way and remove it.',
  noPasskeys: 'You have no passkey yet: add one in Settings → Profile → Passkeys.',
  signInNotAllowed: 'Your organization does not allow signing in with a passkey alone. Sign in with your password.',
  signedIn: 'Signed in with a passkey.',
  stepUpVerified: 'Passkey verified.',
  policyUpdated: 'Passkey sign-in setting saved.',
  invalidOperation: 'Unknown operation.',
  /** The browser's passkey prompt was closed or timed out. */
  cancelled: 'The passkey prompt was closed before it finished. Try again.',
  unsupported: 'This browser cannot use passkeys.',
} as const;

/** A base64url field of the browser's answer. */
const b64url = (max = 8192) =>
  text({ error: PASSKEY_MSG.responseRequired })
    .max(max, { error: PASSKEY_MSG.responseRequired })
    .regex(/^[A-Za-z0-9_-]*$/, { error: PASSKEY_MSG.responseRequired });

const extensionResults = z.record(z.string().max(64), z.unknown()).optional();

/** navigator.credentials.create()'s answer as @simplewebauthn/browser's startRegistration gives it. */
export const passkeyRegistrationResponse = z.object(
  {
    id: b64url(1024),
    rawId: b64url(1024),
    type: z.literal('public-key', { error: PASSKEY_MSG.responseRequired }),
    response: z.object(
      {
        clientDataJSON: b64url(),
        attestationObject: b64url(16384),
        authenticatorData: b64url().optional(),
        transports: z.array(text().max(32)).max(10).optional(),
        publicKeyAlgorithm: z.number().int().optional(),
        publicKey: b64url().optional(),
      },
      { error: PASSKEY_MSG.responseRequired },
    ),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    clientExtensionResults: extensionResults,
  },
  { error: PASSKEY_MSG.responseRequired },
);
export type PasskeyRegistrationResponse = z.infer<typeof passkeyRegistrationResponse>;

/** navigator.credentials.get()'s answer as startAuthentication gives it. */
export const passkeyAuthenticationResponse = z.object(
  {
    id: b64url(1024),
    rawId: b64url(1024),
    type: z.literal('public-key', { error: PASSKEY_MSG.responseRequired }),
    response: z.object(
      {
        clientDataJSON: b64url(),
        authenticatorData: b64url(),
        signature: b64url(),
        userHandle: b64url(256).optional(),
      },
      { error: PASSKEY_MSG.responseRequired },
    ),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    clientExtensionResults: extensionResults,
  },
  { error: PASSKEY_MSG.responseRequired },
);
export type PasskeyAuthenticationResponse = z.infer<typeof passkeyAuthenticationResponse>;

/** The options a browser hands to navigator.credentials (PublicKeyCredential*OptionsJSON), passed through. */
export const passkeyOptionsResponse = z.looseObject({ challenge: z.string() });
export type PasskeyOptionsResponse = z.infer<typeof passkeyOptionsResponse>;

const passkeyName = text({ error: PASSKEY_MSG.nameRequired })
  .trim()
  .min(1, { error: PASSKEY_MSG.nameRequired })
  .max(PASSKEY_LIMITS.nameMax, { error: PASSKEY_MSG.nameTooLong });

const passkeyId = z.uuid({ error: PASSKEY_MSG.invalidPasskeyId });

export const passkeySchema = z.object({
  passkeyId: z.string(),
  name: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  /** 'multiDevice': a synced passkey; 'singleDevice': bound to one authenticator. */
  deviceType: z.enum(['singleDevice', 'multiDevice']),
  backedUp: z.boolean(),
});
export type Passkey = z.infer<typeof passkeySchema>;

/** GET /_api/settings/passkeys: one's own passkeys, and whether the organization allows passkey sign-in. */
export const passkeysResponse = z.object({ passkeys: z.array(passkeySchema), allowPasskeySignIn: z.boolean() });
export type PasskeysResponse = z.infer<typeof passkeysResponse>;

/** POST /_api/settings/passkeys/registration-options: no input. */
export const passkeyRegistrationOptionsRequest = z.strictObject({});
export type PasskeyRegistrationOptionsRequest = z.infer<typeof passkeyRegistrationOptionsRequest>;

/** POST /_api/settings/passkeys: the browser's answer, named; behind a fresh code of one's second factor. */
export const registerPasskeyRequest = z.strictObject({
  name: passkeyName,
  response: passkeyRegistrationResponse,
  mfaToken: optionalMfaToken,
});
export type RegisterPasskeyRequest = z.infer<typeof registerPasskeyRequest>;
export const passkeyChangeResponse = z.object({ success: z.literal(true), message: z.string(), passkey: passkeySchema });
export type PasskeyChangeResponse = z.infer<typeof passkeyChangeResponse>;

export const renamePasskeyRequest = z.strictObject({ passkeyId, name: passkeyName });
export type RenamePasskeyRequest = z.infer<typeof renamePasskeyRequest>;

export const removePasskeyRequest = z.strictObject({ passkeyId, mfaToken: optionalMfaToken });
export type RemovePasskeyRequest = z.infer<typeof removePasskeyRequest>;
export const removePasskeyResponse = z.object({ success: z.literal(true), message: z.string(), passkeysRemaining: z.number().int() });
export type RemovePasskeyResponse = z.infer<typeof removePasskeyResponse>;

/** GET/POST /_api/settings/passkeys/policy: whether the organization allows signing in with a passkey alone. */
export const passkeyPolicyResponse = z.object({ allowPasskeySignIn: z.boolean() });
export type PasskeyPolicyResponse = z.infer<typeof passkeyPolicyResponse>;
export const updatePasskeyPolicyRequest = z.strictObject({ allowPasskeySignIn: z.boolean(), mfaToken: optionalMfaToken });
export type UpdatePasskeyPolicyRequest = z.infer<typeof updatePasskeyPolicyRequest>;
export const updatePasskeyPolicyResponse = z.object({ success: z.literal(true), message: z.string(), allowPasskeySignIn: z.boolean() });
export type UpdatePasskeyPolicyResponse = z.infer<typeof updatePasskeyPolicyResponse>;

/** POST /_api/auth/passkey-challenge: the second step of a pending sign-in with a passkey. */
export const passkeyChallengeRequest = z.strictObject({ userId: userIdSchema });
export type PasskeyChallengeRequest = z.infer<typeof passkeyChallengeRequest>;

/** POST /_api/auth/mfa-verify-passkey. */
export const mfaVerifyPasskeyRequest = z.strictObject({ userId: userIdSchema, response: passkeyAuthenticationResponse });
export type MfaVerifyPasskeyRequest = z.infer<typeof mfaVerifyPasskeyRequest>;

/** POST /_api/auth/passkey-login-options: no one named (discoverable credentials). */
export const passkeyLoginOptionsRequest = z.strictObject({});
export type PasskeyLoginOptionsRequest = z.infer<typeof passkeyLoginOptionsRequest>;

/** POST /_api/auth/login_with_passkey. */
export const loginWithPasskeyRequest = z.strictObject({ response: passkeyAuthenticationResponse });
export type LoginWithPasskeyRequest = z.infer<typeof loginWithPasskeyRequest>;

const stepUpOperation = z.enum(SYSTEM_MFA_OPERATIONS, { error: PASSKEY_MSG.invalidOperation });

/** POST /_api/auth/passkey-step-up-options. */
export const passkeyStepUpOptionsRequest = z.strictObject({ operation: stepUpOperation });
export type PasskeyStepUpOptionsRequest = z.infer<typeof passkeyStepUpOptionsRequest>;

/** POST /_api/auth/passkey-step-up: a passkey assertion buys the system MFA token of the operation's class. */
export const passkeyStepUpRequest = z.strictObject({ operation: stepUpOperation, response: passkeyAuthenticationResponse });
export type PasskeyStepUpRequest = z.infer<typeof passkeyStepUpRequest>;

/** The audit actions of passkeys. */
export const PASSKEY_AUDIT_ACTIONS = [
  'PASSKEY_REGISTERED',
  'PASSKEY_RENAMED',
  'PASSKEY_REMOVED',
  'PASSKEY_CLONE_SUSPECTED',
  'PASSKEY_POLICY_UPDATED',
] as const;
