import { z } from 'zod';
import { LIMITS, MFA_METHODS, SYSTEM_MFA_OPERATIONS } from './constants.js';
import { MSG } from './messages.js';
import { emailSchema, mfaMethodSchema, organizationIdSchema, permissionsSchema, roleSchema, userIdSchema, text } from './common.js';

// ---- Session -----------------------------------------------------------------------------------------

export const sessionUser = z.object({
  id: z.number().int(),
  email: z.string(),
  displayName: z.string(),
  profileId: z.string(),
  organizationId: organizationIdSchema,
  organizationName: z.string(),
  role: roleSchema,
  status: z.enum(['active', 'deactivated']),
  permissions: permissionsSchema,
  mfaSetupRequired: z.boolean(),
  mfaEnabled: z.boolean(),
  mfaPrimaryMethod: mfaMethodSchema.nullable(),
});
export type SessionUser = z.infer<typeof sessionUser>;

export const apiVersionStatus = z.enum(['unknown', 'compatible', 'deprecated', 'mismatch', 'unsupported']);
export type ApiVersionStatus = z.infer<typeof apiVersionStatus>;

export const sessionResponse = z.object({
  user: sessionUser,
  session: z.object({
    /** When the session ends if nothing else happens: the earlier of the idle and absolute limits. */
    expiresAt: z.string(),
    absoluteExpiresAt: z.string(),
    idleTimeoutSeconds: z.number().int(),
  }),
  apiVersion: z.object({ server: z.string(), status: apiVersionStatus }),
});
export type SessionResponse = z.infer<typeof sessionResponse>;

// ---- Password sign-in --------------------------------------------------------------------------------

export const loginRequest = z.strictObject({
  email: z.email({ error: MSG.emailRequired }),
  password: text({ error: MSG.passwordRequired }).min(1, { error: MSG.passwordRequired }).max(1024),
});
export type LoginRequest = z.infer<typeof loginRequest>;
export const loginResponse = z.object({
  userId: z.number().int(),
  email: z.string(),
  /** The organization requires single sign-on: this administrator's password sign-in needs a recovery code. */
  breakGlass: z.boolean().optional(),
});
export type LoginResponse = z.infer<typeof loginResponse>;

/** POST /_api/auth/logout: always succeeds, signed in or not. */
export const logoutResponse = z.object({ success: z.boolean() });
export type LogoutResponse = z.infer<typeof logoutResponse>;

// ---- Second factor -----------------------------------------------------------------------------------

export const mfaChallengeRequest = z.strictObject({ userId: userIdSchema });
export type MfaChallengeRequest = z.infer<typeof mfaChallengeRequest>;
/** The methods of a second step: the codes of MFA_METHODS, and 'passkey' when the person has one. */
export const SECOND_FACTOR_METHODS = [...MFA_METHODS, 'passkey'] as const;
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];
export const mfaChallengeResponse = z.object({
  availableMethods: z.array(z.enum(SECOND_FACTOR_METHODS)),
  preferredMethod: z.enum(MFA_METHODS),
});
export type MfaChallengeResponse = z.infer<typeof mfaChallengeResponse>;

/** A 6-digit code as typed by the user. */
export const sixDigitCode = (lengthMessage: string, numericMessage: string) =>
  text({ error: lengthMessage }).length(LIMITS.mfaCodeLength, { error: lengthMessage }).regex(/^\d+$/, { error: numericMessage });

export const mfaVerifyTotpRequest = z.strictObject({
  userId: userIdSchema,
  token: sixDigitCode(MSG.codeSixDigits, MSG.codeNumeric),
});
export type MfaVerifyTotpRequest = z.infer<typeof mfaVerifyTotpRequest>;
export const mfaEmailRequest = z.strictObject({ userId: userIdSchema });
export type MfaEmailRequest = z.infer<typeof mfaEmailRequest>;
export const mfaEmailResponse = z.object({ success: z.boolean(), message: z.string() });
export type MfaEmailResponse = z.infer<typeof mfaEmailResponse>;
export const mfaVerifyEmailRequest = z.strictObject({
  userId: userIdSchema,
  token: sixDigitCode(MSG.verificationCodeSixDigits, MSG.mfaTokenNumeric),
});
export type MfaVerifyEmailRequest = z.infer<typeof mfaVerifyEmailRequest>;
/** Both verify calls answer with the signed-in user. */
export const mfaVerifyResponse = z.object({ user: sessionUser, message: z.string() });
export type MfaVerifyResponse = z.infer<typeof mfaVerifyResponse>;

// ---- System-level MFA --------------------------------------------------------------------------------

export const verifySystemMfaRequest = z.strictObject({
  operation: z.enum(SYSTEM_MFA_OPERATIONS, { error: MSG.invalidSystemMfaOperation }),
  mfaToken: text({ error: MSG.mfaTokenSixDigits })
    .length(LIMITS.mfaCodeLength, { error: MSG.mfaTokenSixDigits })
    .regex(/^\d+$/, { error: MSG.mfaTokenNumeric }),
});
export type VerifySystemMfaRequest = z.infer<typeof verifySystemMfaRequest>;
export const verifySystemMfaResponse = z.object({
  success: z.literal(true),
  /** Sent back as mfaToken (or the x-mfa-token header) on sensitive calls for 30 minutes. */
  systemMfaToken: z.string(),
  expiresAt: z.string(),
});
export type VerifySystemMfaResponse = z.infer<typeof verifySystemMfaResponse>;

// ---- Password reset ----------------------------------------------------------------------------------

export const passwordResetRequest = z.strictObject({ email: emailSchema });
export type PasswordResetRequest = z.infer<typeof passwordResetRequest>;
export const passwordResetVerifyRequest = z.strictObject({
  token: text({ error: MSG.resetTokenRequired }).min(1, { error: MSG.resetTokenRequired }).max(256),
  newPassword: text({ error: MSG.passwordMin8Long })
    .min(LIMITS.passwordMin, { error: MSG.passwordMin8Long })
    .max(LIMITS.passwordMax, { error: MSG.passwordMax100Long }),
});
export type PasswordResetVerifyRequest = z.infer<typeof passwordResetVerifyRequest>;
export const messageResponse = z.object({ success: z.boolean(), message: z.string() });
export type MessageResponse = z.infer<typeof messageResponse>;

// ---- Invitations -------------------------------------------------------------------------------------

export const invitationVerifyRequest = z.strictObject({
  token: text({ error: MSG.invitationTokenRequired }).min(1, { error: MSG.invitationTokenRequired }).max(256),
});
export type InvitationVerifyRequest = z.infer<typeof invitationVerifyRequest>;
export const invitationVerifyResponse = z.object({ organizationName: z.string(), email: z.string() });
export type InvitationVerifyResponse = z.infer<typeof invitationVerifyResponse>;
export const invitationAcceptRequest = z.strictObject({
  token: text({ error: MSG.invitationTokenRequired }).min(1, { error: MSG.invitationTokenRequired }).max(256),
  fullName: text({ error: MSG.fullNameMin }).trim().min(LIMITS.fullNameMin, { error: MSG.fullNameMin }).max(200),
  password: text({ error: MSG.passwordMin8 })
    .min(LIMITS.passwordMin, { error: MSG.passwordMin8 })
    .max(LIMITS.passwordMax, { error: MSG.passwordMax100Long }),
});
export type InvitationAcceptRequest = z.infer<typeof invitationAcceptRequest>;
