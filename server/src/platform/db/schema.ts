import type { ColumnType, Generated, GeneratedAlways } from 'kysely';
import type { FileTextState, Permissions, Role, SignedCertificate } from '@strongroom/contracts';

type Timestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type TimestampNull = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
type Json<T> = ColumnType<T, string | T, string | T>;

export interface OrganizationsTable {
  id: Generated<string>;
  name: string;
  primaryContactName: string | null;
  primaryContactEmail: string | null;
  primaryContactPhone: string | null;
  mfaRequired: Generated<boolean>;
  defaultRetentionYears: Generated<number>;
  /** Days a deleted folder or file stays in the recycle bin (1-365). */
  binRetentionDays: Generated<number>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  /** bigint, read as a string: the organization's own storage quota in bytes; null: the configured default. */
  storageQuotaBytes: ColumnType<string | null, number | string | null | undefined, number | string | null>;
}

export interface UsersTable {
  id: Generated<number>;
  publicId: Generated<string>;
  organizationId: string;
  email: string;
  fullName: string;
  phoneNumber: string | null;
  passwordHash: string;
  role: Role;
  permissions: Json<Permissions>;
  isActive: Generated<boolean>;
  mfaEnabled: Generated<boolean>;
  mfaPrimaryMethod: 'totp' | 'email' | null;
  totpSecret: string | null;
  totpPendingSecret: string | null;
  totpLastUsedStep: ColumnType<string | null, string | number | null | undefined, string | number | null>;
  version: Generated<number>;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  /** Who last changed the account through team administration. */
  updatedBy: ColumnType<number | null, number | null | undefined, number | null>;
}

interface SessionsTable {
  id: Generated<string>;
  tokenHash: string;
  userId: number;
  organizationId: string;
  createdAt: Timestamp;
  lastSeenAt: Timestamp;
  idleExpiresAt: Timestamp;
  absoluteExpiresAt: Timestamp;
  revokedAt: TimestampNull;
  revokedReason: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  /** How it was opened: the password (or a recovery code), the organization's provider, or a passkey alone. */
  via: Generated<SessionVia>;
}

export type SessionVia = 'password' | 'sso' | 'passkey';

interface PendingLoginsTable {
  id: Generated<string>;
  tokenHash: string;
  userId: number;
  createdAt: Timestamp;
  expiresAt: Timestamp;
  failedAttempts: Generated<number>;
  endedAt: TimestampNull;
  /** How the first step was passed: the password, or the organization's provider (features/sso). */
  via: Generated<'password' | 'sso'>;
}

interface MfaEmailCodesTable {
  id: Generated<string>;
  userId: number;
  purpose: 'login' | 'setup' | 'action';
  pendingLoginId: string | null;
  codeHash: string;
  expiresAt: Timestamp;
  attempts: Generated<number>;
  usedAt: TimestampNull;
  createdAt: Timestamp;
}

interface SystemMfaTokensTable {
  id: Generated<string>;
  tokenHash: string;
  userId: number;
  sessionId: string;
  operation: string;
  expiresAt: Timestamp;
  createdAt: Timestamp;
}

interface PasswordResetTokensTable {
  id: Generated<string>;
  tokenHash: string;
  userId: number;
  expiresAt: Timestamp;
  usedAt: TimestampNull;
  createdAt: Timestamp;
}

export interface InvitationsTable {
  id: Generated<string>;
  organizationId: string;
  email: string;
  role: Role;
  tokenHash: string;
  invitedBy: number;
  expiresAt: Timestamp;
  acceptedAt: TimestampNull;
  revokedAt: TimestampNull;
  createdAt: Timestamp;
}

/** A one-time recovery code of a user's second factor: a keyed hash of it, and when it was spent. */
interface MfaRecoveryCodesTable {
  id: Generated<string>;
  organizationId: string;
  userId: number;
  codeHash: string;
  createdAt: Generated<Date>;
  usedAt: TimestampNull;
}

interface FeatureFlagsTable {
  organizationId: string;
  flagName: string;
  enabled: boolean;
  updatedAt: Timestamp;
}

interface AuditLogsTable {
  id: Generated<string>;
  organizationId: string | null;
  chainKey: string;
  seq: ColumnType<string, string | number, never>;
  actorId: number | null;
  actorName: string | null;
  actorEmail: string | null;
  action: string;
  targetTable: string | null;
  targetId: string | null;
  details: Json<Record<string, unknown>>;
  ipAddress: string | null;
  createdAt: Timestamp;
  archived: Generated<boolean>;
  prevHash: string;
  hash: string;
  archiveBatchId: string | null;
  /** The text the list's search looks in, lower-cased; written by a trigger only (null until backfilled). */
  searchText: ColumnType<string | null, never, never>;
}

interface NotificationReadsTable {
  userId: number;
  /** `audit-<entry id>`, `retention-<matter id>-<YYYY-MM-DD>`, or `all` (everything up to readAt). */
  notificationKey: string;
  organizationId: string;
  readAt: Timestamp;
}

interface NotificationMailDaysTable {
  userId: number;
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  organizationId: string;
  sentAt: Timestamp;
}

/**
 * Signed changes of an organization's stored bytes, written by database triggers in the transaction of each
 * change to nodes, matters (vaulting) and vault_objects; the figure is the sum of the organization's rows.
 */
interface StorageUsageTable {
  id: Generated<string>;
  organizationId: string;
  /** Bytes of files in matters not vaulted. */
  hotBytes: ColumnType<string, number | string, number | string>;
  /** Bytes of vault objects still held. */
  vaultedBytes: ColumnType<string, number | string, number | string>;
}

interface SigningKeysTable {
  keyId: string;
  algorithm: string;
  publicKeyPem: string;
  notBefore: Timestamp;
  notAfter: TimestampNull;
}

interface AuditChainHeadsTable {
  chainKey: string;
  lastSeq: ColumnType<string, string | number, string | number>;
  lastHash: string;
}

interface AuditSignedHeadsTable {
  id: Generated<string>;
  organizationId: string;
  chainKey: string;
  seq: ColumnType<string, string | number, never>;
  hash: string;
  signedAt: Timestamp;
  reason: string;
  objectKey: string;
  keyId: string;
  signature: string;
}

interface AuditArchiveBatchesTable {
  id: Generated<string>;
  organizationId: string;
  objectKey: string;
  sha256: string;
  sizeBytes: ColumnType<string, string | number, never>;
  firstSeq: ColumnType<string, string | number, never>;
  lastSeq: ColumnType<string, string | number, never>;
  entryCount: number;
  firstPrevHash: string;
  lastHash: string;
  retainUntil: Timestamp;
  archivedBy: number | null;
  createdAt: Timestamp;
}

interface AuditArchivalRunsTable {
  id: Generated<string>;
  organizationId: string;
  requestedBy: number | null;
  requestedAt: Timestamp;
  cutoff: Timestamp;
  state: Generated<'queued' | 'running' | 'completed' | 'failed'>;
  entriesTotal: number;
  entriesDone: Generated<number>;
  batches: Generated<number>;
  bytes: ColumnType<string, string | number | undefined, string | number>;
  message: string | null;
  startedAt: Timestamp | null;
  finishedAt: Timestamp | null;
}

interface AuditLogRetrievalsTable {
  id: Generated<string>;
  organizationId: string;
  logId: ColumnType<string, string | number, string | number>;
  requestedBy: number;
  status: 'in-progress' | 'cached' | 'failed';
  details: Json<Record<string, unknown>> | null;
  message: string | null;
  requestedAt: Timestamp;
  estimatedCompletionAt: Timestamp;
  completedAt: Timestamp | null;
  expiresAt: Timestamp | null;
}

interface AuthThrottleTable {
  key: string;
  failures: number;
  windowStartedAt: Timestamp;
  lockedUntil: TimestampNull;
}

interface SystemSettingsTable {
  key: string;
  value: string;
  updatedAt: Timestamp;
}

export interface MattersTable {
  id: Generated<string>;
  organizationId: string;
  matterName: string;
  matterNumber: string | null;
  clientName: string | null;
  description: string | null;
  responsibleLawyer: string | null;
  /** Name, number, client and description lower-cased in one text, computed by the database (the list's search). */
  listSearchText: GeneratedAlways<string>;
  status: Generated<'Open' | 'Vaulted'>;
  isVaulted: Generated<boolean>;
  legalHold: Generated<boolean>;
  holdReason: string | null;
  retentionExpiresAt: TimestampNull;
  vaultedAt: TimestampNull;
  version: Generated<number>;
  createdBy: number | null;
  updatedBy: number | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
}

interface MatterNumberCountersTable {
  organizationId: string;
  year: number;
  lastValue: number;
}

export interface NodesTable {
  id: Generated<string>;
  organizationId: string;
  matterId: string;
  parentId: string | null;
  name: string;
  nodeType: 'file' | 'folder';
  /** bigint: read as a string. */
  fileSize: ColumnType<string | null, number | string | null, number | string | null>;
  mimeType: string | null;
  sha256Hash: string | null;
  storagePath: string | null;
  uploadId: string | null;
  uploadStatus: string | null;
  uploadProgress: number | null;
  createdBy: number | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  /** Raised by a trigger at every update of the row. */
  version: Generated<number>;
  /** Set while the node is in the recycle bin: the entry of the deleted item it was part of. */
  binEntryId: Generated<string | null>;
  /** The file's current version (node_versions.version_number); null for folders. */
  currentVersion: number | null;
}

/** A deleted folder or file in its matter's recycle bin (features/nodes), until restored or purged. */
export interface BinEntriesTable {
  id: Generated<string>;
  organizationId: string;
  matterId: string;
  /** The item deleted (the top of the subtree). */
  nodeId: string;
  originalParentId: string | null;
  /** The folder path it was in, for display ('/' for the root). */
  originalPath: string;
  deletedBy: number | null;
  deletedAt: Generated<Date>;
  purgeAfter: Timestamp;
  fileCount: number;
  /** bigint: read as a string. */
  totalBytes: ColumnType<string, number | string, number | string>;
}

/** Every version of a file (features/nodes); the nodes row mirrors the current one. */
export interface NodeVersionsTable {
  id: Generated<string>;
  organizationId: string;
  matterId: string;
  nodeId: string;
  versionNumber: number;
  /** bigint: read as a string. */
  fileSize: ColumnType<string, number | string, number | string>;
  mimeType: string | null;
  sha256Hash: string | null;
  /** The stored object; a restored version shares the object of the version it restored. */
  storagePath: string;
  createdBy: number | null;
  createdAt: Generated<Date>;
  restoredFromVersion: number | null;
}

/** The text of one file version for document search (features/search); deleted with its version. */
interface FileTextsTable {
  organizationId: string;
  versionId: string;
  nodeId: string;
  matterId: string;
  versionNumber: number;
  state: Generated<FileTextState>;
  reason: string | null;
  /** The text search configuration the row was indexed in. */
  language: string;
  /** The text, pages separated by a form feed; null until read (or when none). */
  body: string | null;
  ocr: Generated<boolean>;
  truncated: Generated<boolean>;
  /** The name's words (weight A) and the body's (weight B); written through SQL, read as text. */
  tsv: string;
  attempts: Generated<number>;
  /** The background job reading the row, and until when its claim holds. */
  claimJob: string | null;
  claimedUntil: TimestampNull;
  queuedAt: Generated<Date>;
  extractedAt: TimestampNull;
}

/** An organization's document search languages (features/search); none: English. */
interface SearchSettingsTable {
  organizationId: string;
  /** The text search configuration document words are stemmed in ('english', 'simple', ...). */
  language: Generated<string>;
  /** The OCR engine's language codes scanned pages are read in (['eng']). */
  ocrLanguages: ColumnType<string[], string | undefined, string>;
  updatedAt: Generated<Date>;
}

/** Which actions of an organization need a second administrator, and the limits of its requests (features/approvals). */
interface ApprovalSettingsTable {
  organizationId: string;
  actions: ColumnType<string[], string, string>;
  expiryHours: Generated<number>;
  folderFileThreshold: Generated<number>;
  dispositionLeadDays: Generated<number>;
  updatedAt: Generated<Date>;
}

/** A governed action asked for, waiting for, or past, its second approver (features/approvals). */
interface ApprovalRequestsTable {
  id: Generated<string>;
  organizationId: string;
  action: string;
  status: Generated<'pending' | 'approved' | 'rejected' | 'expired' | 'void'>;
  requestedBy: number;
  requestedAt: Generated<Date>;
  requestIp: string | null;
  reason: string | null;
  method: string;
  path: string;
  parameters: ColumnType<Record<string, unknown>, string, string>;
  preview: ColumnType<Record<string, unknown>, string, string>;
  touches: ColumnType<Record<string, string>, string, string>;
  expiresAt: Date;
  decidedBy: number | null;
  decidedAt: Date | null;
  decisionReason: string | null;
  voidReason: string | null;
  executedAt: Date | null;
  outcome: ColumnType<Record<string, unknown> | null, string | null, string | null>;
}

/** A person's API token, kept as its hash (features/api-tokens). */
interface ApiTokensTable {
  id: Generated<string>;
  organizationId: string;
  userId: number;
  name: string;
  tokenHash: string;
  prefix: string;
  scopes: ColumnType<string[], string, string>;
  createdAt: Generated<Date>;
  expiresAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  revokedBy: number | null;
}

/** An organization's OpenID Connect provider (features/sso); the client secret encrypted at rest. */
interface OrganizationSsoTable {
  organizationId: string;
  displayName: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  enabled: boolean;
  jitEnabled: boolean;
  jitRole: 'user' | 'guest';
  requireSso: boolean;
  providerMfaCounts: boolean;
  updatedAt: Generated<Date>;
  updatedBy: number | null;
}

/** An email domain an organization has verified for single sign-on: one organization per domain. */
interface OrganizationSsoDomainsTable {
  domain: string;
  organizationId: string;
}

/** A person linked to the provider's subject (features/sso). */
interface UserIdentitiesTable {
  id: Generated<string>;
  organizationId: string;
  userId: number;
  issuer: string;
  subject: string;
  createdAt: Generated<Date>;
}

/** A sign-in or a link started at the provider, spent once (features/sso). */
interface SsoLoginStatesTable {
  stateHash: string;
  organizationId: string;
  nonce: string;
  codeVerifier: string;
  intent: 'sign-in' | 'link';
  userId: number | null;
  createdAt: Generated<Date>;
  expiresAt: Date;
  consumedAt: Date | null;
}

/** A person's passkey (WebAuthn credential): its public key, counter and backup flags (features/passkeys). */
interface PasskeysTable {
  id: Generated<string>;
  organizationId: string;
  userId: number;
  credentialId: string;
  publicKey: ColumnType<Uint8Array, Uint8Array, Uint8Array>;
  signCount: ColumnType<string, string | number, string | number>;
  transports: ColumnType<string[], string[], string[]>;
  deviceType: string;
  backedUp: boolean;
  backupEligible: boolean;
  name: string;
  createdAt: Generated<Date>;
  lastUsedAt: Date | null;
}

/** One WebAuthn ceremony's challenge, single use (features/passkeys). */
interface WebauthnChallengesTable {
  id: Generated<string>;
  organizationId: string | null;
  userId: number | null;
  sessionId: string | null;
  purpose: 'register' | 'second-factor' | 'sign-in' | 'step-up';
  operation: string | null;
  challenge: string;
  createdAt: Generated<Date>;
  expiresAt: Date;
  consumedAt: Date | null;
}

/** Whether an organization allows signing in with a passkey alone (features/passkeys). */
interface PasskeySettingsTable {
  organizationId: string;
  allowPasskeySignIn: boolean;
  updatedAt: Generated<Date>;
  updatedBy: number | null;
}

/** One vaulted matter's review of one retention end (features/disposition). */
interface DispositionReviewsTable {
  id: Generated<string>;
  organizationId: string;
  matterId: string;
  retentionExpiresAt: Timestamp;
  status: Generated<'due' | 'approved' | 'extended' | 'held'>;
  queuedAt: Generated<Date>;
  decidedBy: number | null;
  decidedAt: TimestampNull;
  decisionReason: string | null;
  extendedTo: TimestampNull;
  approvalRequestId: string | null;
  approvedBy: ColumnType<Array<{ userId: number; name: string; email: string }>, string | undefined, string>;
  approvedAt: TimestampNull;
}

/** The days an organization's administrators were reminded of overdue disposition reviews (features/disposition). */
interface DispositionReminderDaysTable {
  organizationId: string;
  /** The UTC day, YYYY-MM-DD. */
  day: string;
  overdue: number;
  createdAt: Generated<Date>;
}

/** An administrator's re-index of the organization's documents (features/search). */
interface SearchReindexRunsTable {
  id: Generated<string>;
  organizationId: string;
  startedBy: number | null;
  startedAt: Generated<Date>;
  finishedAt: TimestampNull;
  /** Only versions uploaded from this moment on; null: all. */
  since: TimestampNull;
  total: number;
  done: Generated<number>;
}

export interface UploadSessionsTable {
  id: Generated<string>;
  organizationId: string;
  userId: number;
  matterId: string;
  parentId: string | null;
  s3Key: string;
  uploadId: string | null;
  fileName: string;
  fileType: string;
  fileSize: ColumnType<string | null, number | string | null, number | string | null>;
  kind: 'standard' | 'multipart';
  status: Generated<'pending' | 'completing' | 'completed' | 'aborted' | 'failed' | 'expired'>;
  nodeId: string | null;
  /** The completion that holds the upload while it is 'completing', and when it last renewed its lease. */
  claimId: Generated<string | null>;
  claimedAt: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  createdAt: Timestamp;
  expiresAt: Timestamp;
  finishedAt: TimestampNull;
  /** What the upload asked for when its name is taken: add a version, or keep both under a free name. */
  onConflict: ColumnType<'newVersion' | 'keepBoth' | null, 'newVersion' | 'keepBoth' | null | undefined, never>;
}

/** A change that can be taken back for a few minutes (features/undo). */
/** A matter an administrator shares with a guest (read-only). */
interface GuestMatterGrantsTable {
  organizationId: string;
  matterId: string;
  userId: number;
  grantedBy: number | null;
  grantedAt: Generated<Date>;
  /** 'download': the guest may download the matter's files; 'view': they are listed only. */
  access: Generated<'download' | 'view'>;
}

export interface UndoEntriesTable {
  id: Generated<string>;
  organizationId: string;
  userId: number;
  kind: string;
  targetId: string;
  version: number;
  before: Json<Record<string, unknown>>;
  createdAt: Generated<Date>;
  expiresAt: Timestamp;
  usedAt: TimestampNull;
}

/** A matter's transfer into the vault (features/vault): its durable job's state and progress. */
export interface VaultTransfersTable {
  matterId: string;
  organizationId: string;
  state: Generated<'pending' | 'transferring' | 'completed' | 'failed'>;
  retentionExpiresAt: TimestampNull;
  filesTotal: Generated<number>;
  filesDone: Generated<number>;
  /** bigint: read as a string. */
  bytesTotal: ColumnType<string, number | string | undefined, number | string>;
  bytesDone: ColumnType<string, number | string | undefined, number | string>;
  attempts: Generated<number>;
  lastError: string | null;
  startedAt: Generated<Date>;
  completedAt: TimestampNull;
}

/** A file in the vault: where it is, under which lock, and its last verification. */
export interface VaultObjectsTable {
  id: Generated<string>;
  organizationId: string;
  matterId: string;
  nodeId: string;
  /** The version of the file this object holds (a file has one vault object per version). */
  versionNumber: Generated<number>;
  path: string;
  objectKey: string;
  versionId: string | null;
  sha256: string;
  /** bigint: read as a string. */
  size: ColumnType<string, number | string, number | string>;
  storageClass: string | null;
  retainUntil: Timestamp;
  legalHold: boolean;
  state: Generated<'vaulted' | 'destroyed'>;
  vaultedAt: Generated<Date>;
  destroyedAt: TimestampNull;
  lastVerifiedAt: TimestampNull;
  lastVerificationOk: boolean | null;
}

/** A signed certificate (vault or destruction) as stored in the vault. */
export interface VaultCertificatesTable {
  id: Generated<string>;
  organizationId: string;
  matterId: string;
  kind: 'vault' | 'destruction';
  objectKey: string;
  /** sha256 of the stored JSON bytes. */
  sha256: string;
  issuedAt: Generated<Date>;
  body: Json<SignedCertificate>;
}

/** One check of a vault object by the continuous verification: when, whether it held, and what differed. */
interface VaultVerificationsTable {
  id: Generated<string>;
  organizationId: string;
  matterId: string;
  vaultObjectId: string;
  checkedAt: Timestamp;
  ok: boolean;
  problem: string | null;
}

type PolicyDefinition = Record<string, string | number | boolean>;

/** The current version of a security policy (deletedAt set: deleted, kept for its history). */
interface SecurityPoliciesTable {
  id: Generated<string>;
  organizationId: string;
  name: string;
  description: string;
  definition: Json<PolicyDefinition>;
  version: number;
  isActive: Generated<boolean>;
  createdBy: number | null;
  updatedBy: number | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  deletedAt: TimestampNull;
}

/** Every version a security policy had, written once. */
export interface SecurityPolicyVersionsTable {
  id: Generated<string>;
  organizationId: string;
  policyId: string;
  operation: 'create' | 'update' | 'delete';
  name: string;
  description: string;
  definition: Json<PolicyDefinition>;
  version: number;
  isActive: boolean;
  changedBy: number | null;
  changedAt: Timestamp;
}

interface ComplianceReportsTable {
  id: Generated<string>;
  organizationId: string;
  requestedBy: number | null;
  generatedAt: Timestamp;
  summary: Json<Record<string, unknown>>;
  results: Json<unknown[]>;
}

interface VulnerabilityScansTable {
  id: Generated<string>;
  organizationId: string;
  targetType: 'APPLICATION' | 'INFRASTRUCTURE' | 'DATABASE' | 'NETWORK';
  targetIdentifier: string;
  requestedBy: number | null;
  totalVulnerabilities: number;
  bySeverity: Json<Record<string, number>>;
  createdAt: Timestamp;
}

interface VulnerabilityFindingsTable {
  id: Generated<string>;
  organizationId: string;
  scanId: string;
  checkName: string;
  severity: 'CRITICAL' | 'HIGH' | 'MEDIUM' | 'LOW' | 'INFO';
  title: string;
  detail: string;
  recommendation: string;
}

interface SecurityAssessmentsTable {
  id: Generated<string>;
  organizationId: string;
  scanIds: Json<string[]>;
  overallRiskLevel: 'CRITICAL' | 'HIGH' | 'MEDIUM' | 'LOW';
  summary: Json<Record<string, unknown>>;
  requestedBy: number | null;
  createdAt: Timestamp;
}

export interface DB {
  organizations: OrganizationsTable;
  users: UsersTable;
  sessions: SessionsTable;
  pendingLogins: PendingLoginsTable;
  mfaEmailCodes: MfaEmailCodesTable;
  systemMfaTokens: SystemMfaTokensTable;
  passwordResetTokens: PasswordResetTokensTable;
  invitations: InvitationsTable;
  featureFlags: FeatureFlagsTable;
  mfaRecoveryCodes: MfaRecoveryCodesTable;
  auditLogs: AuditLogsTable;
  auditChainHeads: AuditChainHeadsTable;
  auditSignedHeads: AuditSignedHeadsTable;
  auditArchiveBatches: AuditArchiveBatchesTable;
  auditArchivalRuns: AuditArchivalRunsTable;
  auditLogRetrievals: AuditLogRetrievalsTable;
  authThrottle: AuthThrottleTable;
  systemSettings: SystemSettingsTable;
  matters: MattersTable;
  matterNumberCounters: MatterNumberCountersTable;
  nodes: NodesTable;
  binEntries: BinEntriesTable;
  nodeVersions: NodeVersionsTable;
  fileTexts: FileTextsTable;
  searchSettings: SearchSettingsTable;
  searchReindexRuns: SearchReindexRunsTable;
  approvalSettings: ApprovalSettingsTable;
  approvalRequests: ApprovalRequestsTable;
  apiTokens: ApiTokensTable;
  organizationSso: OrganizationSsoTable;
  organizationSsoDomains: OrganizationSsoDomainsTable;
  userIdentities: UserIdentitiesTable;
  ssoLoginStates: SsoLoginStatesTable;
  passkeys: PasskeysTable;
  webauthnChallenges: WebauthnChallengesTable;
  passkeySettings: PasskeySettingsTable;
  dispositionReviews: DispositionReviewsTable;
  dispositionReminderDays: DispositionReminderDaysTable;
  uploadSessions: UploadSessionsTable;
  undoEntries: UndoEntriesTable;
  guestMatterGrants: GuestMatterGrantsTable;
  vaultTransfers: VaultTransfersTable;
  vaultObjects: VaultObjectsTable;
  vaultCertificates: VaultCertificatesTable;
  vaultVerifications: VaultVerificationsTable;
  securityPolicies: SecurityPoliciesTable;
  securityPolicyVersions: SecurityPolicyVersionsTable;
  complianceReports: ComplianceReportsTable;
  vulnerabilityScans: VulnerabilityScansTable;
  vulnerabilityFindings: VulnerabilityFindingsTable;
  securityAssessments: SecurityAssessmentsTable;
  signingKeys: SigningKeysTable;
  notificationReads: NotificationReadsTable;
  notificationMailDays: NotificationMailDaysTable;
  storageUsage: StorageUsageTable;
}
