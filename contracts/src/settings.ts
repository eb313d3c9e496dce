import { z } from 'zod';
import { FEATURE_FLAG_NAMES, LIMITS, type FeatureFlagName } from './constants.js';
import { MSG } from './messages.js';
import { emailSchema, mfaMethodSchema, optionalMfaToken, roleSchema, text, userIdSchema } from './common.js';
import { sessionUser } from './auth.js';

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
  /** switch_to_totp only: the 10 one-time recovery codes, shown once. */
  recoveryCodes: z.array(z.string()).optional(),
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
export const changePasswordResponse = z.object({ message: z.string() });
export type ChangePasswordResponse = z.infer<typeof changePasswordResponse>;

// ---- Texts of the Settings calls -----------------------------------------------------------------------

export const SETTINGS_MSG = {
  // Profile
  profileUpdated: 'Profile updated successfully.',
  fullNameMin: 'Full name must be at least 2 characters.',
  fullNameMax: 'Full name must be at most 200 characters.',
  phoneInvalid: 'Please enter a valid phone number (digits, spaces, +, -, parentheses; 5 to 30 characters).',
  /** 409 with details.reason EMAIL_TAKEN and details.field email. */
  emailTaken: 'This email address is already used by another account.',
  // MFA management
  mfaCannotDisable: 'Multi-factor authentication cannot be turned off. You can switch between the authenticator app and email.',
  mfaMethodRequired: 'Choose the authenticator app (totp) or email.',
  // Recovery codes
  recoveryCodeFormat: 'Enter a recovery code as shown: 10 letters and digits.',
  recoveryCodeInvalid: 'The recovery code is invalid or has already been used.',
  recoveryCodeNoTotp: 'Recovery codes exist only while the authenticator app is your method.',
  recoveryCodesRegenerated: 'New recovery codes created. The earlier ones no longer work.',
  recoveryCodesNotice:
    'Keep these recovery codes somewhere safe. Each works once, instead of an authenticator code, and they are shown only now.',
  recoveryLoginVerified: 'Signed in with a recovery code. Consider setting up your authenticator app again.',
  // Organization
  organizationUpdated: 'Organization updated successfully.',
  firmNameRequired: 'Firm name is required.',
  contactNameRequired: 'Contact name is required.',
  contactEmailInvalid: 'Please enter a valid contact email.',
  contactPhoneRequired: 'Contact phone is required.',
  notSet: 'Not set',
  // Retention
  retentionUpdated: 'Retention policy updated.',
  retentionMin: 'Retention must be at least 1 year.',
  retentionMax: 'Retention can be at most 100 years.',
  retentionInteger: 'Retention must be a whole number of years.',
  binRetentionRange: 'Recycle bin retention must be a whole number of days from 1 to 365.',
  // Feature flags
  flagsUpdated: 'Feature flags updated successfully!',
  flagsAtLeastOne: 'At least one flag must be provided for update.',
  flagNameInvalid: 'Unknown feature flag.',
  flagDuplicate: 'Each flag may be named once.',
  organizationMismatch: 'Organization ID mismatch.',
  adminsOnly: 'You need administrator privileges to access security settings.',
} as const;

/** Limits of the Settings forms. */
export const SETTINGS_LIMITS = {
  fullNameMin: 2,
  fullNameMax: 200,
  retentionYearsMin: 1,
  retentionYearsMax: 100,
  retentionYearsDefault: 7,
  binRetentionDaysMin: 1,
  binRetentionDaysMax: 365,
  binRetentionDaysDefault: 30,
  recoveryCodeCount: 10,
} as const;

// ---- Profile -------------------------------------------------------------------------------------------

/** GET /_api/settings/profile: the signed-in user's own profile. */
export const profileResponse = z.object({
  fullName: z.string(),
  email: z.string(),
  phoneNumber: z.string().nullable(),
  role: roleSchema,
  mfaEnabled: z.boolean(),
  mfaPrimaryMethod: mfaMethodSchema.nullable(),
  /** Unused recovery codes left (0 unless the method is the authenticator app). */
  recoveryCodesRemaining: z.number().int(),
});
export type ProfileResponse = z.infer<typeof profileResponse>;

const PHONE_RE = /^\+?[0-9 ()\-.]{5,30}$/;

/**
 * POST /_api/settings/profile. phoneNumber: empty or null clears it. Changing the email address needs a fresh
 * MFA code (the server answers 401 MFA_REQUIRED, operation UPDATE_PROFILE_EMAIL, and the client sends the same
 * request again with mfaToken); the old address is told of the change.
 */
export const updateProfileRequest = z.strictObject({
  fullName: text({ error: SETTINGS_MSG.fullNameMin })
    .trim()
    .min(SETTINGS_LIMITS.fullNameMin, { error: SETTINGS_MSG.fullNameMin })
    .max(SETTINGS_LIMITS.fullNameMax, { error: SETTINGS_MSG.fullNameMax }),
  email: z
    .string({ error: MSG.validEmail })
    .trim()
    .pipe(z.email({ error: MSG.validEmail }).max(254, { error: MSG.validEmail })),
  phoneNumber: text({ error: SETTINGS_MSG.phoneInvalid })
    .trim()
    .refine((v) => v === '' || PHONE_RE.test(v), { error: SETTINGS_MSG.phoneInvalid })
    .nullable()
    .optional(),
  mfaToken: optionalMfaToken,
});
export type UpdateProfileRequest = z.infer<typeof updateProfileRequest>;
export const updateProfileResponse = z.object({ success: z.literal(true), message: z.string(), profile: profileResponse });
export type UpdateProfileResponse = z.infer<typeof updateProfileResponse>;

// ---- MFA status, the legacy setup call and recovery codes -----------------------------------------------

/** GET /_api/settings/mfa: the signed-in user's second factor. */
export const mfaStatusResponse = z.object({
  mfaEnabled: z.boolean(),
  mfaPrimaryMethod: mfaMethodSchema.nullable(),
  recoveryCodesRemaining: z.number().int(),
});
export type MfaStatusResponse = z.infer<typeof mfaStatusResponse>;

/**
 * POST /_api/settings/mfa { enable, method, setup, token }: the same operations as mfa-manage in the older
 * shape. enable false is refused (MFA is never turned off). method totp + setup true: a new secret (qrCode,
 * secret). method totp + token: the authenticator's code completes the switch (mfaToken: a code of the current
 * method when MFA is already on). method email + setup true: sends the emailed code during first setup; method
 * email + token: that code completes it, or, from the authenticator, the current authenticator code switches.
 */
export const mfaSettingsRequest = z.strictObject({
  enable: z.boolean(),
  method: mfaMethodSchema.optional(),
  setup: z.boolean().optional(),
  token: text().length(LIMITS.mfaCodeLength, { error: MSG.codeSixDigits }).regex(/^\d+$/, { error: MSG.codeNumeric }).optional(),
  mfaToken: optionalMfaToken,
});
export type MfaSettingsRequest = z.infer<typeof mfaSettingsRequest>;

/** A recovery code as shown: 10 letters and digits in two groups of 5 ('k7m2p-x9q4r'); spaces, hyphens and case do not matter. */
export const recoveryCodeSchema = text({ error: SETTINGS_MSG.recoveryCodeFormat })
  .transform((v) => v.replace(/[\s-]/g, '').toLowerCase())
  .pipe(z.string().regex(/^[0-9a-z]{10}$/, { error: SETTINGS_MSG.recoveryCodeFormat }));

/**
 * switch_to_totp (mfa-manage and the call above) answers the new recovery codes once, in recoveryCodes, beside
 * the usual fields. POST /_api/settings/mfa/recovery-codes makes a new set (the old set stops working); it always
 * needs a fresh code (401 MFA_REQUIRED, operation MFA_SETTINGS, then the same request with mfaToken).
 */
export const regenerateRecoveryCodesRequest = z.strictObject({ mfaToken: optionalMfaToken });
export type RegenerateRecoveryCodesRequest = z.infer<typeof regenerateRecoveryCodesRequest>;
export const recoveryCodesResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  recoveryCodes: z.array(z.string()),
});
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponse>;

/**
 * POST /_api/auth/mfa-recovery: the second step of signing in with a recovery code instead of an authenticator
 * code (same pending-sign-in cookie, same limits as codes). Answers like mfa-verify-totp, plus how many codes
 * remain. The user is mailed that a recovery code was used.
 */
export const mfaRecoveryRequest = z.strictObject({ userId: userIdSchema, recoveryCode: recoveryCodeSchema });
export type MfaRecoveryRequest = z.infer<typeof mfaRecoveryRequest>;
export const mfaRecoveryResponse = z.object({
  user: sessionUser,
  message: z.string(),
  recoveryCodesRemaining: z.number().int(),
});
export type MfaRecoveryResponse = z.infer<typeof mfaRecoveryResponse>;

// ---- Organization --------------------------------------------------------------------------------------

/** GET /_api/settings/organization (admins and users; guests are refused). null fields are shown as 'Not set'. */
export const organizationSettingsResponse = z.object({
  organizationId: z.string(),
  name: z.string(),
  primaryContactName: z.string().nullable(),
  primaryContactEmail: z.string().nullable(),
  primaryContactPhone: z.string().nullable(),
  /** Whether the signed-in user may change them (admins). */
  canEdit: z.boolean(),
});
export type OrganizationSettingsResponse = z.infer<typeof organizationSettingsResponse>;

/** POST /_api/settings/organization (admins; a fresh code when MFA_ORGANIZATION_SETTINGS is on). */
export const updateOrganizationRequest = z.strictObject({
  name: text({ error: SETTINGS_MSG.firmNameRequired }).trim().min(2, { error: SETTINGS_MSG.firmNameRequired }).max(200),
  primaryContactName: text({ error: SETTINGS_MSG.contactNameRequired }).trim().min(2, { error: SETTINGS_MSG.contactNameRequired }).max(200),
  primaryContactEmail: z
    .string({ error: SETTINGS_MSG.contactEmailInvalid })
    .trim()
    .pipe(z.email({ error: SETTINGS_MSG.contactEmailInvalid }).max(254, { error: SETTINGS_MSG.contactEmailInvalid })),
  primaryContactPhone: text({ error: SETTINGS_MSG.contactPhoneRequired })
    .trim()
    .min(1, { error: SETTINGS_MSG.contactPhoneRequired })
    .max(30, { error: SETTINGS_MSG.phoneInvalid })
    .refine((v) => PHONE_RE.test(v), { error: SETTINGS_MSG.phoneInvalid }),
  mfaToken: optionalMfaToken,
});
export type UpdateOrganizationRequest = z.infer<typeof updateOrganizationRequest>;
export const updateOrganizationResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  organization: organizationSettingsResponse,
});
export type UpdateOrganizationResponse = z.infer<typeof updateOrganizationResponse>;

// ---- Retention and vault configuration -----------------------------------------------------------------

/** Whether the configured object store really enforces write-once (S3 bucket Object Lock, or the local store's own rule). */
export const writeOnceStatusSchema = z.object({
  enforced: z.boolean(),
  store: z.enum(['local', 's3']),
  mode: z.literal('COMPLIANCE').nullable(),
  detail: z.string(),
});
export type WriteOnceStatusDto = z.infer<typeof writeOnceStatusSchema>;

/** GET /_api/settings/retention (admins and users: the vault dialog's default comes from it). */
export const retentionSettingsResponse = z.object({
  defaultRetentionYears: z.number().int(),
  /** Days a deleted folder or file stays in its matter's recycle bin. */
  binRetentionDays: z.number().int(),
  canEdit: z.boolean(),
  vaultConfiguration: z.object({
    objectLockMode: z.literal('COMPLIANCE'),
    mfaForVaulting: z.literal('Required'),
    writeOnce: writeOnceStatusSchema,
  }),
});
export type RetentionSettingsResponse = z.infer<typeof retentionSettingsResponse>;

/** POST /_api/settings/retention (admins; a fresh code when MFA_RETENTION_POLICIES is on). */
export const updateRetentionRequest = z.strictObject({
  defaultRetentionYears: z
    .number({ error: SETTINGS_MSG.retentionMin })
    .int({ error: SETTINGS_MSG.retentionInteger })
    .min(SETTINGS_LIMITS.retentionYearsMin, { error: SETTINGS_MSG.retentionMin })
    .max(SETTINGS_LIMITS.retentionYearsMax, { error: SETTINGS_MSG.retentionMax }),
  /** Left out: unchanged. */
  binRetentionDays: z
    .number({ error: SETTINGS_MSG.binRetentionRange })
    .int({ error: SETTINGS_MSG.binRetentionRange })
    .min(SETTINGS_LIMITS.binRetentionDaysMin, { error: SETTINGS_MSG.binRetentionRange })
    .max(SETTINGS_LIMITS.binRetentionDaysMax, { error: SETTINGS_MSG.binRetentionRange })
    .optional(),
  mfaToken: optionalMfaToken,
});
export type UpdateRetentionRequest = z.infer<typeof updateRetentionRequest>;
export const updateRetentionResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  defaultRetentionYears: z.number().int(),
  binRetentionDays: z.number().int(),
});
export type UpdateRetentionResponse = z.infer<typeof updateRetentionResponse>;

// ---- Feature flags -------------------------------------------------------------------------------------

/** What each flag guards, as the Security tab shows it. */
export const FEATURE_FLAG_DESCRIPTIONS: Record<FeatureFlagName, string> = {
  MFA_USER_MANAGEMENT: 'Require an MFA code to invite users and to change roles, permissions or account status.',
  MFA_ORGANIZATION_SETTINGS: "Require an MFA code to change the firm's name and primary contact.",
  MFA_VAULT_OPERATIONS: 'Require an MFA code to apply or remove legal holds. Vaulting a matter always requires one.',
  MFA_RETENTION_POLICIES: 'Require an MFA code to change the default retention policy.',
  MFA_SYSTEM_OPERATIONS: 'Require an MFA code for system operations such as audit-log archival and statistics.',
  enhanced_user_management: 'Enhanced user management: undo for team changes and the extra safeguards of the Manage drawer.',
};

export const featureFlagSchema = z.object({ flagName: z.enum(FEATURE_FLAG_NAMES), description: z.string(), enabled: z.boolean() });
export type FeatureFlag = z.infer<typeof featureFlagSchema>;

/** GET /_api/settings/feature-flags (admins): the six flags in a fixed order. */
export const featureFlagsResponse = z.object({ featureFlags: z.array(featureFlagSchema) });
export type FeatureFlagsResponse = z.infer<typeof featureFlagsResponse>;

/**
 * POST /_api/settings/feature-flags (admins). Always needs a system MFA code (operation MANAGE_FEATURE_FLAGS):
 * a fresh code or a live system token of the organization class. organizationId, when sent, must be the
 * signed-in user's.
 */
export const updateFeatureFlagsRequest = z.strictObject({
  flagsToUpdate: z
    .array(
      z.strictObject({
        flagName: z.enum(FEATURE_FLAG_NAMES, { error: SETTINGS_MSG.flagNameInvalid }),
        enabled: z.boolean(),
      }),
      { error: SETTINGS_MSG.flagsAtLeastOne },
    )
    .min(1, { error: SETTINGS_MSG.flagsAtLeastOne })
    .max(FEATURE_FLAG_NAMES.length, { error: SETTINGS_MSG.flagDuplicate })
    .refine((a) => new Set(a.map((f) => f.flagName)).size === a.length, { error: SETTINGS_MSG.flagDuplicate }),
  mfaToken: optionalMfaToken,
  organizationId: text().max(64).optional(),
});
export type UpdateFeatureFlagsRequest = z.infer<typeof updateFeatureFlagsRequest>;
export const updateFeatureFlagsResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  featureFlags: z.array(featureFlagSchema),
});
export type UpdateFeatureFlagsResponse = z.infer<typeof updateFeatureFlagsResponse>;

/** Audit actions the settings calls write (each in the transaction of its change). */
export const SETTINGS_AUDIT_ACTIONS = [
  /** details: before and after (fullName, email, phoneNumber). */
  'UPDATE_PROFILE',
  /** details: before and after (name and the three primary-contact fields). */
  'UPDATE_ORG_INFO',
  /** details: before and after ({ defaultRetentionYears, binRetentionDays }). */
  'UPDATE_RETENTION',
  /** details: before and after (every flag's value) and changed (the names that changed). */
  'UPDATE_FEATURE_FLAGS',
  /** details: purpose ('login' or 'method-change') and remaining. */
  'MFA_RECOVERY_CODE_USED',
  /** details: count. */
  'MFA_RECOVERY_CODES_REGENERATED',
] as const;
export type SettingsAuditAction = (typeof SETTINGS_AUDIT_ACTIONS)[number];
