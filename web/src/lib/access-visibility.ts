import { may, type AccessRule, type AccessSubject } from '@strongroom/contracts';

/**
 * The controls the web app shows or hides by who is signed in, each with the server call it leads to and the
 * shared rule (contracts' ACCESS_RULES) that decides both: the server's route declares the same rule, so a
 * button is offered exactly to the people the server lets through. A test on the server side walks this table
 * against the route declarations and fails where they disagree.
 */
export const VISIBILITY = {
  /** Invite User (top bar, Team tab). */
  inviteUser: { rule: 'invite', call: 'POST /_api/settings/users/invite' },
  /** New Matter (matters page). */
  newMatter: { rule: 'createMatters', call: 'POST /_api/matters/create' },
  /** Upload Files (dashboard header): the upload calls whose declaration names the canUpload rule. */
  uploadFiles: { rule: 'upload', call: 'GET /_api/upload/parts' },
  /** The dashboard's Vault Status widget. */
  dashboardVaultStatus: { rule: 'viewVaulted', call: 'GET /_api/dashboard/vault-status' },
  /** The dashboard's User Management widget. */
  dashboardUsers: { rule: 'seeTeam', call: 'GET /_api/dashboard/users' },
  /** The dashboard's Storage Usage widget. */
  dashboardStorage: { rule: 'admin', call: 'GET /_api/dashboard/storage' },
  /** Apply / Remove Legal Hold (matter details). */
  legalHold: { rule: 'admin', call: 'POST /_api/matters/legal-hold' },
  /** Rename of a folder or a file (the matter's file browser and folder tree). */
  renameNode: { rule: 'rename', call: 'POST /_api/nodes/rename' },
  /** Vault Matter (matter details). */
  vaultMatter: { rule: 'vault', call: 'POST /_api/vault/start' },
  /** The Vault page. */
  vaultPage: { rule: 'viewVaulted', call: 'GET /_api/vault/list' },
  /** The Disposition review page (its queue; deciding is for administrators). */
  dispositionPage: { rule: 'reviewDisposition', call: 'GET /_api/disposition/list' },
  /** The disposition review's decisions, and its link in the navigation. */
  dispositionDecide: { rule: 'admin', call: 'POST /_api/disposition/decide' },
  /** The audit log's archival panel. */
  archivalPanel: { rule: 'admin', call: 'GET /_api/system/archival-stats' },
  /** Settings → Security (feature flags, security tooling). */
  securitySettings: { rule: 'admin', call: 'POST /_api/settings/feature-flags' },
  /** The Approvals page and its navigation entry (deciding another administrator's request). */
  approvalsPage: { rule: 'admin', call: 'POST /_api/approvals/decide' },
  /** The link to one's own approval request from the waiting dialog (a member reads their own requests). */
  approvalRequest: { rule: 'member', call: 'GET /_api/approvals/detail' },
  /** Settings → Security → Approvals: which actions need a second administrator. */
  approvalRules: { rule: 'admin', call: 'POST /_api/settings/approvals' },
  /** Settings → Security → Single sign-on: the organization's provider. */
  ssoSettings: { rule: 'admin', call: 'POST /_api/settings/sso' },
  /** Settings → Profile → Passkeys: allowing passwordless sign-in for the organization. */
  passkeyPolicy: { rule: 'admin', call: 'POST /_api/settings/passkeys/policy' },
  /** Reset MFA (member drawer). */
  resetMfa: { rule: 'resetMfa', call: 'POST /_api/settings/users/reset-mfa' },
  /** Settings → Organization (guests see none of the firm's details). */
  organizationTab: { rule: 'member', call: 'GET /_api/settings/organization' },
  /** Settings → Team & Permissions: only for who can list the team (a plain user has no list to read). */
  teamTab: { rule: 'seeTeam', call: 'GET /_api/settings/users' },
  /** Settings → Retention & Vault. */
  retentionTab: { rule: 'member', call: 'GET /_api/settings/retention' },
  /** Shared matters of a guest (member drawer). */
  guestAccess: { rule: 'shareWithGuests', call: 'POST /_api/settings/guest-access/grant' },
} as const satisfies Record<string, { rule: AccessRule; call: string }>;

export type Control = keyof typeof VISIBILITY;

/** Whether `user` is shown `control`. */
export function shows(user: AccessSubject, control: Control): boolean {
  return may(user, VISIBILITY[control].rule);
}
