/**
 * Which audit actions are notifications, of which kind, and who sees each kind:
 * - legal hold and retention: holders of canViewVaulted, and whoever did it;
 * - vault: holders of canViewVaulted;
 * - users and invitations: holders of canManageUsers;
 * - sign-in security (MFA, passwords, integrity alarms) and approval requests: holders of canManageUsers, and whoever
 *   did it;
 * - organization: everyone in the organization.
 * Every other action (sign-ins, file operations, exports) stays on the Audit Logs page only.
 */
import { ACCESS_RULES, type NotificationKind } from '@strongroom/contracts';
import type { UserRow } from '../users/index.js';

const NOTIFYING_ACTIONS: Record<NotificationKind, readonly string[]> = {
  legal_hold: ['APPLY_LEGAL_HOLD', 'REMOVE_LEGAL_HOLD'],
  retention: [
    'UPDATE_RETENTION',
    'RETENTION_CLEANUP',
    'DISPOSITION_QUEUED',
    'DISPOSITION_APPROVED',
    'DISPOSITION_EXTENDED',
    'DISPOSITION_HELD',
    'DISPOSITION_REMINDER',
  ],
  vault: [
    'VAULT_MATTER',
    'VAULT_TRANSFER_COMPLETED',
    'VAULT_TRANSFER_FAILED',
    'VAULT_CERTIFICATE_ISSUED',
    'VAULT_VERIFICATION_FAILED',
    'UPDATE_OBJECT_LOCK_MODE',
  ],
  user: [
    'INVITE_USER',
    'ACCEPT_INVITATION',
    'INVITATION_RESENT',
    'INVITATION_REVOKED',
    'USER_REMOVE',
    'USER_REACTIVATE',
    'USER_ROLE_CHANGE',
    'USER_UPDATE_PERMISSIONS',
    'GUEST_ACCESS_GRANTED',
    'GUEST_ACCESS_REVOKED',
  ],
  security: [
    'MFA_EMAIL_ENABLED',
    'MFA_TOTP_ENABLED',
    'MFA_DISABLED',
    'MFA_RESET',
    'MFA_SETUP_COMPLETED',
    'MFA_RECOVERY_CODES_REGENERATED',
    'MFA_RECOVERY_CODE_USED',
    'MFA_VERIFICATION_LOCKED',
    'USER_PASSWORD_CHANGE',
    'PASSWORD_RESET_COMPLETED',
    'INTEGRITY_CHECK_FAILED',
    'SUSPICIOUS_ACTIVITY_DETECTED',
    'SECURITY_POLICY_CREATED',
    'SECURITY_POLICY_UPDATED',
    'SECURITY_POLICY_DELETED',
    // Four-eyes approvals: requests waiting for an administrator, and their outcome.
    'APPROVAL_REQUESTED',
    'APPROVAL_GRANTED',
    'APPROVAL_REJECTED',
    'APPROVAL_EXPIRED',
    'APPROVAL_VOIDED',
    'APPROVAL_EXECUTED',
    'UPDATE_APPROVAL_POLICY',
  ],
  organization: ['ORGANIZATION_CREATED', 'UPDATE_ORG_INFO', 'UPDATE_FEATURE_FLAGS'],
};

const KIND_OF_ACTION = new Map<string, NotificationKind>(
  (Object.entries(NOTIFYING_ACTIONS) as [NotificationKind, readonly string[]][]).flatMap(([kind, actions]) =>
    actions.map((a) => [a, kind] as const),
  ),
);

export const kindOfAction = (action: string): NotificationKind | undefined => KIND_OF_ACTION.get(action);

/** What a reader may see: actions seen whoever did them, and actions seen only when the reader did them. */
export type Visibility = {
  userId: number;
  organizationId: string;
  anyActor: string[];
  ownOnly: string[];
  /** The 90-day retention alerts. */
  retentionAlerts: boolean;
};

export function visibilityOf(user: UserRow): Visibility {
  const viewVaulted = ACCESS_RULES.viewVaulted(user);
  const manageUsers = ACCESS_RULES.manageUsers(user);
  const anyActor: string[] = [...NOTIFYING_ACTIONS.organization];
  const ownOnly: string[] = [];
  const { legal_hold, retention, vault, user: users, security } = NOTIFYING_ACTIONS;
  if (viewVaulted) anyActor.push(...legal_hold, ...retention, ...vault);
  else ownOnly.push(...legal_hold, ...retention);
  if (manageUsers) anyActor.push(...users, ...security);
  else ownOnly.push(...security);
  return { userId: user.id, organizationId: user.organizationId, anyActor, ownOnly, retentionAlerts: viewVaulted };
}
