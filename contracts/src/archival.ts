import { z } from 'zod';
import { text } from './common.js';

/**
 * Archival of old audit logs to write-once storage, and retrieval of an archived entry's details.
 *
 * - Entries older than ARCHIVAL_LIMITS.archiveAfterDays are archivable. An archival moves them into the object
 *   store as compressed batches under a write-once lock; the entries stay in the list (with their chain fields
 *   and `archived: true`) while their details leave the database.
 * - Retrieval reads an entry's batch back (from cold storage this takes minutes), checks it, and keeps the
 *   entry's details for ARCHIVAL_LIMITS.cacheHours.
 */
export const ARCHIVAL_MSG = {
  // Archival panel (administrators)
  panelTitle: 'Log Archival',
  totalLogs: 'Total Logs',
  archivableLogs: 'Archivable Logs',
  lastArchival: 'Last Archival',
  never: 'Never',
  retentionStatus: 'Retention Status',
  overdue: 'Archival Overdue',
  compliant: 'Compliant',
  archiveButton: 'Archive Old Logs',
  showStats: 'Show statistics',
  showingStats: 'Verifying...',
  statsLockedNote: 'The statistics are shown after a verification code.',
  // Archival dialog
  dialogTitle: 'Archive Audit Logs',
  dialogDescription:
    'Logs older than 180 days are moved to write-once cold storage. Archived logs stay listed; retrieving their details from cold storage takes 1-5 minutes.',
  dryRunLabel: 'Dry run (count only, nothing is moved)',
  dryRunWarning:
    'This is not a dry run: logs older than 180 days will be moved to cold storage. Their details leave the database until retrieved.',
  runDryRun: 'Run Dry Run',
  archive: 'Archive',
  archiving: 'Archiving...',
  cancel: 'Cancel',
  confirmTitle: 'Confirm archival',
  confirmDescription: 'Archive all logs older than 180 days to cold storage now? This cannot be undone.',
  confirmButton: 'Confirm archival',
  // Archival toasts and errors
  dryRunDone: (n: number) => `Dry run completed: ${n} logs would be archived`,
  // The dry run's result, shown in the dialog
  dryRunResultTitle: 'Dry run result',
  wouldArchive: (n: number) => `${n.toLocaleString('en-GB')} ${n === 1 ? 'entry' : 'entries'} would be archived`,
  wouldArchiveRange: (oldest: string, newest: string) => `Written between ${oldest} and ${newest}.`,
  wouldArchiveNone: (before: string) => `No entry written before ${before} is left to archive.`,
  wouldArchiveBefore: (before: string) => `Entries written before ${before} are archived.`,
  archivalDone: (n: number) => `Archival completed: ${n} logs archived to S3`,
  archivalQueued: 'Archival queued...',
  archivalProgressLabel: 'Archival progress',
  archivalProgress: (done: number, total: number) =>
    `${done.toLocaleString('en-GB')} of ${total.toLocaleString('en-GB')} ${total === 1 ? 'entry' : 'entries'} archived`,
  archivalRunFailed: 'The archival stopped before it finished; it was not retried further.',
  archivalFailed: (message: string) => `Archival failed: ${message || 'Unknown error'}`,
  statsFailed: 'Failed to fetch archival statistics',
  httpError: (status: number) => `HTTP error! status: ${status}`,
  unknownError: 'Unknown error',
  adminsOnly: 'Only administrators can archive audit logs.',
  archivalBusy: 'Another archival of this organization is running. Try again when it has finished.',
  // Archived log dialog
  archivedDialogTitle: 'Archived Log Details',
  logId: (id: string) => `Log ID: ${id}`,
  retrieveTitle: 'Retrieve archived Log',
  retrieveDescription: 'The details of this log are in cold storage. Retrieval takes 1-5 minutes.',
  startRetrieval: 'Start Retrieval',
  starting: 'Starting...',
  retrievingTitle: 'Retrieving archived Log',
  statusLabel: 'Status',
  inProgress: 'In Progress',
  estimatedCompletion: 'Estimated completion',
  elapsed: 'Elapsed',
  continueInBackground: 'Continue in Background',
  retrievalFailedTitle: 'Retrieval Failed',
  close: 'Close',
  tryAgain: 'Try Again',
  retrievingButton: 'Retrieving...',
  cachedNotice: 'This log has been archived. Details shown below are from cache.',
  // Retrieval toasts and errors
  retrievalInProgress: 'Retrieval from cold storage has started. This takes 1-5 minutes.',
  retrievalStillInProgress: 'Retrieval from cold storage is in progress.',
  alreadyAvailable: 'Archived log details were already available.',
  singleCompleted: 'Archived log details retrieved and cached successfully.',
  allCompleted: (n: number) => `${n} archived log(s) retrieval(s) completed and cached.`,
  someCompleted: (n: number) => `${n} log retrieval(s) completed.`,
  startFailed: (message: string) => `Failed to start retrieval: ${message}`,
  checkFailed: (message: string) => `Failed to check retrieval status: ${message}`,
  retrieveFailed: 'Failed to retrieve archived log details',
  retrieveFailedWith: (message: string) => `Failed to retrieve archived log details: ${message}`,
  checkFailedPlain: 'Failed to check retrieval status',
  /** A failed retrieval's message: the batch read back does not match what was archived. */
  batchAltered: 'The archive batch does not match its recorded checksum or chain hashes; it was not used.',
  batchMissing: 'The archive batch could not be read from storage.',
  // Validation
  logIdRequired: 'Log ID is required.',
  invalidLogId: 'Log ID must be a positive integer.',
  organizationIdRequired: 'Organization ID is required.',
  invalidOrganizationId: 'Organization ID must be a UUID.',
  logIdsTooMany: 'At most 100 log IDs may be checked at once.',
  dryRunBoolean: 'dryRun must be true or false.',
  logNotFound: 'Audit log not found.',
  notArchived: 'This log is not archived; its details are in the list.',
} as const;

export const ARCHIVAL_LIMITS = {
  /** Entries older than this many days are archivable. */
  archiveAfterDays: 180,
  /** Retrieved details are kept this long (and never go stale: archived details cannot change). */
  cacheHours: 24,
  /** The page polls pending retrievals this often (and once right away). */
  pollMs: 60_000,
  /** The archived log dialog's elapsed timer ticks this often. */
  timerTickMs: 1000,
  /** What the dialogs say a retrieval takes: 1 to 5 minutes. */
  retrievalMinMinutes: 1,
  retrievalMaxMinutes: 5,
  /** The dashboard's storage estimate: this many bytes per audit log. */
  bytesPerLogEstimate: 1024,
  /** Stats refetch every 30 minutes, stale after 10. */
  statsRefetchMs: 30 * 60 * 1000,
  statsStaleMs: 10 * 60 * 1000,
  /** The panel reads a queued or running archival's progress this often. */
  runPollMs: 1000,
  /** check-retrievals takes at most this many log ids. */
  checkLogIdsMax: 100,
} as const;

/** The panel's retention status: overdue while any entry is archivable. */
export const ARCHIVAL_STATUSES = ['Archival Overdue', 'Compliant'] as const;
export type ArchivalStatus = (typeof ARCHIVAL_STATUSES)[number];

/** GET /_api/system/archival-stats (administrators; system MFA VIEW_ARCHIVAL_STATS in the x-mfa-token header). */
export const archivalStatsResponse = z.object({
  totalAuditLogs: z.number().int(),
  archivableLogsCount: z.number().int(),
  /** ISO date-time of the last archival that moved entries; null: never ("Never"). */
  lastArchivalDate: z.string().nullable(),
  retentionStatus: z.enum(ARCHIVAL_STATUSES),
  /** Entries archived so far. */
  archivedLogsCount: z.number().int(),
});
export type ArchivalStatsResponse = z.infer<typeof archivalStatsResponse>;

/**
 * POST /_api/system/archive-audit-logs (administrators; the code or token in the x-mfa-token header or mfaToken).
 * A real run needs system MFA of operation MFA_SYSTEM_OPERATIONS (a token bought to view the stats does not
 * serve). A dry run changes nothing and only counts what the stats already show, so it asks for VIEW_ARCHIVAL_STATS:
 * the token the stats took serves it. dryRun defaults to true, so a body without it only counts.
 */
export const archiveAuditLogsRequest = z.strictObject({
  dryRun: z.boolean({ error: ARCHIVAL_MSG.dryRunBoolean }).default(true),
  mfaToken: text().max(200).optional(),
});
export type ArchiveAuditLogsRequest = z.input<typeof archiveAuditLogsRequest>;
export const ARCHIVAL_RUN_STATES = ['queued', 'running', 'completed', 'failed'] as const;
export type ArchivalRunState = (typeof ARCHIVAL_RUN_STATES)[number];
export const archiveAuditLogsResponse = z.object({
  archivedCount: z.number().int(),
  dryRun: z.boolean(),
  /** Batches written by this run (0 for a dry run). */
  batches: z.number().int(),
  /**
   * A dry run's range: entries written before `before` (ISO; 180 days ago) are archivable; `oldest` and `newest`
   * are when the first and the last of those that would move were written (null when none would).
   */
  range: z.object({ before: z.string(), oldest: z.string().nullable(), newest: z.string().nullable() }).optional(),
  /**
   * A real archival runs as a background job: the answer comes at once with the run it started (or the run
   * already under way), whose progress GET /_api/system/archival-runs/latest reports. archivedCount and batches
   * are then what the run has done so far (0 when just queued); entriesTotal is how many it will archive.
   */
  runId: z.string().optional(),
  state: z.enum(ARCHIVAL_RUN_STATES).optional(),
  entriesTotal: z.number().int().optional(),
});
export type ArchiveAuditLogsResponse = z.infer<typeof archiveAuditLogsResponse>;

/** One archival run: who asked and when, the cut-off, its state and progress (entries done of total, bytes written). */
export const archivalRun = z.object({
  runId: z.string(),
  state: z.enum(ARCHIVAL_RUN_STATES),
  requestedAt: z.string(),
  /** Entries written before this (ISO) are archived by the run. */
  cutoff: z.string(),
  entriesTotal: z.number().int(),
  entriesDone: z.number().int(),
  batches: z.number().int(),
  /** Compressed bytes written to the archive. */
  bytes: z.number().int(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** A failed run: why. */
  message: z.string().nullable(),
});
export type ArchivalRun = z.infer<typeof archivalRun>;
/** GET /_api/system/archival-runs/latest: the organization's latest archival run (null: none yet). */
export const latestArchivalRunResponse = z.object({ run: archivalRun.nullable() });
export type LatestArchivalRunResponse = z.infer<typeof latestArchivalRunResponse>;

const logIdField = z
  .union([z.string(), z.number()], { error: ARCHIVAL_MSG.logIdRequired })
  .transform((v) => String(v).trim())
  .pipe(
    text({ error: ARCHIVAL_MSG.logIdRequired })
      .min(1, { error: ARCHIVAL_MSG.logIdRequired })
      .regex(/^[1-9][0-9]{0,18}$/, { error: ARCHIVAL_MSG.invalidLogId }),
  );
const organizationIdField = text({ error: ARCHIVAL_MSG.organizationIdRequired })
  .trim()
  .min(1, { error: ARCHIVAL_MSG.organizationIdRequired })
  .pipe(z.uuid({ error: ARCHIVAL_MSG.invalidOrganizationId }));

/**
 * POST /_api/audit-logs/retrieve-archived. organizationId must be the session's organization; a log id of
 * another organization (or one the caller cannot see in the list) answers 404.
 */
export const retrieveArchivedRequest = z.strictObject({ logId: logIdField, organizationId: organizationIdField });
export type RetrieveArchivedRequest = z.input<typeof retrieveArchivedRequest>;

export const RETRIEVAL_STATUSES = ['cached', 'in-progress', 'failed'] as const;
export type RetrievalStatus = (typeof RETRIEVAL_STATUSES)[number];
export const retrieveArchivedResponse = z.object({
  status: z.enum(RETRIEVAL_STATUSES),
  /** The entry's details when cached. */
  details: z.record(z.string(), z.unknown()).optional(),
  /** ISO date-time the retrieval is expected to finish (in progress). */
  estimatedCompletionTime: z.string().optional(),
  /** ISO date-time the retrieval started (in progress), for the elapsed timer. */
  startedAt: z.string().optional(),
  /** In progress: what is happening; failed: why. */
  message: z.string().optional(),
  /** Until when cached details are kept (ISO date-time). */
  cachedUntil: z.string().optional(),
});
export type RetrieveArchivedResponse = z.infer<typeof retrieveArchivedResponse>;

/**
 * POST /_api/audit-logs/check-retrievals: of the caller's retrievals (or the given log ids), those whose details
 * are now cached. `completed` counts them, `logIds` lists them; `pending` lists those still in progress and
 * `failed` those that failed.
 */
export const checkRetrievalsRequest = z.strictObject({
  organizationId: organizationIdField,
  logIds: z.array(logIdField).max(ARCHIVAL_LIMITS.checkLogIdsMax, { error: ARCHIVAL_MSG.logIdsTooMany }).optional(),
});
export type CheckRetrievalsRequest = z.input<typeof checkRetrievalsRequest>;
export const checkRetrievalsResponse = z.object({
  completed: z.number().int(),
  logIds: z.array(z.string()),
  pending: z.array(z.string()),
  failed: z.array(z.string()),
  /** Why each failed retrieval failed (the dialog's failed view shows the message). */
  failures: z.array(z.object({ logId: z.string(), message: z.string() })),
});
export type CheckRetrievalsResponse = z.infer<typeof checkRetrievalsResponse>;
