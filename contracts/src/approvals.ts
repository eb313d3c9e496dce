import { z } from 'zod';
import { optionalMfaToken, text } from './common.js';

/**
 * Two people for what cannot be undone. An organization chooses which dangerous actions need a second
 * administrator; such an action, when asked for, is checked exactly as it would run, recorded as a request with a
 * preview of its effect, and runs only when another administrator approves it with a fresh code. The answer of a
 * governed call is then 202 with `{ approvalRequired: true, code: 'APPROVAL_REQUIRED', requestId, preview }`.
 */

/** The actions an organization can put behind a second approver. */
export const APPROVAL_ACTIONS = [
  'VAULT_MATTER',
  'REMOVE_LEGAL_HOLD',
  'DESTROY_AT_RETENTION_END',
  'ARCHIVE_AUDIT_LOGS',
  'DISABLE_MFA_FLAG',
  'GRANT_ADMIN_ACCESS',
  'DEACTIVATE_ADMIN',
  'DELETE_LARGE_FOLDER',
] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

/** What a request can be for: a governed action, or a change of the approval rules themselves once any is on. */
export const APPROVAL_REQUEST_ACTIONS = [...APPROVAL_ACTIONS, 'CHANGE_APPROVAL_POLICY'] as const;
export type ApprovalRequestAction = (typeof APPROVAL_REQUEST_ACTIONS)[number];

export const APPROVAL_ACTION_LABELS: Record<ApprovalRequestAction, string> = {
  VAULT_MATTER: 'Vault a matter',
  REMOVE_LEGAL_HOLD: 'Remove a legal hold',
  DESTROY_AT_RETENTION_END: 'Destroy a matter at the end of its retention',
  ARCHIVE_AUDIT_LOGS: 'Archive audit logs',
  DISABLE_MFA_FLAG: 'Turn off a multi-factor safeguard',
  GRANT_ADMIN_ACCESS: 'Make someone an administrator or give them user management',
  DEACTIVATE_ADMIN: 'Deactivate an administrator',
  DELETE_LARGE_FOLDER: 'Delete a large folder',
  CHANGE_APPROVAL_POLICY: 'Change the approval rules',
};

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'expired', 'void'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export const APPROVAL_STATUS_LABELS: Record<ApprovalStatus, string> = {
  pending: 'Waiting for approval',
  approved: 'Approved',
  rejected: 'Rejected',
  expired: 'Expired',
  void: 'Void',
};

export const APPROVAL_LIMITS = {
  expiryHoursDefault: 72,
  expiryHoursMin: 1,
  expiryHoursMax: 720,
  folderFilesDefault: 100,
  folderFilesMin: 1,
  folderFilesMax: 1_000_000,
  dispositionLeadDaysDefault: 30,
  dispositionLeadDaysMin: 1,
  dispositionLeadDaysMax: 365,
  reasonMax: 2000,
  /** Files listed one by one in a destruction preview; the rest are counted. */
  previewFilesMax: 1000,
  pageSizeMax: 100,
} as const;

export const APPROVAL_MSG = {
  waiting: 'Waiting for approval: another administrator must approve this before it happens. Nothing has changed yet.',
  cannotBeUndone: 'This cannot be undone.',
  invalidRequestId: 'Invalid request ID format.',
  requestIdRequired: 'requestId is required.',
  invalidStatus: 'status must be one of pending, approved, rejected, expired, void.',
  invalidDecision: "decision must be 'approve' or 'reject'.",
  rejectReasonRequired: 'Give a reason for rejecting the request.',
  reasonTooLong: `Reason cannot exceed ${APPROVAL_LIMITS.reasonMax} characters.`,
  notFound: 'Approval request not found.',
  ownRequest: 'You cannot approve or reject your own request: another administrator must decide it.',
  samePerson: 'This account shares its second factor with the requester’s, so it cannot approve the request.',
  alreadyDecided: (status: ApprovalStatus) =>
    `This request is no longer waiting for a decision (${APPROVAL_STATUS_LABELS[status].toLowerCase()}).`,
  expired: 'This request has expired: ask again if it is still needed.',
  approvedDone: 'Approved. The action has been carried out.',
  approvedPending: 'Approved. The action is being carried out.',
  rejected: 'Rejected. Nothing was changed.',
  voided: (why: string) => `The request is void: ${why}`,
  adminsOnly: 'Only administrators can see and decide approval requests.',
  invalidAction: `actions must list only: ${APPROVAL_ACTIONS.join(', ')}.`,
  duplicateAction: 'Each action can be listed once.',
  secondApproverNeeded: 'Approval rules need a second active administrator: invite or promote one first.',
  lastApprovers: 'Approval rules are on and need two active administrators: this change would leave fewer. Turn the rules off first.',
  expiryRange: `Requests expire after ${APPROVAL_LIMITS.expiryHoursMin} to ${APPROVAL_LIMITS.expiryHoursMax} hours.`,
  folderFilesRange: `The folder size must be ${APPROVAL_LIMITS.folderFilesMin} to ${APPROVAL_LIMITS.folderFilesMax.toLocaleString('en-US')} files.`,
  dispositionLeadRange: `Disposition review starts ${APPROVAL_LIMITS.dispositionLeadDaysMin} to ${APPROVAL_LIMITS.dispositionLeadDaysMax} days before retention ends.`,
  policySaved: 'Approval rules saved.',
} as const;

/** One line of a preview: a label and its value, as shown. */
const previewFact = z.object({ label: z.string(), value: z.string() });

/** A file a destruction would remove, with the sha256 recorded for it. */
const previewFile = z.object({ path: z.string(), versionNumber: z.number().int(), sizeBytes: z.number(), sha256: z.string() });

/** What a governed action would do, computed from the store when it was asked for. */
export const approvalPreviewSchema = z.object({
  action: z.enum(APPROVAL_REQUEST_ACTIONS),
  /** One line naming what is touched: "Vault matter 2026-0001 Acme v. Beta". */
  title: z.string(),
  /** The effect in words, ending with 'This cannot be undone.' where it cannot. */
  summary: z.string(),
  cannotBeUndone: z.boolean(),
  facts: z.array(previewFact),
  /** For a destruction: every file and version that would go, with its sha256. */
  files: z.array(previewFile).optional(),
  filesNotListed: z.number().int().optional(),
  /** For a grant: the permissions the person would gain. */
  permissionsGained: z.array(z.string()).optional(),
});
export type ApprovalPreview = z.infer<typeof approvalPreviewSchema>;

/** The 202 answer of a governed call: nothing happened yet. */
export const approvalRequiredResponse = z.object({
  approvalRequired: z.literal(true),
  code: z.literal('APPROVAL_REQUIRED'),
  message: z.string(),
  requestId: z.string(),
  expiresAt: z.string(),
  preview: approvalPreviewSchema,
});
export type ApprovalRequiredResponse = z.infer<typeof approvalRequiredResponse>;

const approvalPerson = z.object({ userId: z.number().int(), name: z.string(), email: z.string() });

export const approvalRequestSchema = z.object({
  requestId: z.string(),
  action: z.enum(APPROVAL_REQUEST_ACTIONS),
  actionLabel: z.string(),
  status: z.enum(APPROVAL_STATUSES),
  requestedBy: approvalPerson,
  requestedAt: z.string(),
  reason: z.string().nullable(),
  /** The call as it was asked for (the second-factor code left out): it runs with exactly these. */
  call: z.object({ method: z.string(), path: z.string(), parameters: z.record(z.string(), z.unknown()) }),
  preview: approvalPreviewSchema,
  expiresAt: z.string(),
  decidedBy: approvalPerson.nullable(),
  decidedAt: z.string().nullable(),
  decisionReason: z.string().nullable(),
  /** Why the request became void (something it touches changed, or the action was refused when run). */
  voidReason: z.string().nullable(),
  executedAt: z.string().nullable(),
  /** Whether the caller may decide it (an administrator who is not the requester, while it waits). */
  canDecide: z.boolean(),
});
export type ApprovalRequestView = z.infer<typeof approvalRequestSchema>;

const requestIdSchema = z.uuid({
  error: (iss) => (iss.input === undefined || iss.input === '' ? APPROVAL_MSG.requestIdRequired : APPROVAL_MSG.invalidRequestId),
});

/** GET /_api/approvals/list?status=pending|approved|rejected|expired|void */
export const approvalsListQuery = z.strictObject({
  status: z.enum(APPROVAL_STATUSES, { error: APPROVAL_MSG.invalidStatus }).default('pending'),
  page: z.coerce.number().int().positive().default(1),
  pageSize: z.coerce.number().int().positive().max(APPROVAL_LIMITS.pageSizeMax).default(25),
});
export type ApprovalsListQuery = z.infer<typeof approvalsListQuery>;
export const approvalsListResponse = z.object({
  requests: z.array(approvalRequestSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** Pending requests the caller may decide (the badge in the navigation). */
  waitingForYou: z.number().int(),
});
export type ApprovalsListResponse = z.infer<typeof approvalsListResponse>;

/** GET /_api/approvals/detail?requestId= */
export const approvalDetailQuery = z.strictObject({ requestId: requestIdSchema });
export type ApprovalDetailQuery = z.infer<typeof approvalDetailQuery>;
export const approvalDetailResponse = z.object({ request: approvalRequestSchema });
export type ApprovalDetailResponse = z.infer<typeof approvalDetailResponse>;

/** POST /_api/approvals/decide: approving takes a fresh code of the approver's second factor. */
export const approvalDecideRequest = z
  .strictObject({
    requestId: requestIdSchema,
    decision: z.enum(['approve', 'reject'], { error: APPROVAL_MSG.invalidDecision }),
    reason: text().trim().max(APPROVAL_LIMITS.reasonMax, { error: APPROVAL_MSG.reasonTooLong }).optional(),
    mfaToken: optionalMfaToken,
  })
  .refine((b) => b.decision !== 'reject' || (b.reason ?? '') !== '', { error: APPROVAL_MSG.rejectReasonRequired, path: ['reason'] });
export type ApprovalDecideRequest = z.infer<typeof approvalDecideRequest>;
export const approvalDecideResponse = z.object({ success: z.literal(true), message: z.string(), request: approvalRequestSchema });
export type ApprovalDecideResponse = z.infer<typeof approvalDecideResponse>;

/** GET /_api/settings/approvals */
export const approvalSettingsResponse = z.object({
  actions: z.array(z.enum(APPROVAL_ACTIONS)),
  expiryHours: z.number().int(),
  folderFileThreshold: z.number().int(),
  dispositionLeadDays: z.number().int(),
  /** Active administrators: rules can be turned on only when there are at least two. */
  activeAdministrators: z.number().int(),
});
export type ApprovalSettingsResponse = z.infer<typeof approvalSettingsResponse>;

/** POST /_api/settings/approvals: the actions listed need a second approver; the others do not. */
export const updateApprovalSettingsRequest = z.strictObject({
  actions: z
    .array(z.enum(APPROVAL_ACTIONS, { error: APPROVAL_MSG.invalidAction }), { error: APPROVAL_MSG.invalidAction })
    .refine((a) => new Set(a).size === a.length, { error: APPROVAL_MSG.duplicateAction }),
  expiryHours: z
    .number({ error: APPROVAL_MSG.expiryRange })
    .int({ error: APPROVAL_MSG.expiryRange })
    .min(APPROVAL_LIMITS.expiryHoursMin, { error: APPROVAL_MSG.expiryRange })
    .max(APPROVAL_LIMITS.expiryHoursMax, { error: APPROVAL_MSG.expiryRange })
    .optional(),
  folderFileThreshold: z
    .number({ error: APPROVAL_MSG.folderFilesRange })
    .int({ error: APPROVAL_MSG.folderFilesRange })
    .min(APPROVAL_LIMITS.folderFilesMin, { error: APPROVAL_MSG.folderFilesRange })
    .max(APPROVAL_LIMITS.folderFilesMax, { error: APPROVAL_MSG.folderFilesRange })
    .optional(),
  dispositionLeadDays: z
    .number({ error: APPROVAL_MSG.dispositionLeadRange })
    .int({ error: APPROVAL_MSG.dispositionLeadRange })
    .min(APPROVAL_LIMITS.dispositionLeadDaysMin, { error: APPROVAL_MSG.dispositionLeadRange })
    .max(APPROVAL_LIMITS.dispositionLeadDaysMax, { error: APPROVAL_MSG.dispositionLeadRange })
    .optional(),
  reason: text().trim().max(APPROVAL_LIMITS.reasonMax, { error: APPROVAL_MSG.reasonTooLong }).optional(),
  mfaToken: optionalMfaToken,
});
export type UpdateApprovalSettingsRequest = z.infer<typeof updateApprovalSettingsRequest>;
export const updateApprovalSettingsResponse = z.object({
  success: z.literal(true),
  message: z.string(),
  settings: approvalSettingsResponse,
});
export type UpdateApprovalSettingsResponse = z.infer<typeof updateApprovalSettingsResponse>;

/** The header a client may send with a governed call to give the approvers its reason, when the call has none. */
export const APPROVAL_REASON_HEADER = 'x-approval-reason';
