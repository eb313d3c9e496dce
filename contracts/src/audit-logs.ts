import { z } from 'zod';
import { text } from './common.js';
import { SECURITY_EVENT_ACTIONS } from './constants.js';

/** The audit log: its page's texts, limits, categories of actions, and the shapes of its calls. */
export const AUDIT_LOG_MSG = {
  // Page texts
  title: 'Audit Logs',
  subtitle: 'Review all actions and events within your organization.',
  retrieving: (n: number) => `Retrieving ${n} archived log(s)...`,
  refresh: 'Refresh',
  exportCsv: 'Export CSV',
  searchPlaceholder: 'Search logs...',
  pickDate: 'Pick a date',
  allCategories: 'All Action Categories',
  specificAction: 'Specific Action',
  allActionsInCategory: 'All Actions in Category',
  clear: 'Clear',
  columnTimestamp: 'Timestamp',
  columnActor: 'Actor',
  columnAction: 'Action',
  columnTarget: 'Target',
  columnDetails: 'Details',
  system: 'System',
  notApplicable: 'N/A',
  view: 'View',
  hide: 'Hide',
  archived: 'Archived',
  reportedByBrowser: 'Reported by a browser',
  retrieve: 'Retrieve',
  previous: 'Previous',
  next: 'Next',
  pageOf: (page: number, totalPages: number) => `Page ${page} of ${totalPages}`,
  /** The count stopped at its bound: more pages than that, how many not known. */
  pageOfAtLeast: (page: number, totalPages: number) => `Page ${page} of ${Math.max(page, totalPages).toLocaleString('en-US')}+`,
  empty: 'No audit logs found for the selected filters.',
  // Errors
  fetchFailed: 'Failed to fetch audit logs',
  organizationRequired: 'Organization context is required for audit log operations',
  exportFailed: 'Failed to export CSV. Please try again.',
  guestsNotAllowed: 'Guests cannot read the audit log.',
  adminsOnly: 'Only administrators can run the integrity check.',
  chainExportAdminsOnly: 'Only administrators can export the audit chain.',
  // Validation of the list and export queries
  pagePositive: 'Page must be a positive integer.',
  limitRange: 'Limit must be an integer between 1 and 100.',
  exportLimitPositive: 'Limit must be a positive integer.',
  invalidStartDate: 'Start date must be an ISO date and time.',
  invalidEndDate: 'End date must be an ISO date and time.',
  dateOrder: 'Start date must not be after the end date.',
  invalidAction: 'Actions must belong to the listed action names.',
  invalidActorId: 'Actor IDs must be positive integers.',
  tooManyValues: 'At most 100 values may be given.',
  invalidIpAddress: 'IP address must be at most 64 characters of digits, letters, dots, colons and percent signs.',
  searchTooLong: 'Search cannot exceed 200 characters.',
  invalidSortBy: 'sortBy must be one of created_at, action, target_table.',
  invalidSortDirection: 'sortDirection must be asc or desc.',
  // Integrity check (toasts)
  integrityPassed: (n: number) => `Integrity check passed: ${n} entries verified.`,
  integrityFailed: (n: number) => `Integrity check failed: ${n} invalid entries.`,
  // What anchors the chain outside the database (the integrity check's anchor.message)
  anchorNone: 'no signed head yet: nothing outside the database vouches for the newest entries.',
  anchorSigned: (seq: number, signedAt: string, lastSeq: number) =>
    `Entries up to ${seq} are anchored by a head signed at ${signedAt} and held in the write-once store` +
    (lastSeq > seq ? `; entries ${seq + 1} to ${lastSeq} are not signed yet.` : '.'),
} as const;

export const AUDIT_LOG_LIMITS = {
  /** The page asks for 50 rows a page. */
  pageSizeDefault: 50,
  pageSizeMax: 100,
  /** The page's CSV export asks for at most this many rows; the server streams any number when asked. */
  exportLimitDefault: 10_000,
  searchMax: 200,
  filterValuesMax: 100,
  searchDebounceMs: 500,
  skeletonRows: 10,
  /** Clear resets the range to the 30 days ending today. */
  defaultRangeDays: 30,
  refetchMs: 10 * 60 * 1000,
  staleMs: 5 * 60 * 1000,
} as const;

/**
 * The seven categories of the page's filter and the actions in each. Every action Strongroom writes is in exactly
 * one category (a server test holds this). What a browser reports (security events and forensic notes) is
 * recorded under CLIENT_REPORT_ACTION_PREFIX instead, in the category CLIENT_REPORT_CATEGORY: found by search, not
 * by this filter, and never under a name of this map.
 */
export const AUDIT_ACTION_CATEGORIES = {
  Authentication: [
    'USER_LOGIN',
    'USER_LOGIN_FAILED',
    'USER_LOGOUT',
    'USER_LOGIN_MFA_EMAIL_SUCCESS',
    'PASSWORD_RESET_REQUESTED',
    'PASSWORD_RESET_COMPLETED',
    'EMAIL_VERIFICATION_CODE_SENT',
    'MFA_EMAIL_CODE_SENT',
    'LOGIN_PASSWORD_VERIFIED',
    'MFA_CHALLENGE_STARTED',
    'MFA_VERIFICATION_SUCCESS',
    'MFA_VERIFICATION_FAILED',
    'MFA_VERIFICATION_LOCKED',
    'MFA_RECOVERY_CODE_USED',
    'SSO_SIGN_IN',
    'SSO_SIGN_IN_REFUSED',
    'PASSKEY_CLONE_SUSPECTED',
  ],
  'User Management': [
    'USER_PASSWORD_CHANGE',
    'USER_UPDATE_PERMISSIONS',
    'USER_REMOVE',
    'INVITE_USER',
    'ACCEPT_INVITATION',
    'MFA_EMAIL_ENABLED',
    'MFA_TOTP_ENABLED',
    'MFA_DISABLED',
    'USER_ROLE_CHANGE',
    'USER_REACTIVATE',
    'MFA_RESET',
    'MFA_SETUP_INITIATED',
    'MFA_RECOVERY_CODES_REGENERATED',
    'UNDO_USER_UPDATE',
    'INVITATION_RESENT',
    'INVITATION_REVOKED',
    'GUEST_ACCESS_GRANTED',
    'GUEST_ACCESS_REVOKED',
    'UPDATE_PROFILE',
    'API_TOKEN_CREATED',
    'API_TOKEN_REVOKED',
    'SSO_LINKED',
    'SSO_UNLINKED',
    'SSO_USER_CREATED',
    'PASSKEY_REGISTERED',
    'PASSKEY_RENAMED',
    'PASSKEY_REMOVED',
    'PASSKEY_POLICY_UPDATED',
  ],
  'Matter Operations': [
    'CREATE_MATTER',
    'UPDATE_MATTER',
    'DELETE_MATTER',
    'VAULT_MATTER',
    'APPLY_LEGAL_HOLD',
    'REMOVE_LEGAL_HOLD',
    'UNDO_UPDATE_MATTER',
  ],
  'File Operations': [
    'UPLOAD_FILE',
    'DOWNLOAD_FILE',
    'PREVIEW_FILE',
    'DOWNLOAD_ZIP',
    'MOVE_NODE',
    'CREATE_FOLDER',
    'DELETE_NODE',
    'RENAME_NODE',
    'UNDO_MOVE_NODE',
    'UNDO_RENAME_NODE',
    'UNDO_DELETE_NODE',
    'RESTORE_NODE',
    'PURGE_NODE',
    'UPLOAD_ABORTED',
    'UPLOAD_EXPIRED',
    'UPLOAD_FAILED',
    'DOWNLOAD_VAULTED_FILE',
    'RESTORE_VERSION',
    'SEARCH',
  ],
  'Vault Operations': [
    'VAULT_TRANSFER_INITIATED',
    'VAULT_TRANSFER_COMPLETED',
    'VAULT_TRANSFER_FAILED',
    'VAULT_CERTIFICATE_ISSUED',
    'VAULT_VERIFICATION_FAILED',
    'VAULT_VERIFICATION_PASSED',
    'VAULT_REPORT_EXPORTED',
    'VAULT_REGISTER_EXPORTED',
    'DISPOSITION_QUEUED',
    'DISPOSITION_APPROVED',
    'DISPOSITION_EXTENDED',
    'DISPOSITION_HELD',
    'DISPOSITION_REMINDER',
  ],
  'Settings Operations': [
    'UPDATE_RETENTION',
    'UPDATE_OBJECT_LOCK_MODE',
    'UPDATE_ORG_INFO',
    'UPDATE_FEATURE_FLAGS',
    'ORGANIZATION_CREATED',
    'SECURITY_POLICY_CREATED',
    'SECURITY_POLICY_UPDATED',
    'SECURITY_POLICY_DELETED',
    'UPDATE_SEARCH_SETTINGS',
    'SEARCH_REINDEX_STARTED',
    'UPDATE_APPROVAL_POLICY',
    'SSO_SETTINGS_UPDATED',
  ],
  'System Operations': [
    'APPROVAL_REQUESTED',
    'APPROVAL_GRANTED',
    'APPROVAL_REJECTED',
    'APPROVAL_EXPIRED',
    'APPROVAL_VOIDED',
    'APPROVAL_EXECUTED',
    'AUDIT_LOG_ARCHIVED',
    'AUDIT_ARCHIVAL_STARTED',
    'AUDIT_ARCHIVAL_COMPLETED',
    'AUDIT_ARCHIVAL_FAILED',
    'RETENTION_CLEANUP',
    'EXPORT_AUDIT_LOGS',
    'AUDIT_CHAIN_EXPORTED',
    'COMPLIANCE_CHECK_COMPLETED',
    'VULNERABILITY_SCAN_COMPLETED',
    'SECURITY_ASSESSMENT_COMPLETED',
    ...SECURITY_EVENT_ACTIONS.filter((a) => !['MFA_SETUP_INITIATED', 'MFA_VERIFICATION_SUCCESS', 'MFA_VERIFICATION_FAILED'].includes(a)),
  ],
} as const satisfies Record<string, readonly string[]>;
export type AuditActionCategory = keyof typeof AUDIT_ACTION_CATEGORIES;
export const AUDIT_CATEGORY_NAMES = Object.keys(AUDIT_ACTION_CATEGORIES) as AuditActionCategory[];
/** Every action name the list filter accepts. */
export const AUDIT_ACTIONS: readonly string[] = Object.values(AUDIT_ACTION_CATEGORIES).flat();
/**
 * Security events and forensic notes a browser sends (POST /_api/security/event-log and forensic-log) are claims,
 * not events the server witnessed: each is stored as CLIENT_REPORTED_<NAME> (the name the browser sent is kept in
 * details.reportedAction), so a report can never pass for an entry the server writes under that name.
 */
export const CLIENT_REPORT_ACTION_PREFIX = 'CLIENT_REPORTED_';
/** The category of every client report, apart from the seven of the filter. */
export const CLIENT_REPORT_CATEGORY = 'Client Reports';
/** The action a client report is stored under. */
export const clientReportAction = (name: string) => `${CLIENT_REPORT_ACTION_PREFIX}${name}`;

/** The category of an action: one of the seven, Client Reports for what a browser reported, else null. */
export function auditCategoryOf(action: string): AuditActionCategory | typeof CLIENT_REPORT_CATEGORY | null {
  if (action.startsWith(CLIENT_REPORT_ACTION_PREFIX)) return CLIENT_REPORT_CATEGORY;
  for (const name of AUDIT_CATEGORY_NAMES) if ((AUDIT_ACTION_CATEGORIES[name] as readonly string[]).includes(action)) return name;
  return null;
}

/**
 * What a person who is not an administrator sees of the organization's log beyond their own entries: the
 * organization-wide events the dashboard's activity shows everyone (a matter created, a person invited, the
 * organization's details changed).
 */
export const AUDIT_SHARED_ACTIONS = ['CREATE_MATTER', 'INVITE_USER', 'UPDATE_ORG_INFO'] as const;

export const AUDIT_SORT_FIELDS = ['created_at', 'action', 'target_table'] as const;
export type AuditSortField = (typeof AUDIT_SORT_FIELDS)[number];

/** Query strings arrive as text; an empty value counts as absent. */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
/** A repeated query parameter arrives as an array, a single one as a string. */
const toArray = (v: unknown) => (v === undefined || v === '' ? undefined : Array.isArray(v) ? v : [v]);

const actionList = z.preprocess(
  toArray,
  z
    .array(z.string().refine((a) => AUDIT_ACTIONS.includes(a), { error: AUDIT_LOG_MSG.invalidAction }))
    .max(AUDIT_LOG_LIMITS.filterValuesMax, { error: AUDIT_LOG_MSG.tooManyValues })
    .optional(),
);
const actorIdList = z.preprocess(
  toArray,
  z
    .array(
      z.coerce
        .number({ error: AUDIT_LOG_MSG.invalidActorId })
        .int({ error: AUDIT_LOG_MSG.invalidActorId })
        .positive({ error: AUDIT_LOG_MSG.invalidActorId }),
    )
    .max(AUDIT_LOG_LIMITS.filterValuesMax, { error: AUDIT_LOG_MSG.tooManyValues })
    .optional(),
);
const isoDate = (error: string) => z.preprocess(blankToUndefined, z.iso.datetime({ offset: true, error }).optional());

/**
 * The filters the list and the export share. `actions` and `actorIds` may be repeated, and may be written with
 * brackets (`actions[]=...`). startDate and endDate bound created_at (both inclusive). search: a substring,
 * ignoring case, of the action, the actor's name or address, the target table or id, or the details' text.
 */
const auditFilterFields = {
  startDate: isoDate(AUDIT_LOG_MSG.invalidStartDate),
  endDate: isoDate(AUDIT_LOG_MSG.invalidEndDate),
  actions: actionList,
  'actions[]': actionList,
  actorIds: actorIdList,
  'actorIds[]': actorIdList,
  ipAddress: z.preprocess(
    blankToUndefined,
    text()
      .trim()
      .regex(/^[0-9A-Za-z.:%]{1,64}$/, { error: AUDIT_LOG_MSG.invalidIpAddress })
      .optional(),
  ),
  search: z.preprocess(
    blankToUndefined,
    text().trim().normalize('NFC').max(AUDIT_LOG_LIMITS.searchMax, { error: AUDIT_LOG_MSG.searchTooLong }).optional(),
  ),
  sortBy: z.preprocess(blankToUndefined, z.enum(AUDIT_SORT_FIELDS, { error: AUDIT_LOG_MSG.invalidSortBy }).default('created_at')),
  sortDirection: z.preprocess(blankToUndefined, z.enum(['asc', 'desc'], { error: AUDIT_LOG_MSG.invalidSortDirection }).default('desc')),
};
const datesInOrder = (q: { startDate?: string; endDate?: string }) =>
  !q.startDate || !q.endDate || Date.parse(q.startDate) <= Date.parse(q.endDate);

/** GET /_api/audit-logs/list. Defaults: page 1, limit 50, newest first. */
export const auditLogListQuery = z
  .object({
    ...auditFilterFields,
    page: z.preprocess(
      blankToUndefined,
      z.coerce
        .number({ error: AUDIT_LOG_MSG.pagePositive })
        .int({ error: AUDIT_LOG_MSG.pagePositive })
        .min(1, { error: AUDIT_LOG_MSG.pagePositive })
        .default(1),
    ),
    limit: z.preprocess(
      blankToUndefined,
      z.coerce
        .number({ error: AUDIT_LOG_MSG.limitRange })
        .int({ error: AUDIT_LOG_MSG.limitRange })
        .min(1, { error: AUDIT_LOG_MSG.limitRange })
        .max(AUDIT_LOG_LIMITS.pageSizeMax, { error: AUDIT_LOG_MSG.limitRange })
        .default(AUDIT_LOG_LIMITS.pageSizeDefault),
    ),
  })
  .refine(datesInOrder, { error: AUDIT_LOG_MSG.dateOrder, path: ['startDate'] });
export type AuditLogListQuery = z.infer<typeof auditLogListQuery>;

/**
 * GET /_api/audit-logs/export: the same filters and order, every matching row as CSV (no ceiling unless `limit`
 * is given; `page` is accepted and ignored beyond 1 as the page sends page 1). Needs system MFA (operation
 * EXPORT_AUDIT_LOGS): the token in the X-MFA-Token header or the mfaToken query parameter.
 */
export const auditLogExportQuery = z
  .object({
    ...auditFilterFields,
    page: z.preprocess(
      blankToUndefined,
      z.coerce
        .number({ error: AUDIT_LOG_MSG.pagePositive })
        .int({ error: AUDIT_LOG_MSG.pagePositive })
        .min(1, { error: AUDIT_LOG_MSG.pagePositive })
        .optional(),
    ),
    limit: z.preprocess(
      blankToUndefined,
      z.coerce
        .number({ error: AUDIT_LOG_MSG.exportLimitPositive })
        .int({ error: AUDIT_LOG_MSG.exportLimitPositive })
        .positive({ error: AUDIT_LOG_MSG.exportLimitPositive })
        .optional(),
    ),
    mfaToken: z.preprocess(blankToUndefined, text().max(200).optional()),
  })
  .refine(datesInOrder, { error: AUDIT_LOG_MSG.dateOrder, path: ['startDate'] });
export type AuditLogExportQuery = z.infer<typeof auditLogExportQuery>;

/**
 * GET /_api/audit-logs/chain-export (administrators): the organization's audit chain for checking offline, as
 * signed JSON lines (application/x-ndjson). startDate and endDate (ISO, both optional and inclusive) choose the
 * entries by the time they were written; every entry between the first and the last of those is exported.
 * Needs system MFA as the CSV export does (EXPORT_AUDIT_LOGS): the X-MFA-Token header or mfaToken.
 */
export const auditChainExportQuery = z
  .strictObject({
    startDate: isoDate(AUDIT_LOG_MSG.invalidStartDate),
    endDate: isoDate(AUDIT_LOG_MSG.invalidEndDate),
    mfaToken: z.preprocess(blankToUndefined, text().max(200).optional()),
  })
  .refine(datesInOrder, { error: AUDIT_LOG_MSG.dateOrder, path: ['startDate'] });
export type AuditChainExportQuery = z.infer<typeof auditChainExportQuery>;

export const auditLogActorSchema = z.object({ id: z.number().int().nullable(), name: z.string().nullable(), email: z.string().nullable() });
/** One entry as the list answers it. `details` is null while an archived entry's details are in cold storage. */
export const auditLogEntrySchema = z.object({
  id: z.string(),
  /** When the entry was written (ISO date-time). */
  createdAt: z.string(),
  /** The same value as createdAt, under its earlier name. */
  timestamp: z.string(),
  /** null: the entry was written by Strongroom itself (shown as System). */
  actor: auditLogActorSchema.nullable(),
  action: z.string(),
  targetTable: z.string().nullable(),
  targetId: z.string().nullable(),
  /** The recorded details plus `ipAddress` (the same value as the top-level field); null while archived. */
  details: z.record(z.string(), z.unknown()).nullable(),
  ipAddress: z.string().nullable(),
  archived: z.boolean(),
  /**
   * The current names of what the entry is about, for the sentence (describeAuditEntry) when the entry recorded
   * none of its own: `matter` its matter's name, `target` the file's, folder's, matter's or person's name. null
   * when the thing is gone or the entry is about nothing with a name.
   */
  names: z.object({ matter: z.string().nullable(), target: z.string().nullable() }).optional(),
});
export type AuditLogEntry = z.infer<typeof auditLogEntrySchema>;
export const auditLogListResponse = z.object({
  logs: z.array(auditLogEntrySchema),
  pagination: z.object({
    page: z.number().int(),
    limit: z.number().int(),
    totalCount: z.number().int(),
    totalPages: z.number().int(),
    /** true: more entries match than were counted (LIMITS.listCountBound); totalCount is that many, a lower bound. */
    totalCountCapped: z.boolean(),
  }),
  totalCount: z.number().int(),
});
export type AuditLogListResponse = z.infer<typeof auditLogListResponse>;

/** The CSV export's columns, in order. The file is UTF-8 with a byte-order mark, lines end in CRLF. */
export const AUDIT_CSV_COLUMNS = ['Timestamp', 'Actor', 'Action', 'Target', 'Details (JSON)', 'IP Address', 'archived'] as const;
export const auditCsvFileName = (at: Date) => `strongroom_audit_logs_${at.toISOString()}.csv`;

/** POST /_api/security/integrity-check (administrators): verifies the organization's whole audit chain. */
export const integrityCheckRequest = z.strictObject({});
export type IntegrityCheckRequest = z.infer<typeof integrityCheckRequest>;
export const integrityInvalidEntrySchema = z.object({
  /** The entry's id (null when the entry is missing altogether). */
  id: z.string().nullable(),
  seq: z.number().int(),
  reason: z.string(),
});
export const integrityCheckResponse = z.object({
  isValid: z.boolean(),
  checkedEntries: z.number().int(),
  /** The first broken entry first. */
  invalidEntries: z.array(integrityInvalidEntrySchema),
  /**
   * The newest signed chain head the write-once store holds, compared with the chain (null before the first one
   * was signed): its position, hash, time, signing key and object key.
   */
  signedHead: z
    .object({ seq: z.number().int(), hash: z.string(), signedAt: z.string(), keyId: z.string(), objectKey: z.string() })
    .nullable(),
  /** Whether and when the chain was anchored outside the database, in words (status 'none': no signed head yet). */
  anchor: z.object({ status: z.enum(['signed', 'none']), message: z.string() }),
});
export type IntegrityCheckResponse = z.infer<typeof integrityCheckResponse>;
