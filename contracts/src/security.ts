import { z } from 'zod';
import { SECURITY_EVENT_ACTIONS } from './constants.js';
import { MSG } from './messages.js';
import { jsonObjectField, optionalMfaToken, text } from './common.js';

const targetId = text().max(200).optional();
/** Free-form, but bounded: 16 KB serialized and 8 levels at most, and the text rule inside. */
const details = jsonObjectField('Details').optional();

export const securityEventLogRequest = z.strictObject({
  action: z.enum(SECURITY_EVENT_ACTIONS, { error: MSG.securityActionInvalid }),
  targetId,
  details,
});
export type SecurityEventLogRequest = z.infer<typeof securityEventLogRequest>;
export const forensicLogRequest = z.strictObject({
  action: text({ error: MSG.actionEmpty }).trim().min(1, { error: MSG.actionEmpty }).max(100),
  targetId,
  details,
});
export type ForensicLogRequest = z.infer<typeof forensicLogRequest>;
export const securityLogResponse = z.object({ success: z.literal(true), id: z.string() });
export type SecurityLogResponse = z.infer<typeof securityLogResponse>;

// ---- Security tooling (administrators): policies, compliance check, vulnerability scans, assessments -------

export const SECURITY_TOOLING_MSG = {
  sectionTitle: 'Security tooling',
  adminsOnly: 'Only administrators can use the security tooling.',
  policyNameLength: 'Policy name must be between 3 and 100 characters.',
  policyNameChars: 'Policy name can only contain letters, numbers, and underscores.',
  policyDescriptionLength: 'Policy description must be between 10 and 500 characters.',
  policyVersion: 'Policy version must be a positive integer.',
  policyDefinition: 'Policy definition must be a map of at most 50 keys with text, number or true/false values.',
  invalidOperationPayload: 'Invalid payload for the specified operation.',
  invalidOperation: 'Operation must be one of create, update or delete.',
  policyExists: (name: string) => `A policy named ${name} exists already.`,
  policyNotFound: (name: string) => `No policy named ${name} exists.`,
  policyVersionStale: 'The policy was changed by someone else since you read it. Reload it and try again.',
  policyCreated: (name: string) => `Policy ${name} created.`,
  policyUpdated: (name: string, version: number) => `Policy ${name} updated to version ${version}.`,
  policyDeleted: (name: string) => `Policy ${name} deleted.`,
  targetTypeInvalid: 'Target type must be one of APPLICATION, INFRASTRUCTURE, DATABASE, NETWORK.',
  targetIdentifierEmpty: 'Target identifier cannot be empty.',
  scanIdsEmpty: 'At least one scan ID must be provided.',
  scanIdInvalid: 'Each scan ID must be a valid UUID.',
  scanIdsTooMany: 'At most 50 scans can be combined in one assessment.',
  scanNotFound: 'One or more scans were not found.',
  // Toasts
  complianceCompliant: (total: number) => `Compliance check passed: all ${total} checks compliant.`,
  complianceWarning: (nonCompliant: number, errors: number) =>
    `Compliance check found ${nonCompliant} non-compliant check(s)${errors > 0 ? ` and ${errors} error(s)` : ''}.`,
  scanClean: 'Vulnerability scan completed: no vulnerabilities found.',
  scanFound: (n: number) => `Vulnerability scan completed: ${n} vulnerabilit${n === 1 ? 'y' : 'ies'} found.`,
  scanDone: (target: string) => `Vulnerability scan of ${target} completed.`,
  assessmentDone: (level: string) => `Security assessment completed: overall risk ${level}.`,
  complianceDone: 'Compliance check completed.',
} as const;

export const SECURITY_POLICY_LIMITS = {
  nameMin: 3,
  nameMax: 100,
  descriptionMin: 10,
  descriptionMax: 500,
  definitionKeysMax: 50,
  definitionKeyMax: 100,
  definitionValueMax: 1000,
} as const;

/**
 * Definition keys the compliance check reads from active policies (any other key is kept and shown, not checked):
 * minRetentionYears (number: the organization's default retention must be at least this), requireMfa (boolean,
 * default true), adminSignInReviewDays (number, default 90), archiveAfterDays (number, default 180),
 * vaultSampleSize (number, 0 = every vaulted file, default 0).
 */
export const SECURITY_POLICY_KEYS = [
  'minRetentionYears',
  'requireMfa',
  'adminSignInReviewDays',
  'archiveAfterDays',
  'vaultSampleSize',
] as const;

export const SECURITY_POLICY_OPERATIONS = ['create', 'update', 'delete'] as const;
export type SecurityPolicyOperation = (typeof SECURITY_POLICY_OPERATIONS)[number];

const policyName = text({ error: SECURITY_TOOLING_MSG.policyNameLength })
  .min(SECURITY_POLICY_LIMITS.nameMin, { error: SECURITY_TOOLING_MSG.policyNameLength })
  .max(SECURITY_POLICY_LIMITS.nameMax, { error: SECURITY_TOOLING_MSG.policyNameLength })
  .regex(/^[A-Za-z0-9_]+$/, { error: SECURITY_TOOLING_MSG.policyNameChars });

const definitionValue = z.union([text().max(SECURITY_POLICY_LIMITS.definitionValueMax), z.number().finite(), z.boolean()], {
  error: SECURITY_TOOLING_MSG.policyDefinition,
});
export const securityPolicyDefinition = z
  .record(text().min(1).max(SECURITY_POLICY_LIMITS.definitionKeyMax), definitionValue, { error: SECURITY_TOOLING_MSG.policyDefinition })
  .refine((d) => Object.keys(d).length <= SECURITY_POLICY_LIMITS.definitionKeysMax, { error: SECURITY_TOOLING_MSG.policyDefinition });
export type SecurityPolicyDefinition = z.infer<typeof securityPolicyDefinition>;

export const securityPolicyInput = z.strictObject({
  name: policyName,
  description: text({ error: SECURITY_TOOLING_MSG.policyDescriptionLength })
    .trim()
    .min(SECURITY_POLICY_LIMITS.descriptionMin, { error: SECURITY_TOOLING_MSG.policyDescriptionLength })
    .max(SECURITY_POLICY_LIMITS.descriptionMax, { error: SECURITY_TOOLING_MSG.policyDescriptionLength }),
  definition: securityPolicyDefinition.default({}),
  /** On create the first version (default 1); on update the version the client read (a stale one answers 409). */
  version: z
    .number({ error: SECURITY_TOOLING_MSG.policyVersion })
    .int({ error: SECURITY_TOOLING_MSG.policyVersion })
    .positive({ error: SECURITY_TOOLING_MSG.policyVersion })
    .optional(),
  isActive: z.boolean().default(true),
});
export type SecurityPolicyInput = z.infer<typeof securityPolicyInput>;

/**
 * create needs `policy`; update needs `policy` (the policy named policyName, or policy.name when policyName is
 * absent, is updated; a different policy.name renames it); delete needs `policyName`.
 */
export const policyManageRequest = z
  .strictObject({
    operation: z.enum(SECURITY_POLICY_OPERATIONS, { error: SECURITY_TOOLING_MSG.invalidOperation }),
    policy: securityPolicyInput.optional(),
    policyName: policyName.optional(),
    /** A fresh code or system MFA token: asked for while the organization's MFA_SYSTEM_OPERATIONS flag is on. */
    mfaToken: optionalMfaToken,
  })
  .superRefine((v, ctx) => {
    const ok = v.operation === 'delete' ? v.policyName !== undefined : v.policy !== undefined;
    if (!ok) ctx.addIssue({ code: 'custom', message: SECURITY_TOOLING_MSG.invalidOperationPayload, path: [] });
  });
export type PolicyManageRequest = z.infer<typeof policyManageRequest>;

export const securityPolicy = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  definition: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])),
  version: z.number().int(),
  isActive: z.boolean(),
  organizationId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SecurityPolicy = z.infer<typeof securityPolicy>;

export const policyManageResponse = z.object({ message: z.string(), policy: securityPolicy.nullable() });
export type PolicyManageResponse = z.infer<typeof policyManageResponse>;
/** GET /_api/security/policies: the organization's policies (current versions), by name. */
export const securityPoliciesResponse = z.object({ policies: z.array(securityPolicy) });
export type SecurityPoliciesResponse = z.infer<typeof securityPoliciesResponse>;

export const COMPLIANCE_CHECK_NAMES = [
  'MFA_ENROLLMENT',
  'RETENTION_MINIMUM',
  'VAULT_LOCKS',
  'AUDIT_CHAIN',
  'ARCHIVAL_CURRENT',
  'ADMIN_SIGN_IN_REVIEW',
] as const;
export type ComplianceCheckName = (typeof COMPLIANCE_CHECK_NAMES)[number];
export const COMPLIANCE_STATUSES = ['compliant', 'non_compliant', 'error'] as const;
export const complianceCheckResult = z.object({
  name: z.enum(COMPLIANCE_CHECK_NAMES),
  status: z.enum(COMPLIANCE_STATUSES),
  detail: z.string(),
  /** The active policies whose definition set this check's threshold (empty: the product's default). */
  policies: z.array(z.string()),
});
export type ComplianceCheckResult = z.infer<typeof complianceCheckResult>;
export const complianceReport = z.object({
  reportId: z.string(),
  organizationId: z.string(),
  generatedAt: z.string(),
  summary: z.object({ totalChecks: z.number(), compliant: z.number(), nonCompliant: z.number(), errors: z.number() }),
  results: z.array(complianceCheckResult),
});
export type ComplianceReport = z.infer<typeof complianceReport>;

export const SCAN_TARGET_TYPES = ['APPLICATION', 'INFRASTRUCTURE', 'DATABASE', 'NETWORK'] as const;
export type ScanTargetType = (typeof SCAN_TARGET_TYPES)[number];
export const SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const RISK_LEVELS = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

export const vulnerabilityScanRequest = z.strictObject({
  targetType: z.enum(SCAN_TARGET_TYPES, { error: SECURITY_TOOLING_MSG.targetTypeInvalid }),
  targetIdentifier: text({ error: SECURITY_TOOLING_MSG.targetIdentifierEmpty })
    .trim()
    .min(1, { error: SECURITY_TOOLING_MSG.targetIdentifierEmpty })
    .max(200),
});
export type VulnerabilityScanRequest = z.infer<typeof vulnerabilityScanRequest>;

export const scanFinding = z.object({
  id: z.string(),
  /** A stable name of the check (HSTS_MISSING, DEPENDENCY_ADVISORY, ...). */
  check: z.string(),
  severity: z.enum(SEVERITIES),
  title: z.string(),
  detail: z.string(),
  recommendation: z.string(),
});
export type ScanFinding = z.infer<typeof scanFinding>;
const bySeverity = z.object({ CRITICAL: z.number(), HIGH: z.number(), MEDIUM: z.number(), LOW: z.number(), INFO: z.number() });
/** INFO findings are facts worth knowing, not vulnerabilities: totalVulnerabilities counts CRITICAL to LOW. */
export const vulnerabilityScanResponse = z.object({
  message: z.string(),
  scanId: z.string(),
  /** A scan alone makes no assessment: always null here (POST security-assessment combines scans). */
  assessmentId: z.string().nullable(),
  targetType: z.enum(SCAN_TARGET_TYPES),
  targetIdentifier: z.string(),
  createdAt: z.string(),
  summary: z.object({ totalVulnerabilities: z.number(), bySeverity }),
  findings: z.array(scanFinding),
});
export type VulnerabilityScanResponse = z.infer<typeof vulnerabilityScanResponse>;

export const securityAssessmentRequest = z.strictObject({
  scanIds: z
    .array(z.uuid({ error: SECURITY_TOOLING_MSG.scanIdInvalid }), { error: SECURITY_TOOLING_MSG.scanIdsEmpty })
    .min(1, { error: SECURITY_TOOLING_MSG.scanIdsEmpty })
    .max(50, { error: SECURITY_TOOLING_MSG.scanIdsTooMany }),
});
export type SecurityAssessmentRequest = z.infer<typeof securityAssessmentRequest>;
export const securityAssessmentResponse = z.object({
  message: z.string(),
  assessmentId: z.string(),
  overallRiskLevel: z.enum(RISK_LEVELS),
  summary: z.object({
    scans: z.number(),
    totalVulnerabilities: z.number(),
    bySeverity,
    /** One sentence: the worst findings and what to do first. */
    text: z.string(),
  }),
});
export type SecurityAssessmentResponse = z.infer<typeof securityAssessmentResponse>;
