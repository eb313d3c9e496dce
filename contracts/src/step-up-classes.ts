/**
 * Risk classes of step-up: a system MFA token serves only operations of the class it was issued for, so a
 * token obtained to look at statistics cannot invite an administrator or delete a matter. A person's own second
 * factor's settings (MFA_SETTINGS: new recovery codes) are a class of their own, 'own-mfa': a token bought to
 * change one's own settings manages nobody else. Switching one's method takes a code of the current factor
 * itself, never a token. An operation not listed here is a class of its own. The server enforces the classes;
 * the web keeps a token for its class, so a code given once is not asked for again within the class for the 30
 * minutes the token lives.
 */
const RISK_CLASSES: Readonly<Record<string, string>> = {
  VIEW_ARCHIVAL_STATS: 'insight',
  REVIEW_MIGRATION_LOGS: 'insight',
  EXPORT_AUDIT_LOGS: 'export',
  DELETE_MATTER: 'matters',
  VAULT_MATTER: 'matters',
  MFA_VAULT_OPERATIONS: 'matters',
  MFA_USER_MANAGEMENT: 'people',
  MFA_SETTINGS: 'own-mfa',
  MANAGE_FEATURE_FLAGS: 'organization',
  MFA_ORGANIZATION_SETTINGS: 'organization',
  MFA_RETENTION_POLICIES: 'organization',
  MFA_SYSTEM_OPERATIONS: 'organization',
};

/** The risk class of a step-up operation. */
export function riskClassOf(operation: string): string {
  return RISK_CLASSES[operation] ?? `operation:${operation}`;
}
