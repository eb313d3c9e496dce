import { z } from 'zod';
import { text } from './common.js';
import { matterIdSchema, matterSchema } from './matters.js';
import { nodeTreeSchema } from './nodes.js';
import { certificateDispositionSchema } from './disposition.js';

/** Legal hold and the vault: texts, limits and the shapes of their calls. */
export const VAULT_MSG = {
  // Legal hold
  reasonRequired: 'A reason is required to apply a legal hold.',
  reasonTooShort: 'Reason must be at least 10 characters long.',
  reasonTooLong: 'Reason cannot exceed 2000 characters.',
  invalidAction: 'Action must be apply or remove.',
  mfaTokenSixDigits: 'MFA token must be 6 digits.',
  holdPermissionDenied: 'You do not have the necessary permissions to manage legal holds. Please contact your administrator.',
  holdPermissionTitle: 'Permission Denied',
  holdApplied: 'Legal hold successfully applied.',
  holdRemoved: 'Legal hold successfully removed.',
  holdAlreadyApplied: 'The matter is already under legal hold.',
  holdNotApplied: 'The matter is not under legal hold.',
  holdFailed: 'Failed to update legal hold status',
  // Vault start
  invalidMatterId: 'Invalid Matter ID format.',
  retentionMin: 'Retention period must be at least 1 year.',
  retentionMax: 'Retention period cannot exceed 100 years.',
  vaultPermissionDenied: 'You do not have permission to vault matters.',
  alreadyVaulted: 'The matter is already vaulted.',
  vaultHeld: 'A matter under legal hold cannot be vaulted.',
  vaultStarted: 'Matter vaulted successfully',
  vaultFailed: 'Failed to start vaulting process.',
  // Vault queries
  viewPermissionDenied: 'You do not have permission to view vaulted matters.',
  notVaulted: 'The matter is not vaulted.',
  fetchListFailed: 'Failed to fetch vaulted matters list',
  fetchDetailFailed: 'Failed to fetch vaulted matter details',
  fetchAuditFailed: 'Failed to fetch vault audit logs',
  organizationRequired: 'Organization context is required for vault operations',
  matterIdRequired: 'Matter ID is required for vault detail operations',
  certificateNotReady: 'The vault certificate is written when the transfer completes.',
  reportFailed: 'Failed to export the vault report.',
  certificateFailed: 'Failed to download the vault certificate.',
  pageSizeMax: 'Page size cannot exceed 100.',
  pagePositive: 'Page must be a positive integer.',
  invalidSortBy: 'sortBy must be one of matterName, clientName, retentionExpiresAt, vaultedAt.',
  invalidSortDirection: 'sortDirection must be asc or desc.',
  invalidLegalHold: 'legalHold must be all, true or false.',
  // Page texts
  loadFailed: 'Failed to load vault data',
  emptyTitle: 'No Vaulted Matters Found',
  emptyBody: 'There are no vaulted matters matching your criteria.',
  detailFailed: 'Failed to load details',
  detailEmpty: 'No data available for this matter.',
  retentionNote:
    'After the retention period, files are deleted only once an administrator approves it in the disposition review, and never under legal hold.',
  // Downloads of vaulted files
  fileDestroyed: 'This file was deleted from the vault when its retention period ended.',
  /** A vaulted file in a storage class that must be restored before it can be read (409, reason RESTORE_PENDING). */
  restoreStarted: (p: { readyBy: string; started: boolean }) =>
    `This file is in deep cold storage and must be restored before it can be downloaded. ${p.started ? 'A restore has been started' : 'A restore is already under way'}; the file should be ready by ${p.readyBy}. Try again then.`,
  // Write-once storage
  /** A vault request refused because the object store does not lock what is put in it (409). */
  unlockedStoreRefused: (detail: string) =>
    `The object store does not enforce write-once storage (${detail.replace(/\.$/, '')}): vaulting is refused. An administrator can allow it for evaluation only with VAULT_ALLOW_UNLOCKED_STORE=true.`,
  /** Under the Write-once storage row of the Retention & Vault tab while the store does not enforce it. */
  unlockedStoreNote:
    'While write-once storage is not enforced, vaulting is refused, unless an administrator allows it for evaluation only with VAULT_ALLOW_UNLOCKED_STORE=true; certificates then state that the files are not write-once protected.',
  /** A certificate's storeProtection.statement. */
  storeProtected: 'These objects are write-once protected: the object store confirmed a COMPLIANCE lock on each when they were vaulted.',
  storeUnprotected: 'These objects are not write-once protected: the object store did not enforce a lock when they were vaulted.',
} as const;

export const VAULT_LIMITS = {
  holdReasonMin: 10,
  holdReasonMax: 2000,
  retentionChoices: [1, 3, 5, 7, 10, 15, 20] as const,
  retentionDefault: 7,
  retentionMax: 100,
  pageSizeDefault: 20,
  pageSizeMax: 100,
  auditPageSizeDefault: 50,
  auditPageSizeMax: 100,
  searchDebounceMs: 500,
  successCloseMs: 2000,
  /** Retention ending within this many days (and not yet ended) raises the dashboard's 90-Day Alert. */
  alertDays: 90,
} as const;

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const sixDigitToken = text({ error: VAULT_MSG.mfaTokenSixDigits }).length(6, { error: VAULT_MSG.mfaTokenSixDigits }).optional();

/**
 * POST /_api/matters/legal-hold. Admins only. apply needs a reason (the dialog asks for at least 10 characters,
 * and so does the server); remove takes an optional one. A vaulted matter's hold may be removed (it stays
 * vaulted and read-only): that is what lets its retention end.
 */
export const legalHoldRequest = z
  .strictObject({
    matterId: z.uuid({ error: VAULT_MSG.invalidMatterId }),
    action: z.enum(['apply', 'remove'], { error: VAULT_MSG.invalidAction }),
    reason: z.preprocess(
      blankToUndefined,
      text({ error: VAULT_MSG.reasonRequired })
        .trim()
        .normalize('NFC')
        .min(VAULT_LIMITS.holdReasonMin, { error: VAULT_MSG.reasonTooShort })
        .max(VAULT_LIMITS.holdReasonMax, { error: VAULT_MSG.reasonTooLong })
        .optional(),
    ),
    mfaToken: sixDigitToken,
  })
  .refine((v) => v.action !== 'apply' || v.reason !== undefined, { error: VAULT_MSG.reasonRequired, path: ['reason'] });
export type LegalHoldRequest = z.infer<typeof legalHoldRequest>;
export const legalHoldResponse = z.object({ matter: matterSchema, message: z.string() });
export type LegalHoldResponse = z.infer<typeof legalHoldResponse>;

/** POST /_api/vault/start. Always needs a fresh second-factor code (mfaToken), whatever the feature flags say. */
export const vaultStartRequest = z.strictObject({
  matterId: z.uuid({ error: VAULT_MSG.invalidMatterId }),
  retentionYears: z
    .number({ error: VAULT_MSG.retentionMin })
    .int({ error: VAULT_MSG.retentionMin })
    .min(1, { error: VAULT_MSG.retentionMin })
    .max(VAULT_LIMITS.retentionMax, { error: VAULT_MSG.retentionMax }),
  mfaToken: sixDigitToken,
});
export type VaultStartRequest = z.infer<typeof vaultStartRequest>;
export const vaultStartResponse = z.object({
  message: z.string(),
  vaultedAt: z.string(),
  /** null: permanent retention. */
  retentionExpiresAt: z.string().nullable(),
});
export type VaultStartResponse = z.infer<typeof vaultStartResponse>;

export const VAULT_SORT_FIELDS = ['matterName', 'clientName', 'retentionExpiresAt', 'vaultedAt'] as const;
export type VaultSortField = (typeof VAULT_SORT_FIELDS)[number];

const pageParam = z.preprocess(
  blankToUndefined,
  z.coerce
    .number({ error: VAULT_MSG.pagePositive })
    .int({ error: VAULT_MSG.pagePositive })
    .min(1, { error: VAULT_MSG.pagePositive })
    .default(1),
);
const pageSizeParam = (fallback: number, max: number) =>
  z.preprocess(
    blankToUndefined,
    z.coerce
      .number({ error: VAULT_MSG.pageSizeMax })
      .int({ error: VAULT_MSG.pageSizeMax })
      .min(1, { error: VAULT_MSG.pageSizeMax })
      .max(max, { error: VAULT_MSG.pageSizeMax })
      .default(fallback),
  );

/**
 * GET /_api/vault/list. Server defaults: sortBy matterName, asc (the page sends vaultedAt desc). legalHold
 * 'all' or absent: both. searchQuery: a substring of the matter name or the client name, ignoring case.
 */
export const vaultListQuery = z.object({
  searchQuery: z.preprocess(blankToUndefined, text().trim().normalize('NFC').max(200).optional()),
  legalHold: z.preprocess(blankToUndefined, z.enum(['all', 'true', 'false'], { error: VAULT_MSG.invalidLegalHold }).default('all')),
  sortBy: z.preprocess(blankToUndefined, z.enum(VAULT_SORT_FIELDS, { error: VAULT_MSG.invalidSortBy }).default('matterName')),
  sortDirection: z.preprocess(blankToUndefined, z.enum(['asc', 'desc'], { error: VAULT_MSG.invalidSortDirection }).default('asc')),
  page: pageParam,
  pageSize: pageSizeParam(VAULT_LIMITS.pageSizeDefault, VAULT_LIMITS.pageSizeMax),
});
export type VaultListQuery = z.infer<typeof vaultListQuery>;

/** The state of a matter's transfer into the vault. */
export const VAULT_TRANSFER_STATES = ['pending', 'transferring', 'completed', 'failed'] as const;
export type VaultTransferState = (typeof VAULT_TRANSFER_STATES)[number];

/** The last continuous-verification result of a vaulted matter (null: not verified yet). */
export const vaultVerificationSchema = z.object({
  checkedAt: z.string(),
  /** 'passed': every object checked had its sha256 and its lock; 'failed': at least one difference. */
  result: z.enum(['passed', 'failed']),
  objectsChecked: z.number().int(),
  failures: z.number().int(),
});
export type VaultVerification = z.infer<typeof vaultVerificationSchema>;

/** A vaulted matter as the vault list and detail answer it. */
export const vaultedMatterSchema = matterSchema.extend({
  transferState: z.enum(VAULT_TRANSFER_STATES),
  fileCount: z.number().int(),
  totalBytes: z.number().int(),
  lastVerification: vaultVerificationSchema.nullable(),
});
export type VaultedMatterDto = z.infer<typeof vaultedMatterSchema>;

export const vaultListResponse = z.object({ matters: z.array(vaultedMatterSchema), totalCount: z.number().int() });
export type VaultListResponse = z.infer<typeof vaultListResponse>;

/** GET /_api/vault/detail?matterId= and GET /_api/vault/certificate?matterId= */
export const vaultDetailQuery = z.object({
  matterId: z.uuid({
    error: (iss) => (iss.input === undefined || iss.input === '' ? VAULT_MSG.matterIdRequired : VAULT_MSG.invalidMatterId),
  }),
});
export type VaultDetailQuery = z.infer<typeof vaultDetailQuery>;
export const vaultDetailResponse = z.object({ matter: vaultedMatterSchema, nodes: z.array(nodeTreeSchema) });
export type VaultDetailResponse = z.infer<typeof vaultDetailResponse>;

/** GET /_api/vault/report?matterId=&format=: the chain-of-custody report as HTML (the default) or PDF. */
export const VAULT_REPORT_FORMATS = ['html', 'pdf'] as const;
export type VaultReportFormat = (typeof VAULT_REPORT_FORMATS)[number];
export const vaultReportQuery = vaultDetailQuery.extend({
  format: z.preprocess(blankToUndefined, z.enum(VAULT_REPORT_FORMATS, { error: 'format must be html or pdf.' }).default('html')),
});
export type VaultReportQuery = z.infer<typeof vaultReportQuery>;

/** GET /_api/vault/audit */
export const vaultAuditQuery = z.object({
  matterId: matterIdSchema,
  page: pageParam,
  pageSize: pageSizeParam(VAULT_LIMITS.auditPageSizeDefault, VAULT_LIMITS.auditPageSizeMax),
});
export type VaultAuditQuery = z.infer<typeof vaultAuditQuery>;
export const vaultAuditEntry = z.object({
  id: z.string(),
  action: z.string(),
  actorName: z.string().nullable(),
  actorEmail: z.string().nullable(),
  timestamp: z.string(),
  details: z.record(z.string(), z.unknown()).nullable(),
});
export type VaultAuditEntry = z.infer<typeof vaultAuditEntry>;
export const vaultAuditResponse = z.object({ logs: z.array(vaultAuditEntry), totalCount: z.number().int() });
export type VaultAuditResponse = z.infer<typeof vaultAuditResponse>;

/**
 * The vault certificate: what was vaulted, where, under which lock, and the audit chain head at that moment.
 * `payload` is signed as its canonical JSON (keys sorted, no spaces) with the installation's Ed25519 key;
 * `signature` is base64, `publicKey` the key in SPKI PEM, `keyId` the hex sha256 of the SPKI DER.
 */
export const certificateFileSchema = z.object({
  path: z.string(),
  /**
   * Which version of the file this object holds: the vault keeps every version, each listed with its own sha256
   * (the highest number is the current one). Absent from certificates issued before versions were vaulted.
   */
  fileVersion: z.number().int().positive().optional(),
  size: z.number().int(),
  sha256: z.string(),
  objectKey: z.string(),
  /** The object's version id as the store answered it (S3 with versioning); null on the local store and without versioning. */
  versionId: z.string().nullable(),
  /** The lock as the store answered it when read back after the copy: null mode means nothing locks the object. */
  retainUntil: z.string().nullable(),
  lockMode: z.enum(['COMPLIANCE', 'GOVERNANCE']).nullable(),
  legalHold: z.boolean(),
});
/**
 * Whether the store protected the files when they were vaulted, in a sentence a reader can quote. Absent from
 * certificates issued before it was stated.
 */
export const storeProtectionSchema = z.object({ writeOnce: z.boolean(), statement: z.string() });
export type StoreProtection = z.infer<typeof storeProtectionSchema>;
export const vaultCertificatePayload = z.object({
  kind: z.enum(['vault-certificate', 'destruction-certificate']),
  version: z.literal(1),
  issuedAt: z.string(),
  organization: z.object({ id: z.string(), name: z.string() }),
  matter: z.object({
    id: z.string(),
    matterName: z.string(),
    matterNumber: z.string().nullable(),
    clientName: z.string().nullable(),
    vaultedAt: z.string().nullable(),
    retentionExpiresAt: z.string().nullable(),
  }),
  files: z.array(certificateFileSchema),
  /** Files counted once each; `versions` counts the objects listed (every version of every file). */
  totals: z.object({ files: z.number().int(), versions: z.number().int().optional(), bytes: z.number().int() }),
  auditChainHead: z.object({ sequence: z.number().int(), hash: z.string() }).nullable(),
  storeProtection: storeProtectionSchema.optional(),
  /** Certificates of destruction: the disposition review that approved it (absent from those issued before reviews). */
  disposition: certificateDispositionSchema.optional(),
});
export type VaultCertificatePayload = z.infer<typeof vaultCertificatePayload>;
export const signedCertificateSchema = z.object({
  payload: vaultCertificatePayload,
  algorithm: z.literal('Ed25519'),
  keyId: z.string(),
  publicKey: z.string(),
  signature: z.string(),
});
export type SignedCertificate = z.infer<typeof signedCertificateSchema>;
