import { z } from 'zod';
import { ROLES, type PermissionKey, type Permissions, type Role } from './constants.js';
import { optionalMfaToken, permissionsSchema, roleSchema, text } from './common.js';
import { MSG } from './messages.js';
import { undoOffer } from './undo.js';

/**
 * Team administration: the Team & Permissions tab, its Manage drawer and dialogs, pending invitations and the
 * per-matter grants that give a guest read-only access.
 *
 * Calls (every one signed in; every managed user is named by its uuid):
 * - GET  /_api/settings/users                         the team and the pending invitations (canManageUsers or
 *                                                      canInviteUsers; `canManage` false means read-only)
 * - POST /_api/settings/users/manage                  several changes at once, version-checked
 * - POST /_api/settings/users/permissions             permissions only
 * - POST /_api/settings/users/role                    role (permissions reset to the role's defaults)
 * - POST /_api/settings/users/deactivate              ends every session of the user at once
 * - POST /_api/settings/users/reactivate              restores access
 * - POST /_api/settings/users/reset-mfa               removes the authenticator; always needs a fresh code
 * - POST /_api/settings/users/invitations/resend      a new link; the old one stops working
 * - POST /_api/settings/users/invitations/revoke      the link stops working
 * - GET  /_api/settings/guest-access?userId=          the matters shared with a guest (admins)
 * - POST /_api/settings/guest-access/grant            share a matter with a guest (admins)
 * - POST /_api/settings/guest-access/revoke           stop sharing it (admins)
 *
 * Every change answers an undo offer (undoId, undoExpiresAt) taken back by POST /_api/undo within 5 minutes,
 * while the user is still at the version the change left.
 */
export const TEAM_MSG = {
  // Ids and fields
  userIdRequired: 'User ID is required',
  invalidUserId: 'Invalid user ID format.',
  atLeastOneChange: 'At least one change (role, isActive, or permissions) must be provided.',
  updatedByRequired: 'Updated by field is required.',
  versionNonNegative: 'Version must be a non-negative integer.',
  invalidTimestamp: 'Invalid timestamp format.',
  auditReasonMin: 'A reason of at least 10 characters is required for the audit log.',
  auditReasonHint: 'Minimum 10 characters. This will be logged for audit purposes.',
  roleReasonMin: 'Reason must be at least 10 characters long.',
  reasonTooLong: 'The reason cannot exceed 1000 characters.',
  mfaTokenRequired: MSG.mfaTokenRequired,
  permissionsRequired: 'At least one permission must be provided.',
  invalidInvitationId: 'Invalid invitation ID format.',
  invitationIdRequired: 'Invitation ID is required.',
  invalidMatterId: 'Invalid Matter ID format.',

  // Refusals
  userNotFound: 'User not found',
  invitationNotFound: 'Invitation not found or no longer pending.',
  noPermission: 'You do not have permission to manage this user.',
  /** A user holding canManageUsers who is not an admin may not change an admin or make someone one. */
  adminOnlyForAdmins: 'Only administrators can manage administrators.',
  /** The error of a refusal to leave the organization without an active administrator. */
  operationBlocked: 'Operation blocked',
  lastAdmin: 'The organization must keep at least one active administrator who can manage users.',
  cannotDeactivateSelf: 'You cannot deactivate your own account.',
  resetMfaAdminOnly: 'Only administrators can reset multi-factor authentication.',
  resetMfaNotPossible: 'Multi-factor authentication can be reset only for an active user who has it enabled.',
  conflict: "The user's details were updated by someone else while you were making changes. Your changes have not been saved.",
  alreadyInvited: 'An invitation to this address is already pending. Resend or revoke it from the Team list.',
  guestOnly: 'Matters can be shared only with guests.',
  guestAccessInvalid: 'Access must be download or view.',
  guestGrantExists: 'This matter is already shared with this guest.',
  guestGrantNotFound: 'This matter is not shared with this guest.',
  /** Guests invited by someone who is not an administrator only: a user with canInviteUsers invites guests. */
  inviteGuestsOnly: 'You can invite guests only.',
  tooManyRequests: 'Too many user management requests. Please wait before trying again.',

  // Successes
  updated: (name: string) => `Successfully updated ${name}`,
  userUpdated: 'User updated successfully',
  permissionsUpdated: 'Permissions updated.',
  roleChanged: 'User role changed successfully.',
  deactivated: 'User deactivated.',
  /** The deactivation grace toast: the seconds left to take it back from the toast. */
  graceCountdown: (seconds: number) => `Undo available for ${seconds} more second${seconds === 1 ? '' : 's'}.`,
  reactivated: 'User reactivated.',
  mfaReset: (name: string) => `Successfully reset MFA for ${name}`,
  invitationResent: (email: string) => `Invitation sent again to ${email}.`,
  invitationRevoked: 'Invitation revoked.',
  guestGranted: 'Matter shared with the guest.',
  guestAccessChanged: 'Guest access to the matter changed.',
  guestRevoked: 'Matter no longer shared with the guest.',
  noChanges: 'No changes to save.',

  // Client texts of the tab, drawer and dialogs
  conflictTitle: 'Edit Conflict',
  conflictToast: 'Update failed: Conflict detected.',
  conflictResolved: 'Conflict resolved. You can now make changes again.',
  conflictUnknownUser: 'Unknown User',
  unsavedChangesConfirm: 'You have unsaved changes. Are you sure you want to close?',
  rateLimited: 'Too many requests. Please wait before trying again.',
  conflictThrown: 'Someone else updated this user while you were making changes. Please try again.',
  permissionThrown: 'You do not have permission to manage this user.',
  networkThrown: 'Network error. Please check your connection and try again.',
  updateFailed: 'Failed to update user. Please try again.',
  unexpected: 'An unexpected error occurred. Please try again.',
  unknownError: 'An unknown error occurred.',
  noOrganization: 'Organization context required for user management.',
  currentUserMissing: 'Unable to find current user data. Please refresh and try again.',
  deactivateFailed: 'Failed to deactivate user',
  resetMfaFailed: 'Failed to reset user MFA.',
  resetMfaCodes: {
    RATE_LIMIT_EXCEEDED: 'Rate limit exceeded',
    PERMISSION_ERROR: 'Permission denied',
    NOT_FOUND: 'User not found',
    MFA_REQUIRED: 'MFA verification required',
  },
  deactivateWarning:
    'Deactivating this user ends all of their active sessions immediately, prevents them from signing in and revokes their access. You can reactivate them later.',
  reactivateWarning: 'Reactivating this user restores their access with the selected role and permissions.',
  guestNoGrants: 'A guest sees only the matters an administrator shares with them, read-only. Until a matter is shared, they see nothing.',
  summaryFullAccess: 'Full Access',
  summaryNoAccess: 'No Access',
  summaryCustom: 'Custom',
} as const;

export const TEAM_LIMITS = {
  reasonMin: 10,
  reasonMax: 1000,
  /** User-management calls per admin: at most this many in the window. */
  rateLimitMax: 30,
  rateLimitWindowSeconds: 60,
  drawerLoadingDelayMs: 300,
  tableSkeletonRows: 3,
  permissionSkeletonRows: 8,
  deactivationGraceSeconds: 30,
} as const;

/** The labels and descriptions of the drawer's role select and permission switches. */
export const ROLE_LABELS: Record<Role, { label: string; description: string }> = {
  admin: { label: 'Administrator', description: 'Full system access, including user management.' },
  user: { label: 'User', description: 'Standard access with upload and retrieve.' },
  guest: { label: 'Guest', description: 'Read-only access to the matters shared with them.' },
};

export const PERMISSION_LABELS: Record<PermissionKey, { label: string; description: string }> = {
  canUpload: { label: 'Upload', description: 'Upload new files' },
  canDelete: { label: 'Delete', description: 'Delete files and folders permanently' },
  canRename: { label: 'Rename', description: 'Rename files and folders' },
  canVault: { label: 'Vault', description: 'Move items to the vault' },
  canRetrieve: { label: 'Retrieve', description: 'Download files' },
  canManageUsers: { label: 'Manage users', description: 'Manage roles and permissions' },
  canInviteUsers: { label: 'Invite users', description: 'Send invitations (guests)' },
  canViewVaulted: { label: 'View vaulted', description: 'View vaulted items and archives' },
};

/** Audit actions of team administration (the spec's names where it gives them). */
export const TEAM_AUDIT_ACTIONS = [
  'USER_UPDATE_PERMISSIONS',
  'USER_ROLE_CHANGE',
  /** Deactivation. */
  'USER_REMOVE',
  'USER_REACTIVATE',
  'MFA_RESET',
  'UNDO_USER_UPDATE',
  'INVITATION_RESENT',
  'INVITATION_REVOKED',
  'GUEST_ACCESS_GRANTED',
  'GUEST_ACCESS_REVOKED',
] as const;
export type TeamAuditAction = (typeof TEAM_AUDIT_ACTIONS)[number];

/** 'Full Access' for admins, 'No Access' for deactivated users, otherwise 'Custom'. */
export function permissionsSummary(user: { role: Role; status: UserStatus }): string {
  if (user.status === 'deactivated') return TEAM_MSG.summaryNoAccess;
  if (user.role === 'admin') return TEAM_MSG.summaryFullAccess;
  return TEAM_MSG.summaryCustom;
}

export const USER_STATUSES = ['active', 'deactivated'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

// ---- Shapes -----------------------------------------------------------------------------------------

export const teamUserIdSchema = z.uuid({
  error: (iss) => (iss.input === undefined || iss.input === '' ? TEAM_MSG.userIdRequired : TEAM_MSG.invalidUserId),
});

const invitationIdSchema = z.uuid({
  error: (iss) => (iss.input === undefined ? TEAM_MSG.invitationIdRequired : TEAM_MSG.invalidInvitationId),
});

const auditReason = text({ error: TEAM_MSG.auditReasonMin })
  .trim()
  .min(TEAM_LIMITS.reasonMin, { error: TEAM_MSG.auditReasonMin })
  .max(TEAM_LIMITS.reasonMax, { error: TEAM_MSG.reasonTooLong });

/** The version the client read; a save against any other version is refused as a conflict. */
const versionSchema = z
  .number({ error: TEAM_MSG.versionNonNegative })
  .int({ error: TEAM_MSG.versionNonNegative })
  .nonnegative({ error: TEAM_MSG.versionNonNegative });

export const managedUserSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  fullName: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  status: z.enum(USER_STATUSES),
  permissions: permissionsSchema,
  mfaEnabled: z.boolean(),
  mfaMethod: z.enum(['totp', 'email']).nullable(),
  version: z.number().int(),
  updatedAt: z.string(),
  /** Who last changed the account (an administrator, or the person themselves); null when nobody has. */
  updatedBy: z.object({ name: z.string() }).nullable(),
  lastSignInAt: z.string().nullable(),
  /** Guests: how many matters are shared with them (0 for other roles). */
  guestMatterCount: z.number().int(),
});
export type ManagedUser = z.infer<typeof managedUserSchema>;

export const pendingInvitationSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  invitedBy: z.object({ name: z.string() }).nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type PendingInvitation = z.infer<typeof pendingInvitationSchema>;

/** GET /_api/settings/users */
export const teamListResponse = z.object({
  users: z.array(managedUserSchema),
  invitations: z.array(pendingInvitationSchema),
  /** Whether the viewer may change users (canManageUsers); a viewer who may only invite sees the list read-only. */
  canManage: z.boolean(),
  /** Whether the viewer may invite, and which roles they may offer. */
  canInvite: z.boolean(),
  invitableRoles: z.array(z.enum(ROLES)),
});
export type TeamListResponse = z.infer<typeof teamListResponse>;

/** What a CONFLICT_ERROR answer of a user-management call carries: who changed the user last, and when. */
export const userConflictDataSchema = z.object({
  updatedBy: z.object({ name: z.string() }),
  updatedAt: z.string(),
  currentVersion: z.number().int(),
});
export type UserConflictData = z.infer<typeof userConflictDataSchema>;

/** The changes a manage request may carry; at least one. */
export const userChangesSchema = z
  .strictObject({
    role: roleSchema.optional(),
    isActive: z.boolean().optional(),
    permissions: permissionsSchema.partial().optional(),
  })
  .refine((c) => c.role !== undefined || c.isActive !== undefined || c.permissions !== undefined, { error: TEAM_MSG.atLeastOneChange });
export type UserChanges = z.infer<typeof userChangesSchema>;

/**
 * POST /_api/settings/users/manage. A role change resets the permissions to the role's defaults unless
 * permissions come with it (then those are applied over the defaults).
 */
export const manageUserRequest = z.strictObject({
  userId: teamUserIdSchema,
  changes: userChangesSchema,
  updatedBy: text({ error: TEAM_MSG.updatedByRequired }).min(1, { error: TEAM_MSG.updatedByRequired }).max(254),
  version: versionSchema.optional(),
  timestamp: z.iso.datetime({ offset: true, error: TEAM_MSG.invalidTimestamp }),
  reason: auditReason.optional(),
  mfaToken: optionalMfaToken,
});
export type ManageUserRequest = z.infer<typeof manageUserRequest>;

/** The answer of every change of a user: the user as now stored and, when something changed, an undo offer. */
export const userChangeResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  updatedUser: z.object({ userId: z.string(), version: z.number().int() }),
  user: managedUserSchema,
  ...undoOffer,
});
export type UserChangeResponse = z.infer<typeof userChangeResponse>;

/** POST /_api/settings/users/permissions: the switches given are set, the others kept. */
export const updatePermissionsRequest = z.strictObject({
  userId: teamUserIdSchema,
  permissions: permissionsSchema.partial().refine((p) => Object.keys(p).length > 0, { error: TEAM_MSG.permissionsRequired }),
  version: versionSchema.optional(),
  reason: auditReason.optional(),
  mfaToken: optionalMfaToken,
});
export type UpdatePermissionsRequest = z.infer<typeof updatePermissionsRequest>;

/** POST /_api/settings/users/role */
export const changeRoleRequest = z.strictObject({
  userId: teamUserIdSchema,
  newRole: roleSchema,
  reason: text({ error: TEAM_MSG.roleReasonMin })
    .trim()
    .min(TEAM_LIMITS.reasonMin, { error: TEAM_MSG.roleReasonMin })
    .max(TEAM_LIMITS.reasonMax, { error: TEAM_MSG.reasonTooLong }),
  version: versionSchema.optional(),
  mfaToken: optionalMfaToken,
});
export type ChangeRoleRequest = z.infer<typeof changeRoleRequest>;

/** POST /_api/settings/users/deactivate and /_api/settings/users/reactivate */
export const userStatusRequest = z.strictObject({
  userId: teamUserIdSchema,
  reason: auditReason.optional(),
  version: versionSchema.optional(),
  mfaToken: optionalMfaToken,
});
export type UserStatusRequest = z.infer<typeof userStatusRequest>;

/** POST /_api/settings/users/reset-mfa: always with a fresh code of the administrator's own second factor. */
export const resetMfaRequest = z.strictObject({
  userId: teamUserIdSchema,
  reason: auditReason,
  mfaToken: text({ error: TEAM_MSG.mfaTokenRequired }).min(1, { error: TEAM_MSG.mfaTokenRequired }).max(64),
});
export type ResetMfaRequest = z.infer<typeof resetMfaRequest>;
export const resetMfaResponse = z.object({ success: z.literal(true), message: z.string(), user: managedUserSchema });
export type ResetMfaResponse = z.infer<typeof resetMfaResponse>;

/** POST /_api/settings/users/invitations/resend and /revoke */
export const invitationActionRequest = z.strictObject({
  invitationId: invitationIdSchema,
  mfaToken: optionalMfaToken,
});
export type InvitationActionRequest = z.infer<typeof invitationActionRequest>;
export const invitationActionResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  /** The invitation as now pending (resend: the new one); absent after a revoke. */
  invitation: pendingInvitationSchema.optional(),
});
export type InvitationActionResponse = z.infer<typeof invitationActionResponse>;

// ---- Guest access -----------------------------------------------------------------------------------

const matterIdSchema = z.uuid({ error: TEAM_MSG.invalidMatterId });

/**
 * What a guest may do with the files of a matter shared with them, chosen by the administrator per grant:
 * 'download' (the default) lets them download the files whatever their canRetrieve permission says (the grant is
 * the administrator's choice for that matter); 'view' lists the files but refuses their download.
 */
const GUEST_GRANT_ACCESS = ['download', 'view'] as const;
const guestGrantAccessSchema = z.enum(GUEST_GRANT_ACCESS, { error: TEAM_MSG.guestAccessInvalid });
export type GuestGrantAccess = z.infer<typeof guestGrantAccessSchema>;

export const guestGrantSchema = z.object({
  userId: z.string(),
  matterId: z.string(),
  matterName: z.string(),
  matterNumber: z.string().nullable(),
  grantedBy: z.object({ name: z.string() }).nullable(),
  grantedAt: z.string(),
  access: guestGrantAccessSchema,
});
export type GuestGrant = z.infer<typeof guestGrantSchema>;

/** GET /_api/settings/guest-access?userId= */
export const guestGrantsQuery = z.strictObject({ userId: teamUserIdSchema });
export type GuestGrantsQuery = z.infer<typeof guestGrantsQuery>;
export const guestGrantsResponse = z.object({ grants: z.array(guestGrantSchema) });
export type GuestGrantsResponse = z.infer<typeof guestGrantsResponse>;

/**
 * POST /_api/settings/guest-access/grant and /revoke. Sharing a matter with someone outside the firm asks for a
 * fresh code while MFA_USER_MANAGEMENT is on; stopping it never does. `access` (grant only, default 'download'):
 * granting a matter already shared with another access changes the grant's access.
 */
export const guestGrantRequest = z.strictObject({
  userId: teamUserIdSchema,
  matterId: matterIdSchema,
  access: guestGrantAccessSchema.optional(),
  mfaToken: optionalMfaToken,
});
export type GuestGrantRequest = z.infer<typeof guestGrantRequest>;
export const guestGrantResponse = z.object({ success: z.literal(true), message: z.string(), grants: z.array(guestGrantSchema) });
export type GuestGrantResponse = z.infer<typeof guestGrantResponse>;

/** The permissions a role starts with, with explicit switches applied over them. */
export function permissionsForRole(defaults: Record<Role, Permissions>, role: Role, explicit?: Partial<Permissions>): Permissions {
  return { ...defaults[role], ...(explicit ?? {}) };
}
