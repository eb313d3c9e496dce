/**
 * schema.ts (the Kysely `DB` interface every query is typed by) must describe the tables the migrations make:
 * same tables, same columns, same data types, same nullability. TypeScript types are gone at run time, so the
 * check has two halves that meet in the `EXPECTED` map below (table -> column -> PostgreSQL type, ' null' when
 * the column may be null, all in the camelCase names Kysely uses):
 *
 * - at compile time (`tsc -p server`, part of the typecheck): `satisfies` makes the map hold exactly the tables
 *   and columns of `DB`, no more and no fewer, and the `true satisfies` check compiles only while every column's TypeScript
 *   select type is what that PostgreSQL type reads as (int8 as string, timestamptz as Date, ...) and allows
 *   null exactly when the column is nullable; otherwise the error names the column;
 * - at run time (this test): a freshly migrated database's information_schema, for the app's own tables, must
 *   equal the map.
 *
 * So a migration that adds, drops, retypes or relaxes a column fails here until schema.ts (and the map) follow.
 * Kysely's migration bookkeeping tables and pg-boss's schema are not the app's tables and are left out.
 */
import { CamelCasePlugin, sql, type SelectType } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../../../test/helpers.js';
import type { DatabaseHandle } from './database.js';
import type { DB } from './schema.js';

/** What node-postgres and PGlite hand the app for each PostgreSQL type (int8 stays a string: database.ts). */
type ReadAs = {
  uuid: string;
  text: string;
  varchar: string;
  int2: number;
  int4: number;
  int8: string;
  bool: boolean;
  timestamptz: Date;
  jsonb: object;
  tsvector: string;
  bytea: Uint8Array;
  _text: string[];
};
type PgType = keyof ReadAs;
type ColumnSpec = PgType | `${PgType} null`;

const EXPECTED = {
  organizations: {
    id: 'uuid',
    name: 'text',
    primaryContactName: 'text null',
    primaryContactEmail: 'text null',
    primaryContactPhone: 'text null',
    mfaRequired: 'bool',
    defaultRetentionYears: 'int4',
    binRetentionDays: 'int4',
    createdAt: 'timestamptz',
    updatedAt: 'timestamptz',
    storageQuotaBytes: 'int8 null',
  },
  users: {
    id: 'int4',
    publicId: 'uuid',
    organizationId: 'uuid',
    email: 'text',
    fullName: 'text',
    phoneNumber: 'text null',
    passwordHash: 'text',
    role: 'text',
    permissions: 'jsonb',
    isActive: 'bool',
    mfaEnabled: 'bool',
    mfaPrimaryMethod: 'text null',
    totpSecret: 'text null',
    totpPendingSecret: 'text null',
    totpLastUsedStep: 'int8 null',
    version: 'int4',
    createdAt: 'timestamptz',
    updatedAt: 'timestamptz',
    updatedBy: 'int4 null',
  },
  sessions: {
    id: 'uuid',
    tokenHash: 'text',
    userId: 'int4',
    organizationId: 'uuid',
    createdAt: 'timestamptz',
    lastSeenAt: 'timestamptz',
    idleExpiresAt: 'timestamptz',
    absoluteExpiresAt: 'timestamptz',
    revokedAt: 'timestamptz null',
    revokedReason: 'text null',
    ipAddress: 'text null',
    userAgent: 'text null',
    via: 'text',
  },
  pendingLogins: {
    id: 'uuid',
    tokenHash: 'text',
    userId: 'int4',
    createdAt: 'timestamptz',
    expiresAt: 'timestamptz',
    failedAttempts: 'int4',
    endedAt: 'timestamptz null',
    via: 'text',
  },
  mfaEmailCodes: {
    id: 'uuid',
    userId: 'int4',
    purpose: 'text',
    pendingLoginId: 'uuid null',
    codeHash: 'text',
    expiresAt: 'timestamptz',
    attempts: 'int4',
    usedAt: 'timestamptz null',
    createdAt: 'timestamptz',
  },
  systemMfaTokens: {
    id: 'uuid',
    tokenHash: 'text',
    userId: 'int4',
    sessionId: 'uuid',
    operation: 'text',
    expiresAt: 'timestamptz',
    createdAt: 'timestamptz',
  },
  passwordResetTokens: {
    id: 'uuid',
    tokenHash: 'text',
    userId: 'int4',
    expiresAt: 'timestamptz',
    usedAt: 'timestamptz null',
    createdAt: 'timestamptz',
  },
  invitations: {
    id: 'uuid',
    organizationId: 'uuid',
    email: 'text',
    role: 'text',
    tokenHash: 'text',
    invitedBy: 'int4',
    expiresAt: 'timestamptz',
    acceptedAt: 'timestamptz null',
    revokedAt: 'timestamptz null',
    createdAt: 'timestamptz',
  },
  featureFlags: {
    organizationId: 'uuid',
    flagName: 'text',
    enabled: 'bool',
    updatedAt: 'timestamptz',
  },
  auditLogs: {
    id: 'int8',
    organizationId: 'uuid null',
    chainKey: 'text',
    seq: 'int8',
    actorId: 'int4 null',
    actorName: 'text null',
    actorEmail: 'text null',
    action: 'text',
    targetTable: 'text null',
    targetId: 'text null',
    details: 'jsonb',
    ipAddress: 'text null',
    createdAt: 'timestamptz',
    archived: 'bool',
    prevHash: 'text',
    hash: 'text',
    archiveBatchId: 'uuid null',
    searchText: 'text null',
  },
  auditArchivalRuns: {
    id: 'uuid',
    organizationId: 'uuid',
    requestedBy: 'int4 null',
    requestedAt: 'timestamptz',
    cutoff: 'timestamptz',
    state: 'text',
    entriesTotal: 'int4',
    entriesDone: 'int4',
    batches: 'int4',
    bytes: 'int8',
    message: 'text null',
    startedAt: 'timestamptz null',
    finishedAt: 'timestamptz null',
  },
  auditArchiveBatches: {
    id: 'uuid',
    organizationId: 'uuid',
    objectKey: 'text',
    sha256: 'text',
    sizeBytes: 'int8',
    firstSeq: 'int8',
    lastSeq: 'int8',
    entryCount: 'int4',
    firstPrevHash: 'text',
    lastHash: 'text',
    retainUntil: 'timestamptz',
    archivedBy: 'int4 null',
    createdAt: 'timestamptz',
  },
  auditLogRetrievals: {
    id: 'uuid',
    organizationId: 'uuid',
    logId: 'int8',
    requestedBy: 'int4',
    status: 'text',
    details: 'jsonb null',
    message: 'text null',
    requestedAt: 'timestamptz',
    estimatedCompletionAt: 'timestamptz',
    completedAt: 'timestamptz null',
    expiresAt: 'timestamptz null',
  },
  auditChainHeads: {
    chainKey: 'text',
    lastSeq: 'int8',
    lastHash: 'text',
  },
  auditSignedHeads: {
    id: 'uuid',
    organizationId: 'uuid',
    chainKey: 'text',
    seq: 'int8',
    hash: 'text',
    signedAt: 'timestamptz',
    reason: 'text',
    objectKey: 'text',
    keyId: 'text',
    signature: 'text',
  },
  authThrottle: {
    key: 'text',
    failures: 'int4',
    windowStartedAt: 'timestamptz',
    lockedUntil: 'timestamptz null',
  },
  systemSettings: {
    key: 'text',
    value: 'text',
    updatedAt: 'timestamptz',
  },
  matters: {
    id: 'uuid',
    organizationId: 'uuid',
    matterName: 'text',
    matterNumber: 'text null',
    clientName: 'text null',
    description: 'text null',
    responsibleLawyer: 'text null',
    listSearchText: 'text',
    status: 'text',
    isVaulted: 'bool',
    legalHold: 'bool',
    holdReason: 'text null',
    retentionExpiresAt: 'timestamptz null',
    vaultedAt: 'timestamptz null',
    version: 'int4',
    createdBy: 'int4 null',
    updatedBy: 'int4 null',
    createdAt: 'timestamptz',
    updatedAt: 'timestamptz',
  },
  matterNumberCounters: {
    organizationId: 'uuid',
    year: 'int4',
    lastValue: 'int4',
  },
  nodes: {
    id: 'uuid',
    organizationId: 'uuid',
    matterId: 'uuid',
    parentId: 'uuid null',
    name: 'text',
    nodeType: 'text',
    fileSize: 'int8 null',
    mimeType: 'text null',
    sha256Hash: 'text null',
    storagePath: 'text null',
    uploadId: 'text null',
    uploadStatus: 'text null',
    uploadProgress: 'int4 null',
    createdBy: 'int4 null',
    createdAt: 'timestamptz',
    updatedAt: 'timestamptz',
    version: 'int4',
    binEntryId: 'uuid null',
    currentVersion: 'int4 null',
  },
  binEntries: {
    id: 'uuid',
    organizationId: 'uuid',
    matterId: 'uuid',
    nodeId: 'uuid',
    originalParentId: 'uuid null',
    originalPath: 'text',
    deletedBy: 'int4 null',
    deletedAt: 'timestamptz',
    purgeAfter: 'timestamptz',
    fileCount: 'int4',
    totalBytes: 'int8',
  },
  nodeVersions: {
    id: 'uuid',
    organizationId: 'uuid',
    matterId: 'uuid',
    nodeId: 'uuid',
    versionNumber: 'int4',
    fileSize: 'int8',
    mimeType: 'text null',
    sha256Hash: 'text null',
    storagePath: 'text',
    createdBy: 'int4 null',
    createdAt: 'timestamptz',
    restoredFromVersion: 'int4 null',
  },
  fileTexts: {
    organizationId: 'uuid',
    versionId: 'uuid',
    nodeId: 'uuid',
    matterId: 'uuid',
    versionNumber: 'int4',
    state: 'text',
    reason: 'text null',
    language: 'text',
    body: 'text null',
    ocr: 'bool',
    truncated: 'bool',
    tsv: 'tsvector',
    attempts: 'int4',
    claimJob: 'text null',
    claimedUntil: 'timestamptz null',
    queuedAt: 'timestamptz',
    extractedAt: 'timestamptz null',
  },
  searchSettings: {
    organizationId: 'uuid',
    language: 'text',
    ocrLanguages: 'jsonb',
    updatedAt: 'timestamptz',
  },
  searchReindexRuns: {
    id: 'uuid',
    organizationId: 'uuid',
    startedBy: 'int4 null',
    startedAt: 'timestamptz',
    finishedAt: 'timestamptz null',
    since: 'timestamptz null',
    total: 'int4',
    done: 'int4',
  },
  dispositionReviews: {
    id: 'uuid',
    organizationId: 'uuid',
    matterId: 'uuid',
    retentionExpiresAt: 'timestamptz',
    status: 'text',
    queuedAt: 'timestamptz',
    decidedBy: 'int4 null',
    decidedAt: 'timestamptz null',
    decisionReason: 'text null',
    extendedTo: 'timestamptz null',
    approvalRequestId: 'uuid null',
    approvedBy: 'jsonb',
    approvedAt: 'timestamptz null',
  },
  dispositionReminderDays: {
    organizationId: 'uuid',
    day: 'text',
    overdue: 'int4',
    createdAt: 'timestamptz',
  },
  approvalSettings: {
    organizationId: 'uuid',
    actions: 'jsonb',
    expiryHours: 'int4',
    folderFileThreshold: 'int4',
    dispositionLeadDays: 'int4',
    updatedAt: 'timestamptz',
  },
  approvalRequests: {
    id: 'uuid',
    organizationId: 'uuid',
    action: 'text',
    status: 'text',
    requestedBy: 'int4',
    requestedAt: 'timestamptz',
    requestIp: 'text null',
    reason: 'text null',
    method: 'text',
    path: 'text',
    parameters: 'jsonb',
    preview: 'jsonb',
    touches: 'jsonb',
    expiresAt: 'timestamptz',
    decidedBy: 'int4 null',
    decidedAt: 'timestamptz null',
    decisionReason: 'text null',
    voidReason: 'text null',
    executedAt: 'timestamptz null',
    outcome: 'jsonb null',
  },
  apiTokens: {
    id: 'uuid',
    organizationId: 'uuid',
    userId: 'int4',
    name: 'text',
    tokenHash: 'text',
    prefix: 'text',
    scopes: 'jsonb',
    createdAt: 'timestamptz',
    expiresAt: 'timestamptz',
    lastUsedAt: 'timestamptz null',
    revokedAt: 'timestamptz null',
    revokedBy: 'int4 null',
  },
  organizationSso: {
    organizationId: 'uuid',
    displayName: 'text',
    issuer: 'text',
    clientId: 'text',
    clientSecret: 'text',
    enabled: 'bool',
    jitEnabled: 'bool',
    jitRole: 'text',
    requireSso: 'bool',
    providerMfaCounts: 'bool',
    updatedAt: 'timestamptz',
    updatedBy: 'int4 null',
  },
  organizationSsoDomains: {
    domain: 'text',
    organizationId: 'uuid',
  },
  userIdentities: {
    id: 'uuid',
    organizationId: 'uuid',
    userId: 'int4',
    issuer: 'text',
    subject: 'text',
    createdAt: 'timestamptz',
  },
  ssoLoginStates: {
    stateHash: 'text',
    organizationId: 'uuid',
    nonce: 'text',
    codeVerifier: 'text',
    intent: 'text',
    userId: 'int4 null',
    createdAt: 'timestamptz',
    expiresAt: 'timestamptz',
    consumedAt: 'timestamptz null',
  },
  passkeys: {
    id: 'uuid',
    organizationId: 'uuid',
    userId: 'int4',
    credentialId: 'text',
    publicKey: 'bytea',
    signCount: 'int8',
    transports: '_text',
    deviceType: 'text',
    backedUp: 'bool',
    backupEligible: 'bool',
    name: 'text',
    createdAt: 'timestamptz',
    lastUsedAt: 'timestamptz null',
  },
  webauthnChallenges: {
    id: 'uuid',
    organizationId: 'uuid null',
    userId: 'int4 null',
    sessionId: 'uuid null',
    purpose: 'text',
    operation: 'text null',
    challenge: 'text',
    createdAt: 'timestamptz',
    expiresAt: 'timestamptz',
    consumedAt: 'timestamptz null',
  },
  passkeySettings: {
    organizationId: 'uuid',
    allowPasskeySignIn: 'bool',
    updatedAt: 'timestamptz',
    updatedBy: 'int4 null',
  },
  uploadSessions: {
    id: 'uuid',
    organizationId: 'uuid',
    userId: 'int4',
    matterId: 'uuid',
    parentId: 'uuid null',
    s3Key: 'text',
    uploadId: 'text null',
    fileName: 'text',
    fileType: 'text',
    fileSize: 'int8 null',
    kind: 'text',
    status: 'text',
    nodeId: 'uuid null',
    claimId: 'uuid null',
    claimedAt: 'timestamptz null',
    createdAt: 'timestamptz',
    expiresAt: 'timestamptz',
    finishedAt: 'timestamptz null',
    onConflict: 'text null',
  },
  mfaRecoveryCodes: {
    id: 'uuid',
    organizationId: 'uuid',
    userId: 'int4',
    codeHash: 'text',
    createdAt: 'timestamptz',
    usedAt: 'timestamptz null',
  },
  guestMatterGrants: {
    organizationId: 'uuid',
    matterId: 'uuid',
    userId: 'int4',
    grantedBy: 'int4 null',
    grantedAt: 'timestamptz',
    access: 'text',
  },
  undoEntries: {
    id: 'uuid',
    organizationId: 'uuid',
    userId: 'int4',
    kind: 'text',
    targetId: 'text',
    version: 'int4',
    before: 'jsonb',
    createdAt: 'timestamptz',
    expiresAt: 'timestamptz',
    usedAt: 'timestamptz null',
  },
  vaultTransfers: {
    matterId: 'uuid',
    organizationId: 'uuid',
    state: 'text',
    retentionExpiresAt: 'timestamptz null',
    filesTotal: 'int4',
    filesDone: 'int4',
    bytesTotal: 'int8',
    bytesDone: 'int8',
    attempts: 'int4',
    lastError: 'text null',
    startedAt: 'timestamptz',
    completedAt: 'timestamptz null',
  },
  vaultObjects: {
    id: 'uuid',
    organizationId: 'uuid',
    matterId: 'uuid',
    nodeId: 'uuid',
    versionNumber: 'int4',
    path: 'text',
    objectKey: 'text',
    versionId: 'text null',
    sha256: 'text',
    size: 'int8',
    storageClass: 'text null',
    retainUntil: 'timestamptz',
    legalHold: 'bool',
    state: 'text',
    vaultedAt: 'timestamptz',
    destroyedAt: 'timestamptz null',
    lastVerifiedAt: 'timestamptz null',
    lastVerificationOk: 'bool null',
  },
  vaultCertificates: {
    id: 'uuid',
    organizationId: 'uuid',
    matterId: 'uuid',
    kind: 'text',
    objectKey: 'text',
    sha256: 'text',
    issuedAt: 'timestamptz',
    body: 'jsonb',
  },
  vaultVerifications: {
    id: 'uuid',
    organizationId: 'uuid',
    matterId: 'uuid',
    vaultObjectId: 'uuid',
    checkedAt: 'timestamptz',
    ok: 'bool',
    problem: 'text null',
  },
  securityPolicies: {
    id: 'uuid',
    organizationId: 'uuid',
    name: 'text',
    description: 'text',
    definition: 'jsonb',
    version: 'int4',
    isActive: 'bool',
    createdBy: 'int4 null',
    updatedBy: 'int4 null',
    createdAt: 'timestamptz',
    updatedAt: 'timestamptz',
    deletedAt: 'timestamptz null',
  },
  securityPolicyVersions: {
    id: 'uuid',
    organizationId: 'uuid',
    policyId: 'uuid',
    operation: 'text',
    name: 'text',
    description: 'text',
    definition: 'jsonb',
    version: 'int4',
    isActive: 'bool',
    changedBy: 'int4 null',
    changedAt: 'timestamptz',
  },
  complianceReports: {
    id: 'uuid',
    organizationId: 'uuid',
    requestedBy: 'int4 null',
    generatedAt: 'timestamptz',
    summary: 'jsonb',
    results: 'jsonb',
  },
  vulnerabilityScans: {
    id: 'uuid',
    organizationId: 'uuid',
    targetType: 'text',
    targetIdentifier: 'text',
    requestedBy: 'int4 null',
    totalVulnerabilities: 'int4',
    bySeverity: 'jsonb',
    createdAt: 'timestamptz',
  },
  vulnerabilityFindings: {
    id: 'uuid',
    organizationId: 'uuid',
    scanId: 'uuid',
    checkName: 'text',
    severity: 'text',
    title: 'text',
    detail: 'text',
    recommendation: 'text',
  },
  securityAssessments: {
    id: 'uuid',
    organizationId: 'uuid',
    scanIds: 'jsonb',
    overallRiskLevel: 'text',
    summary: 'jsonb',
    requestedBy: 'int4 null',
    createdAt: 'timestamptz',
  },
  signingKeys: {
    keyId: 'text',
    algorithm: 'text',
    publicKeyPem: 'text',
    notBefore: 'timestamptz',
    notAfter: 'timestamptz null',
  },
  notificationReads: {
    userId: 'int4',
    notificationKey: 'text',
    organizationId: 'uuid',
    readAt: 'timestamptz',
  },
  notificationMailDays: {
    userId: 'int4',
    day: 'text',
    organizationId: 'uuid',
    sentAt: 'timestamptz',
  },
  storageUsage: {
    id: 'int8',
    organizationId: 'uuid',
    hotBytes: 'int8',
    vaultedBytes: 'int8',
  },
} as const satisfies { [T in keyof DB]: { [C in keyof DB[T]]: ColumnSpec } };

/** Why one column's TypeScript type disagrees with its entry in EXPECTED; never when they agree. */
type Disagreement<Where extends string, Column, Spec> = Spec extends `${infer P extends PgType} null`
  ? null extends SelectType<Column>
    ? NonNullable<SelectType<Column>> extends ReadAs[P]
      ? never
      : `${Where}: schema.ts's type is not what ${P} reads as`
    : `${Where}: nullable in the database, not in schema.ts`
  : Spec extends PgType
    ? null extends SelectType<Column>
      ? `${Where}: not null in the database, nullable in schema.ts`
      : SelectType<Column> extends ReadAs[Spec]
        ? never
        : `${Where}: schema.ts's type is not what ${Spec} reads as`
    : `${Where}: no entry`;

/** Per table, the disagreements of its columns. */
type TableDisagreements = {
  [T in keyof DB]: {
    [C in keyof DB[T]]: C extends keyof (typeof EXPECTED)[T]
      ? Disagreement<`${T}.${C & string}`, DB[T][C], (typeof EXPECTED)[T][C]>
      : `${T}.${C & string}: no entry`;
  }[keyof DB[T]];
};

// Compiles only while every column agrees; otherwise the type error lists the columns that do not.
true satisfies [TableDisagreements[keyof DB]] extends [never] ? true : TableDisagreements[keyof DB];

/** Kysely's own snake_case -> camelCase mapping, the one the app's CamelCasePlugin applies. */
class Names extends CamelCasePlugin {
  toCamel(name: string): string {
    return this.camelCase(name);
  }
}

/** Kysely's migration bookkeeping (database.ts), not app tables. */
const NOT_APP_TABLES = ['schema_migrations', 'schema_migrations_lock'];

describe('schema.ts against the migrated database', () => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    handle = await testDatabase();
  });
  afterAll(async () => {
    await handle?.close();
  });

  it('has every table and column the migrations make, with their types and nullability, and no others', async () => {
    const { rows } = await sql<{ tableName: string; columnName: string; udtName: string; isNullable: 'YES' | 'NO' }>`
      select c.table_name, c.column_name, c.udt_name, c.is_nullable
      from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
      order by c.table_name, c.ordinal_position`.execute(handle.db);
    const names = new Names();
    const actual: Record<string, Record<string, string>> = {};
    for (const row of rows) {
      if (NOT_APP_TABLES.includes(row.tableName)) continue;
      const table = (actual[names.toCamel(row.tableName)] ??= {});
      table[names.toCamel(row.columnName)] = row.isNullable === 'YES' ? `${row.udtName} null` : row.udtName;
    }
    expect(Object.keys(actual).length).toBeGreaterThan(0);
    expect(actual).toEqual(EXPECTED);
  });
});
