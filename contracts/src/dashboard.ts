import { z } from 'zod';

/**
 * The dashboard (/): its texts, limits, and the answers of its read-only calls. Each widget reads one call, so a
 * failing widget shows its own error and Retry while the others stay.
 */
export const DASHBOARD_MSG = {
  title: 'Dashboard',
  inviteUser: 'Invite User',
  uploadFiles: 'Upload Files',
  newMatter: 'New Matter',
  retry: 'Retry',
  viewAll: 'View All',
  viewVault: 'View Vault',
  manageUsers: 'Manage Users',
  details: 'Details',
  recentMatters: 'Recent Matters',
  recentActivity: 'Recent Activity',
  notifications: 'Notifications',
  vaultStatus: 'Vault Status',
  userManagement: 'User Management',
  storageUsage: 'Storage Usage',
  noRecentMatters: 'No recent matters',
  createFirstMatter: 'Create First Matter',
  noRecentActivity: 'No recent activity',
  noNotifications: 'No notifications',
  recentMattersFailed: 'Failed to load recent matters',
  recentActivityFailed: 'Failed to load recent activity',
  notificationsFailed: 'Failed to load notifications',
  vaultStatusFailed: 'Failed to load vault status',
  userDataFailed: 'Failed to load user data',
  storageDataFailed: 'Failed to load storage data',
  vaultedMatters: 'Vaulted Matters',
  ninetyDayAlerts: '90-Day Alerts',
  legalHolds: 'Legal Holds',
  noAlerts: 'No retention ends in the next 90 days.',
  activeUsers: 'Active Users',
  pendingInvites: 'Pending Invites',
  totalStorageUsed: 'Total Storage Used',
  hotStorage: 'Active files',
  vaultedStorage: 'Vaulted files',
  ofQuota: (quota: string) => `of ${quota}`,
  noQuota: 'No storage quota is set.',
  archivableLogs: 'Archivable Logs',
  showArchivable: 'Show archivable logs',
  archivableFailed: 'Failed to load archival statistics',
  // Select Matter dialog
  selectMatterTitle: 'Select Matter',
  selectMatterDescription: 'Choose the matter the files go into.',
  selectMatterSearch: 'Search matters...',
  selectMatterHint: 'Type at least 2 characters to search.',
  selectMatterNone: 'No matters found.',
  selectMatterRequired: 'Please select a matter.',
  selectMatterContinue: 'Continue',
  cancel: 'Cancel',
  searchFailed: 'Failed to search matters',
  // Server refusals
  guestsNoVault: 'Guests cannot see the vault status.',
  vaultStatusDenied: 'You do not have permission to view vaulted matters.',
  usersDenied: 'You do not have permission to manage or invite users.',
  storageDenied: 'Only administrators can see storage usage.',
} as const;

export const DASHBOARD_LIMITS = {
  /** Each list widget shows at most this many rows. */
  listSize: 5,
  /** Retention ending within this many days (and at least one day ahead) raises an alert. */
  alertDays: 90,
  /** The most alerts listed (the count is exact). */
  alertListMax: 20,
  /** Select Matter: search once the text is longer than 1 character, 300 ms after the last key, 10 results. */
  searchMinChars: 2,
  searchDebounceMs: 300,
  searchResults: 10,
  /** Dashboard answers stay fresh 5 minutes; at most 2 retries, 1 s doubling to 30 s. */
  staleMs: 5 * 60_000,
  maxRetries: 2,
  retryBaseMs: 1000,
  retryMaxMs: 30_000,
} as const;

/** The audit action kinds everyone in the organization sees on the dashboard, whoever did them. */
export const DASHBOARD_ORG_WIDE_ACTIONS = ['CREATE_MATTER', 'INVITE_USER', 'UPDATE_ORG_INFO'] as const;

/** GET /_api/dashboard/activity: the newest audit entries the user may see (up to 5). */
export const dashboardActivityEntry = z.object({
  id: z.string(),
  action: z.string(),
  actorName: z.string().nullable(),
  targetTable: z.string().nullable(),
  createdAt: z.string(),
  /** The entry as a sentence with names, as the Audit Logs page says it ('Ada uploaded “Defence.pdf” to …'). */
  summary: z.string(),
});
export const dashboardActivityResponse = z.object({ entries: z.array(dashboardActivityEntry) });
export type DashboardActivityResponse = z.infer<typeof dashboardActivityResponse>;

/** GET /_api/dashboard/vault-status (holders of canViewVaulted). */
export const dashboardRetentionAlert = z.object({
  matterId: z.string(),
  matterName: z.string(),
  retentionExpiresAt: z.string(),
});
export const dashboardVaultStatusResponse = z.object({
  vaultedMatters: z.number().int(),
  /** Vaulted matters whose retention ends in 1 to 90 days. */
  retentionAlerts: z.number().int(),
  legalHolds: z.number().int(),
  /** The soonest alerts first, at most DASHBOARD_LIMITS.alertListMax. */
  alerts: z.array(dashboardRetentionAlert),
});
export type DashboardVaultStatusResponse = z.infer<typeof dashboardVaultStatusResponse>;

/** GET /_api/dashboard/users (whoever manages or may invite users). */
export const dashboardUsersResponse = z.object({
  activeUsers: z.number().int(),
  /** Invitations neither accepted, revoked nor expired. */
  pendingInvites: z.number().int(),
});
export type DashboardUsersResponse = z.infer<typeof dashboardUsersResponse>;

/** GET /_api/dashboard/storage (administrators): stored file bytes, hot and vaulted apart. */
export const dashboardStorageResponse = z.object({
  hotBytes: z.number().int(),
  vaultedBytes: z.number().int(),
  totalBytes: z.number().int(),
  /** The organization's quota in bytes; null when none is set. */
  quotaBytes: z.number().int().nullable(),
});
export type DashboardStorageResponse = z.infer<typeof dashboardStorageResponse>;
