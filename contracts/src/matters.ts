import { z } from 'zod';
import { nodeTreeSchema } from './nodes.js';
import { text } from './common.js';

/** Matters: texts, limits and the shapes of the /_api/matters calls. */
export const MATTER_MSG = {
  // Create (server payload and dialog)
  matterNameRequired: 'Matter name is required.',
  clientNameRequired: 'Client name is required.',
  descriptionTooLong: 'Description cannot exceed 2000 characters.',
  matterNumberFormat: 'Matter number must be in the format MAT-YYYY-NNN.',
  responsibleAttorneyRequired: 'Responsible attorney is required.',
  matterNameTooLong: 'Matter name cannot exceed 255 characters.',
  clientNameTooLong: 'Client name cannot exceed 255 characters.',
  lawyerNameTooLong: 'Responsible lawyer cannot exceed 255 characters.',
  // Update
  matterNameEmpty: 'Matter name cannot be empty.',
  matterNumberNotRemovable: 'The matter number cannot be removed: it identifies the matter.',
  // The Edit Matter dialog's own texts
  editMatterNameRequired: 'Matter name is required',
  editDescriptionTooLong: 'Description must not exceed 2000 characters',
  expectedVersionRequired: 'expectedVersion is required.',
  // Ids
  invalidMatterId: 'Invalid Matter ID format.',
  matterIdRequired: 'Matter ID is required for matter detail operations',
  invalidFilesIn: "filesIn must be 'root', 'none' or a folder's ID.",
  // Answers
  matterNotFound: 'Matter not found.',
  matterNumberExists: 'A matter with this number already exists.',
  versionMismatch: 'Version mismatch: the matter was modified by another user.',
  concurrentCreation: 'Concurrent matter creation detected. Please try again.',
  legalHold: 'Actions are disabled due to legal hold',
  vaulted: 'Actions are disabled for vaulted matters',
  vaultedHidden: 'You do not have permission to view vaulted matters.',
  created: 'Matter created successfully!',
  updated: (name: string) => `${name} was updated.`,
  // List query
  invalidDate: 'Dates must be given as YYYY-MM-DD or an ISO date-time.',
  pageSizeMax: 'Page size cannot exceed 100.',
  pagePositive: 'Page must be a positive integer.',
  invalidSortBy: 'sortBy must be one of matter_name, client_name, created_at, is_vaulted.',
  invalidSortDirection: 'sortDirection must be asc or desc.',
  invalidStatus: 'Status must be Open or Vaulted.',
  invalidExactFlag: 'clientNameExact and responsibleLawyerExact must be true or false.',
  suggestionLimitMax: 'Limit cannot exceed 50.',
  suggestionQueryTooShort: 'Search query must be at least 2 characters.',
  // Fallbacks the client shows when a call fails without a message
  fetchListFailed: 'Failed to fetch matters list',
  createFailed: 'Failed to create matter',
  numberGenerationFailed: 'Could not generate a new matter number.',
  updateFailed: 'Failed to update matter',
  fetchDetailFailed: 'Failed to fetch matter details',
  fetchClientsFailed: 'Failed to fetch client suggestions',
  fetchLawyersFailed: 'Failed to fetch lawyer suggestions',
  noMatters: 'No matters found matching your criteria.',
} as const;

export const MATTER_LIMITS = {
  nameMax: 255,
  descriptionMax: 2000,
  descriptionPreview: 100,
  pageSizeDefault: 20,
  pageSizeMax: 100,
  suggestionLimitDefault: 10,
  suggestionLimitMax: 50,
  suggestionMinQuery: 2,
  /** A client or lawyer with at least this many matters is marked Frequent. */
  frequentMatterCount: 3,
} as const;

/**
 * MAT-YYYY-NNN. The server generates MAT-<year>-001, -002, ... and keeps counting past 999 (MAT-2026-1000),
 * so three or more digits are accepted.
 */
export const MATTER_NUMBER_PATTERN = /^MAT-\d{4}-\d{3,6}$/;
export const MATTER_STATUSES = ['Open', 'Vaulted'] as const;
export type MatterStatus = (typeof MATTER_STATUSES)[number];
export const MATTER_SORT_FIELDS = ['matter_name', 'client_name', 'created_at', 'is_vaulted'] as const;
export type MatterSortField = (typeof MATTER_SORT_FIELDS)[number];

export const matterIdSchema = z.uuid({
  error: (iss) => (iss.input === undefined || iss.input === '' ? MATTER_MSG.matterIdRequired : MATTER_MSG.invalidMatterId),
});

/** A matter as the API answers it. Dates are ISO strings. */
export const matterSchema = z.object({
  id: z.string(),
  organizationId: z.string(),
  matterName: z.string(),
  matterNumber: z.string().nullable(),
  clientName: z.string().nullable(),
  description: z.string().nullable(),
  responsibleLawyer: z.string().nullable(),
  status: z.enum(MATTER_STATUSES),
  isVaulted: z.boolean(),
  legalHold: z.boolean(),
  holdReason: z.string().nullable(),
  /** null: permanent retention (or not vaulted). */
  retentionExpiresAt: z.string().nullable(),
  vaultedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Starts at 1 and grows by one with every change; send it back as expectedVersion. */
  version: z.number().int(),
});
export type MatterDto = z.infer<typeof matterSchema>;

const matterNumber = text({ error: MATTER_MSG.matterNumberFormat })
  .trim()
  .regex(MATTER_NUMBER_PATTERN, { error: MATTER_MSG.matterNumberFormat });
const description = text().max(MATTER_LIMITS.descriptionMax, { error: MATTER_MSG.descriptionTooLong });
const lawyer = (required: string) =>
  text({ error: required })
    .trim()
    .normalize('NFC')
    .min(1, { error: required })
    .max(MATTER_LIMITS.nameMax, { error: MATTER_MSG.lawyerNameTooLong });

/**
 * POST /_api/matters/create. matterNumber may be left out: the server then takes the next MAT-<year>-NNN.
 * responsibleAttorney is required as in the dialog (the server enforces the client's rules).
 */
export const createMatterRequest = z.strictObject({
  matterName: text({ error: MATTER_MSG.matterNameRequired })
    .trim()
    .normalize('NFC')
    .min(1, { error: MATTER_MSG.matterNameRequired })
    .max(MATTER_LIMITS.nameMax, { error: MATTER_MSG.matterNameTooLong }),
  matterNumber: z.preprocess((v) => (v === '' || v === null ? undefined : v), matterNumber.optional()),
  clientName: text({ error: MATTER_MSG.clientNameRequired })
    .trim()
    .normalize('NFC')
    .min(1, { error: MATTER_MSG.clientNameRequired })
    .max(MATTER_LIMITS.nameMax, { error: MATTER_MSG.clientNameTooLong }),
  description: description.optional().nullable(),
  responsibleAttorney: lawyer(MATTER_MSG.responsibleAttorneyRequired),
});
export type CreateMatterRequest = z.infer<typeof createMatterRequest>;

/** Update: null or a blank text removes an optional party (client, lawyer) from the matter. */
const clearableParty = (tooLong: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? null : v),
    text().trim().normalize('NFC').max(MATTER_LIMITS.nameMax, { error: tooLong }).nullable().optional(),
  );

/** Update: a matter number can be changed but never removed, because it identifies the matter. */
const updateMatterNumber = text({
  error: (iss) => (iss.input === null ? MATTER_MSG.matterNumberNotRemovable : MATTER_MSG.matterNumberFormat),
})
  .trim()
  .min(1, { error: MATTER_MSG.matterNumberNotRemovable, abort: true })
  .regex(MATTER_NUMBER_PATTERN, { error: MATTER_MSG.matterNumberFormat });

/**
 * POST /_api/matters/update. Absent fields stay as they are; an empty description clears it, and so does null
 * or an empty clientName / responsibleLawyer. The number cannot be cleared (matterNumberNotRemovable).
 * expectedVersion is the version the client last read; a stale one answers 409 CONFLICT_ERROR.
 */
export const updateMatterRequest = z.strictObject({
  matterId: z.uuid({ error: MATTER_MSG.invalidMatterId }),
  matterName: text({ error: MATTER_MSG.matterNameEmpty })
    .trim()
    .normalize('NFC')
    .min(1, { error: MATTER_MSG.matterNameEmpty })
    .max(MATTER_LIMITS.nameMax, { error: MATTER_MSG.matterNameTooLong })
    .optional(),
  matterNumber: updateMatterNumber.optional(),
  clientName: clearableParty(MATTER_MSG.clientNameTooLong),
  description: description.optional(),
  responsibleLawyer: clearableParty(MATTER_MSG.lawyerNameTooLong),
  expectedVersion: z
    .number({ error: MATTER_MSG.expectedVersionRequired })
    .int({ error: MATTER_MSG.expectedVersionRequired })
    .positive({ error: MATTER_MSG.expectedVersionRequired }),
});
export type UpdateMatterRequest = z.infer<typeof updateMatterRequest>;

export const matterResponse = z.object({ matter: matterSchema });

/** GET /_api/matters/next-number: the number a new matter would get now (the Create dialog's editable default). */
export const nextMatterNumberResponse = z.object({ matterNumber: z.string() });
export type NextMatterNumberResponse = z.infer<typeof nextMatterNumberResponse>;
export type MatterResponse = z.infer<typeof matterResponse>;

/** The details of a 409 answered to a stale expectedVersion. */
export const matterConflictDetails = z.object({
  currentVersion: z.number().int(),
  updatedAt: z.string(),
  /** Display name of whoever made the last change (null if unknown). */
  updatedBy: z.string().nullable(),
});
export type MatterConflictDetails = z.infer<typeof matterConflictDetails>;

/** Query strings arrive as text; an empty value counts as absent. */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const optionalText = z.preprocess(blankToUndefined, text().trim().normalize('NFC').max(MATTER_LIMITS.nameMax).optional());
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const dateParam = z.preprocess(
  blankToUndefined,
  text()
    .refine((s) => (DATE_ONLY.test(s) || /^\d{4}-\d{2}-\d{2}T/.test(s)) && !Number.isNaN(Date.parse(s)), { error: MATTER_MSG.invalidDate })
    .optional(),
);

/** A query-string switch: 'true' or 'false', absent (or empty) meaning false. */
const exactFlag = z.preprocess(
  blankToUndefined,
  z
    .enum(['true', 'false'], { error: MATTER_MSG.invalidExactFlag })
    .transform((v) => v === 'true')
    .default(false),
);

/**
 * GET /_api/matters/list. dateFrom/dateTo filter on createdAt; a date without a time covers that whole UTC day
 * (dateTo=2026-11-26 includes matters created on the 26th). clientName and responsibleLawyer find typed text
 * anywhere in the name, ignoring case, with `%`, `_` and `\` taken literally; with clientNameExact=true /
 * responsibleLawyerExact=true (a picked suggestion) they match the whole name, ignoring case. search finds a
 * substring of name, number, client or description.
 */
export const matterListQuery = z.object({
  search: z.preprocess(blankToUndefined, text().trim().normalize('NFC').max(200).optional()),
  status: z.preprocess(
    (v) => (typeof v === 'string' && (v.trim() === '' || v.toLowerCase() === 'all') ? undefined : v),
    z.enum(MATTER_STATUSES, { error: MATTER_MSG.invalidStatus }).optional(),
  ),
  clientName: optionalText,
  clientNameExact: exactFlag,
  responsibleLawyer: optionalText,
  responsibleLawyerExact: exactFlag,
  dateFrom: dateParam,
  dateTo: dateParam,
  sortBy: z.preprocess(blankToUndefined, z.enum(MATTER_SORT_FIELDS, { error: MATTER_MSG.invalidSortBy }).default('created_at')),
  sortDirection: z.preprocess(blankToUndefined, z.enum(['asc', 'desc'], { error: MATTER_MSG.invalidSortDirection }).default('desc')),
  page: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: MATTER_MSG.pagePositive })
      .int({ error: MATTER_MSG.pagePositive })
      .min(1, { error: MATTER_MSG.pagePositive })
      .default(1),
  ),
  pageSize: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: MATTER_MSG.pageSizeMax })
      .int({ error: MATTER_MSG.pageSizeMax })
      .min(1, { error: MATTER_MSG.pageSizeMax })
      .max(MATTER_LIMITS.pageSizeMax, { error: MATTER_MSG.pageSizeMax })
      .default(MATTER_LIMITS.pageSizeDefault),
  ),
});
export type MatterListQuery = z.infer<typeof matterListQuery>;
export const matterListResponse = z.object({
  matters: z.array(matterSchema),
  /** Exact when totalCountCapped is false; otherwise LIMITS.listCountBound, a lower bound (more matters match). */
  totalCount: z.number().int(),
  totalCountCapped: z.boolean(),
});
export type MatterListResponse = z.infer<typeof matterListResponse>;

/**
 * Which files the matter's tree carries: every file when absent; with filesIn, every folder but only the files
 * directly in the named folder ('root' for the matter's root, 'none' for no file at all). A folder's page asks
 * for its own files, so a matter of thousands of files opens as fast as a small one.
 */
export const FILES_IN_ROOT = 'root';
export const FILES_IN_NONE = 'none';
export const matterDetailQuery = z.object({
  matterId: matterIdSchema,
  filesIn: z
    .union(
      [
        z.literal(FILES_IN_ROOT, { error: MATTER_MSG.invalidFilesIn }),
        z.literal(FILES_IN_NONE, { error: MATTER_MSG.invalidFilesIn }),
        z.uuid({ error: MATTER_MSG.invalidFilesIn }),
      ],
      { error: MATTER_MSG.invalidFilesIn },
    )
    .optional(),
});
export type MatterDetailQuery = z.infer<typeof matterDetailQuery>;
export const matterDetailResponse = z.object({
  matter: matterSchema,
  nodes: z.array(nodeTreeSchema),
  /** For a guest only: the access of their grant on this matter ('download' or 'view'), which decides their downloads. */
  guestAccess: z.enum(['download', 'view']).optional(),
});
export type MatterDetailResponse = z.infer<typeof matterDetailResponse>;

/**
 * GET /_api/matters/clients/suggestions and /lawyers/suggestions. The query is absent (or blank: every name) or
 * at least MATTER_LIMITS.suggestionMinQuery characters after trimming, counted exactly as the web app counts
 * before it asks (string length, before NFC), so the server never refuses a query the app sends; a single
 * character matches too much to be useful, so it is refused rather than answered.
 */
export const suggestionQuery = z.object({
  query: z.preprocess(
    blankToUndefined,
    text()
      .trim()
      // String length in UTF-16 units, as the web app's check (zod's min() counts code points instead).
      .refine((q) => q.length >= MATTER_LIMITS.suggestionMinQuery, { error: MATTER_MSG.suggestionQueryTooShort, abort: true })
      .normalize('NFC')
      .max(MATTER_LIMITS.nameMax)
      .optional(),
  ),
  limit: z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: MATTER_MSG.suggestionLimitMax })
      .int({ error: MATTER_MSG.suggestionLimitMax })
      .min(1, { error: MATTER_MSG.suggestionLimitMax })
      .max(MATTER_LIMITS.suggestionLimitMax, { error: MATTER_MSG.suggestionLimitMax })
      .default(MATTER_LIMITS.suggestionLimitDefault),
  ),
});
export type SuggestionQuery = z.infer<typeof suggestionQuery>;
export const clientSuggestion = z.object({ clientName: z.string(), matterCount: z.number().int(), isFrequentClient: z.boolean() });
export const lawyerSuggestion = z.object({ lawyerName: z.string(), matterCount: z.number().int(), isFrequentLawyer: z.boolean() });
export const clientSuggestionsResponse = z.array(clientSuggestion);
export const lawyerSuggestionsResponse = z.array(lawyerSuggestion);
export type ClientSuggestionsResponse = z.infer<typeof clientSuggestionsResponse>;
export type LawyerSuggestionsResponse = z.infer<typeof lawyerSuggestionsResponse>;
export type ClientSuggestion = z.infer<typeof clientSuggestion>;
export type LawyerSuggestion = z.infer<typeof lawyerSuggestion>;
