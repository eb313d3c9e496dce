import { z } from 'zod';
import { LIMITS } from './constants.js';
import { MSG } from './messages.js';
import { emailSchema, optionalMfaToken, roleSchema, text } from './common.js';

export const MFA_MANAGE_OPERATIONS = ['generate_totp_secret', 'switch_to_totp', 'switch_to_email'] as const;

/**
 * POST /_api/settings/mfa-manage. During setup mfaToken is 'setup'; later it is a code for the current
 * method. totpToken is the new authenticator's code when switching to totp.
 */
export const mfaManageRequest = z.strictObject({
  operation: z.enum(MFA_MANAGE_OPERATIONS),
  mfaToken: text().max(64).optional(),
  totpToken: text().length(LIMITS.mfaCodeLength, { error: MSG.codeSixDigits }).regex(/^\d+$/, { error: MSG.codeNumeric }).optional(),
});
export type MfaManageRequest = z.infer<typeof mfaManageRequest>;
export const mfaManageResponse = z.object({
  success: z.boolean(),
  message: z.string(),
  qrCode: z.string().optional(),
  secret: z.string().optional(),
  /** switch_to_email with mfaToken 'setup' only sends the code; a second call with the code completes it. */
  codeSent: z.boolean().optional(),
  mfaEnabled: z.boolean().optional(),
  mfaPrimaryMethod: z.enum(['totp', 'email']).optional(),
});
export type MfaManageResponse = z.infer<typeof mfaManageResponse>;

export const inviteUserRequest = z.strictObject({
  email: emailSchema,
  role: roleSchema,
  mfaToken: optionalMfaToken,
});
export type InviteUserRequest = z.infer<typeof inviteUserRequest>;
export const inviteUserResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  invitation: z.object({ id: z.string(), email: z.string(), role: roleSchema, expiresAt: z.string() }),
});
export type InviteUserResponse = z.infer<typeof inviteUserResponse>;

/** POST /_api/settings/password: the signed-in user changes their own password. */
export const changePasswordRequest = z
  .strictObject({
    currentPassword: text({ error: 'Current password is required.' }).min(1, { error: 'Current password is required.' }).max(1024),
    newPassword: text({ error: 'New password must be at least 8 characters.' })
      .min(LIMITS.passwordMin, { error: 'New password must be at least 8 characters.' })
      .max(LIMITS.passwordMax, { error: MSG.passwordMax100Long }),
    confirmPassword: text(),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { error: "New passwords don't match.", path: ['confirmPassword'] });
export type ChangePasswordRequest = z.infer<typeof changePasswordRequest>;
