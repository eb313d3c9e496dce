import { z } from 'zod';
import { APPROVAL_LIMITS } from './approvals.js';
import { optionalMfaToken, text } from './common.js';

/**
 * The disposition review: retention end never destroys silently. N days before a vaulted matter's retention ends
 * (the organization's disposition lead time, 30 by default), the matter enters the review queue; an administrator
 * then approves its destruction, extends its retention, or places it under legal hold. Only an approved matter is
 * destroyed, on the day its retention ends or after the approval, whichever is later. A matter nobody reviewed is
 * kept and listed as overdue, and administrators are reminded once a day.
 */

/** The states of a review as listed: due (in the queue, retention not yet over), overdue (over, not decided). */
export const DISPOSITION_STATUSES = ['due', 'overdue', 'approved', 'extended', 'held', 'destroyed'] as const;
export type DispositionStatus = (typeof DISPOSITION_STATUSES)[number];

export const DISPOSITION_STATUS_LABELS: Record<DispositionStatus, string> = {
  due: 'Due for review',
  overdue: 'Overdue',
  approved: 'Approved for destruction',
  extended: 'Retention extended',
  held: 'Under legal hold',
  destroyed: 'Destroyed',
};

export const DISPOSITION_DECISIONS = ['destroy', 'extend', 'hold'] as const;
export type DispositionDecision = (typeof DISPOSITION_DECISIONS)[number];

export const DISPOSITION_LIMITS = { extendYearsMax: 100, reasonMin: 3, reasonMax: APPROVAL_LIMITS.reasonMax, pageSizeMax: 100 } as const;

export const DISPOSITION_MSG = {
  invalidStatus: `status must be one of ${DISPOSITION_STATUSES.join(', ')}.`,
  invalidMatterId: 'Invalid matter ID format.',
  matterIdRequired: 'matterId is required.',
  invalidDecision: "decision must be 'destroy', 'extend' or 'hold'.",
  reasonRequired: 'Give a reason for the decision.',
  reasonTooShort: `The reason must be at least ${DISPOSITION_LIMITS.reasonMin} characters.`,
  reasonTooLong: `The reason cannot exceed ${DISPOSITION_LIMITS.reasonMax} characters.`,
  invalidRetainUntil: 'retainUntil must be a date (YYYY-MM-DD) or a whole number of years from the current end (1 to 100).',
  retainUntilRequired: 'Extending needs a new retention end: a date (YYYY-MM-DD) or a number of years.',
  retainUntilNotLater: 'The new retention end must be later than the current one.',
  retainUntilOnlyForExtend: 'retainUntil is only given when extending the retention.',
  matterNotFound: 'Matter not found.',
  notInQueue: 'This matter is not waiting for a disposition decision: it is not in the review queue.',
  alreadyDecided: (status: string) => `This matter's disposition has already been decided (${status.toLowerCase()}).`,
  alreadyHeld: 'This matter is already under legal hold.',
  viewDenied: 'Only administrators and people who may view vaulted matters can see the disposition review.',
  decideDenied: 'Only administrators can decide a disposition.',
  approved: 'Destruction approved. The vaulted files will be destroyed when the retention ends, with a certificate of destruction.',
  approvedNow: 'Destruction approved. The retention has ended: the vaulted files will be destroyed in the next retention run.',
  extended: (date: string) => `Retention extended to ${date}.`,
  held: 'The matter is under legal hold: nothing of it will be destroyed while the hold is on.',
  cannotBeUndone: 'Destroying the vaulted files cannot be undone.',
} as const;

/** One matter in the review. */
export const dispositionItemSchema = z.object({
  reviewId: z.string(),
  matterId: z.string(),
  matterName: z.string(),
  matterNumber: z.string().nullable(),
  clientName: z.string().nullable(),
  /** The retention end this review is about. */
  retentionExpiresAt: z.string(),
  /** Whole days until the end (negative: days overdue). */
  daysLeft: z.number().int(),
  status: z.enum(DISPOSITION_STATUSES),
  statusLabel: z.string(),
  queuedAt: z.string(),
  files: z.number().int(),
  versions: z.number().int(),
  bytes: z.number(),
  legalHold: z.boolean(),
  decidedBy: z.object({ userId: z.number().int(), name: z.string(), email: z.string() }).nullable(),
  decidedAt: z.string().nullable(),
  decisionReason: z.string().nullable(),
  approvedBy: z.array(z.object({ userId: z.number().int(), name: z.string(), email: z.string() })),
  approvalRequestId: z.string().nullable(),
  /** Whether the caller may decide it now (an administrator, the review waiting or approved). */
  canDecide: z.boolean(),
});
export type DispositionItem = z.infer<typeof dispositionItemSchema>;

/** GET /_api/disposition/list?status=due|overdue|approved|extended|held|destroyed */
export const dispositionListQuery = z.strictObject({
  status: z.enum(DISPOSITION_STATUSES, { error: DISPOSITION_MSG.invalidStatus }).optional(),
  page: z.coerce.number().int().positive().default(1),
  pageSize: z.coerce.number().int().positive().max(DISPOSITION_LIMITS.pageSizeMax).default(50),
});
export type DispositionListQuery = z.infer<typeof dispositionListQuery>;
export const dispositionListResponse = z.object({
  items: z.array(dispositionItemSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  /** How many of each state the organization has now (the tabs' counts). */
  counts: z.object({
    due: z.number().int(),
    overdue: z.number().int(),
    approved: z.number().int(),
    extended: z.number().int(),
    held: z.number().int(),
    destroyed: z.number().int(),
  }),
  leadDays: z.number().int(),
  canDecide: z.boolean(),
});
export type DispositionListResponse = z.infer<typeof dispositionListResponse>;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
/** A real day of the calendar (not 2027-02-30). */
const isCalendarDate = (s: string) => {
  const d = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
};
/** A date (YYYY-MM-DD, the end of that day UTC is not implied: midnight UTC) or a whole number of years. */
const retainUntilSchema = z.union([z.string().regex(DATE_ONLY), z.number().int().min(1).max(DISPOSITION_LIMITS.extendYearsMax)], {
  error: DISPOSITION_MSG.invalidRetainUntil,
});

/** POST /_api/disposition/decide */
export const dispositionDecideRequest = z
  .strictObject({
    matterId: z.uuid({
      error: (iss) => (iss.input === undefined || iss.input === '' ? DISPOSITION_MSG.matterIdRequired : DISPOSITION_MSG.invalidMatterId),
    }),
    decision: z.enum(DISPOSITION_DECISIONS, { error: DISPOSITION_MSG.invalidDecision }),
    retainUntil: retainUntilSchema.optional(),
    reason: text({ error: DISPOSITION_MSG.reasonRequired })
      .trim()
      .min(DISPOSITION_LIMITS.reasonMin, { error: DISPOSITION_MSG.reasonTooShort })
      .max(DISPOSITION_LIMITS.reasonMax, { error: DISPOSITION_MSG.reasonTooLong }),
    mfaToken: optionalMfaToken,
  })
  .superRefine((b, ctx) => {
    if (b.decision === 'extend' && b.retainUntil === undefined)
      ctx.addIssue({ code: 'custom', message: DISPOSITION_MSG.retainUntilRequired, path: ['retainUntil'] });
    if (b.decision !== 'extend' && b.retainUntil !== undefined)
      ctx.addIssue({ code: 'custom', message: DISPOSITION_MSG.retainUntilOnlyForExtend, path: ['retainUntil'] });
    if (typeof b.retainUntil === 'string' && !isCalendarDate(b.retainUntil))
      ctx.addIssue({ code: 'custom', message: DISPOSITION_MSG.invalidRetainUntil, path: ['retainUntil'] });
  });
export type DispositionDecideRequest = z.infer<typeof dispositionDecideRequest>;
export const dispositionDecideResponse = z.object({ success: z.literal(true), message: z.string(), item: dispositionItemSchema });
export type DispositionDecideResponse = z.infer<typeof dispositionDecideResponse>;

/** What a certificate of destruction states of the review that allowed it. */
export const certificateDispositionSchema = z.object({
  reviewId: z.string(),
  /** The approval request when a second administrator approved it; null when one administrator's decision sufficed. */
  requestId: z.string().nullable(),
  approvedBy: z.array(z.object({ userId: z.number().int(), name: z.string(), email: z.string() })),
  approvedAt: z.string(),
});
export type CertificateDisposition = z.infer<typeof certificateDispositionSchema>;
