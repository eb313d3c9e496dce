/** Versions the client and server speak (the client sends its API version; see version.ts). */
export const API_VERSION = 'v1.0.0';
export const CLIENT_VERSION = '1.0.0';
export const API_VERSION_HEADER = 'x-api-version';
export const LEGACY_STORAGE_VERSION = 'v2.0.0';

export const ROLES = ['admin', 'user', 'guest'] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSION_KEYS = [
  'canUpload',
  'canDelete',
  'canRename',
  'canVault',
  'canRetrieve',
  'canManageUsers',
  'canInviteUsers',
  'canViewVaulted',
] as const;
export type PermissionKey = (typeof PERMISSION_KEYS)[number];
export type Permissions = Record<PermissionKey, boolean>;

const allFalse = Object.fromEntries(PERMISSION_KEYS.map((k) => [k, false])) as Permissions;

/** Default permissions by role: admins hold all, users may upload, retrieve and see vaulted matters, guests none. */
export const DEFAULT_PERMISSIONS: Record<Role, Permissions> = {
  admin: Object.fromEntries(PERMISSION_KEYS.map((k) => [k, true])) as Permissions,
  user: { ...allFalse, canUpload: true, canRetrieve: true, canViewVaulted: true },
  guest: { ...allFalse },
};

/** Roles that may open the protected pages (guests may not). */
export const PAGE_ROLES: readonly Role[] = ['admin', 'user'];

export const MFA_METHODS = ['totp', 'email'] as const;
export type MfaMethod = (typeof MFA_METHODS)[number];

export const SECURITY_EVENT_ACTIONS = [
  'LOGIN_SUCCESS',
  'LOGIN_FAILED',
  'LOGOUT',
  'PASSWORD_RESET_REQUEST',
  'PASSWORD_RESET_SUCCESS',
  'PASSWORD_CHANGE_SUCCESS',
  'MFA_SETUP_INITIATED',
  'MFA_SETUP_COMPLETED',
  'MFA_VERIFICATION_SUCCESS',
  'MFA_VERIFICATION_FAILED',
  'VAULT_ACCESS_ATTEMPT',
  'VAULT_ACCESS_GRANTED',
  'VAULT_ACCESS_DENIED',
  'SENSITIVE_DATA_DOWNLOAD',
  'ADMIN_USER_INVITED',
  'ADMIN_USER_PERMISSIONS_CHANGED',
  'ADMIN_SETTINGS_CHANGED',
  'INTEGRITY_CHECK_PASSED',
  'INTEGRITY_CHECK_FAILED',
  'SUSPICIOUS_ACTIVITY_DETECTED',
] as const;
export type SecurityEventAction = (typeof SECURITY_EVENT_ACTIONS)[number];

/** Operations that need a system-level MFA token (a fresh code buys one for 30 minutes). */
export const SYSTEM_MFA_OPERATIONS = [
  'VIEW_ARCHIVAL_STATS',
  'REVIEW_MIGRATION_LOGS',
  'MANAGE_FEATURE_FLAGS',
  'EXPORT_AUDIT_LOGS',
  'DELETE_MATTER',
  'VAULT_MATTER',
  'MFA_VAULT_OPERATIONS',
  'MFA_SETTINGS',
  'MFA_USER_MANAGEMENT',
  'MFA_RETENTION_POLICIES',
  'MFA_ORGANIZATION_SETTINGS',
  'MFA_SYSTEM_OPERATIONS',
] as const;
export type SystemMfaOperation = (typeof SYSTEM_MFA_OPERATIONS)[number];

/** Audit actions of legal holds and the vault. */
export const VAULT_AUDIT_ACTIONS = [
  'APPLY_LEGAL_HOLD',
  'REMOVE_LEGAL_HOLD',
  'VAULT_MATTER',
  'VAULT_TRANSFER_INITIATED',
  'VAULT_TRANSFER_COMPLETED',
  'VAULT_TRANSFER_FAILED',
  'VAULT_CERTIFICATE_ISSUED',
  'VAULT_VERIFICATION_FAILED',
  'VAULT_VERIFICATION_PASSED',
  'RETENTION_CLEANUP',
  'DOWNLOAD_VAULTED_FILE',
] as const;
export type VaultAuditAction = (typeof VAULT_AUDIT_ACTIONS)[number];

export const FEATURE_FLAG_NAMES = [
  'MFA_USER_MANAGEMENT',
  'MFA_ORGANIZATION_SETTINGS',
  'MFA_VAULT_OPERATIONS',
  'MFA_RETENTION_POLICIES',
  'MFA_SYSTEM_OPERATIONS',
  'enhanced_user_management',
] as const;
export type FeatureFlagName = (typeof FEATURE_FLAG_NAMES)[number];

/** Error codes carried in the `code` field of a failed answer. */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'UNAUTHENTICATED',
  'SESSION_NOT_FOUND',
  'MFA_REQUIRED',
  'MFA_INVALID',
  'PERMISSION_ERROR',
  'NOT_FOUND',
  'CONFLICT_ERROR',
  'LAST_ADMIN_ERROR',
  'RATE_LIMIT_EXCEEDED',
  'API_VERSION_MISMATCH',
  'INVALID_PROFILE',
  'ORGANIZATION_MISSING',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'FORBIDDEN_ORIGIN',
  /** A service Strongroom depends on (the mail server) failed; the change was not made or can be asked again. */
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Why a request was refused, in `details.reason` of the answer, so that clients decide on it and never on the
 * text. Mostly the 409s, which share the code CONFLICT_ERROR but call for different reactions.
 */
export const ERROR_REASONS = [
  /** The object changed since the client read it (optimistic lock): reload and merge, never resend as is. */
  'VERSION_MISMATCH',
  /** Another item of the folder has the name (`details.field` names the field). */
  'NAME_TAKEN',
  /** Another matter of the organization has the number (`details.field` is matterNumber). */
  'NUMBER_TAKEN',
  /** The request lost a race with a concurrent one; the same request sent again succeeds. */
  'RACE',
  /** A row it needs is locked by another operation; the same request sent again succeeds. */
  'LOCKED',
  /** The matter takes no changes: vaulted, under legal hold, past its retention, or read-only for this person. */
  'VAULTED',
  'LEGAL_HOLD',
  'RETENTION_EXPIRED',
  'READ_ONLY',
  /** An upload is being completed by another request (completion again later; no cancelling it now). */
  'UPLOAD_COMPLETING',
  /** An upload was already completed: with other data (a second completion), or at all (a late cancel). */
  'UPLOAD_COMPLETED_OTHERWISE',
  'UPLOAD_COMPLETED',
  /** Undo refused: the offer expired, the object changed since, or the object is gone. */
  'EXPIRED',
  'CHANGED',
  'GONE',
  /** The person invited already belongs to this organization; an account with the address exists already. */
  'ALREADY_MEMBER',
  'ACCOUNT_EXISTS',
  /** An invitation to the address is pending already: resend or revoke it instead. */
  'ALREADY_INVITED',
  /** First-run setup was done already. */
  'ALREADY_SET_UP',
  /** The pending sign-in ended after too many wrong codes: the password must be given again. */
  'SIGN_IN_ENDED',
  /** Another account already uses the email address (`details.field` is email). */
  'EMAIL_TAKEN',
  /** A vaulted file must be restored from deep cold storage first; the restore runs (`details.readyBy`). */
  'RESTORE_PENDING',
  /** A legal hold was to be removed from a matter that is not under one. */
  'NOT_HELD',
  /** What was asked for does not exist yet (a vault certificate before its transfer completed). */
  'NOT_READY',
  /** An approval request was decided already (approved, rejected, expired or void); a disposition review too. */
  'ALREADY_DECIDED',
  /** Approval rules need a second active administrator to approve. */
  'SECOND_APPROVER_NEEDED',
  /** The disposition review: the matter is not waiting for a decision. */
  'NOT_IN_QUEUE',
  /** The organization signs in with its provider: the password step is closed to this person (or needs a recovery code). */
  'SSO_REQUIRED',
] as const;
export type ErrorReason = (typeof ERROR_REASONS)[number];

/** Business constants: code length, token timings, password and name bounds. */
export const LIMITS = {
  mfaCodeLength: 6,
  systemMfaTokenMinutes: 30,
  passwordMin: 8,
  passwordMax: 100,
  fullNameMin: 2,
  versionWarningMs: 10_000,
  passwordResetRedirectMs: 3_000,
  sessionStaleMs: 5 * 60_000,
  sessionGcMs: 10 * 60_000,
  invitationGcMs: 30 * 60_000,
  /** The session-expiring toast appears this long before the session ends. */
  sessionWarningSeconds: 120,
  /**
   * The matters list and the audit log count matching rows exactly up to this many. Beyond it totalCount is this
   * number and totalCountCapped is true: "at least this many", shown as "10,000+".
   */
  listCountBound: 10_000,
} as const;
