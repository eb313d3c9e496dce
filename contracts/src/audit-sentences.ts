import { AUDIT_ACTIONS, CLIENT_REPORT_ACTION_PREFIX } from './audit-logs.js';

/**
 * The audit log in words: one sentence per entry, with names rather than ids ('Ada Lovelace uploaded
 * “Defence.pdf” to “Smith v Jones”'). The Audit Logs page, the vault's Audit Log tab, the dashboard's recent
 * activity and the notifications all say an entry the same way through describeAuditEntry; the raw action code
 * stays beside the sentence wherever it is shown.
 *
 * Names: the name an entry recorded at the time it was written wins (a matter renamed later still reads as it was
 * called then, as the chain vouches for it); when the entry recorded none, the list answers the current name of
 * its matter, file, folder or person in `names`, and failing both the sentence speaks of 'a matter', 'a file'.
 */

/** What a sentence needs of an entry: the list's entry fits, and so does any shape carrying these fields. */
export type AuditSentenceEntry = {
  action: string;
  actor?: { name?: string | null; email?: string | null } | null;
  targetTable?: string | null;
  targetId?: string | null;
  /** null while an archived entry's details are in cold storage. */
  details?: Record<string, unknown> | null;
  /** Current names the list looked up for what the entry recorded no name of. */
  names?: { matter?: string | null; target?: string | null } | null;
};

type Words = {
  /** Who acted: the actor's name, else their address, else Strongroom for its own entries. */
  who: string;
  d: Record<string, unknown>;
  /** The matter, quoted, or 'a matter'. */
  matter: string;
  /** The file or folder, quoted, or 'a file' / 'a folder'. */
  node: string;
  /** 'file' or 'folder'. */
  kind: string;
  /** The person the entry is about, by name or address, or 'a user'. */
  person: string;
};

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v : null);
const num = (v: unknown): number | null =>
  typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v !== '' && Number.isFinite(Number(v)) ? Number(v) : null;
const q = (v: string) => `“${v}”`;
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-GB')} ${n === 1 ? one : many}`;
/** ' (reason: …)' when the entry recorded a reason. */
const because = (d: Record<string, unknown>) => (str(d.reason) ? ` (reason: ${q(str(d.reason)!)})` : '');
const roleOf = (d: Record<string, unknown>) => (str(d.role) ? ` as ${str(d.role)}` : '');
const viaEmail = (d: Record<string, unknown>) => (str(d.email) ? ` ${q(str(d.email)!)}` : '');
/** The names of what a settings entry changed ('before'/'after' or 'changed'). */
/** The governed action of an approval entry, in words: "vault a matter" from its title when there is one. */
const approvalWhat = (d: Record<string, unknown>) => {
  const title = str(d.title);
  if (title) return title.charAt(0).toLowerCase() + title.slice(1);
  return str(d.action) ? str(d.action)!.toLowerCase().replace(/_/g, ' ') : 'carry out an action';
};

function changedFields(d: Record<string, unknown>): string {
  const keys = Array.isArray(d.changed)
    ? d.changed.map(String)
    : d.changes && typeof d.changes === 'object'
      ? Object.keys(d.changes)
      : d.after && typeof d.after === 'object'
        ? Object.keys(d.after)
        : [];
  return keys.length ? ` (${keys.join(', ')})` : '';
}

/** One sentence maker per action Strongroom writes. A test holds that every action of the log has one. */
export const AUDIT_SENTENCES: Readonly<Record<string, (w: Words) => string>> = {
  // Authentication
  USER_LOGIN: (w) => `${w.who} signed in${w.d.breakGlass === true ? ' with a recovery code while single sign-on is required' : ''}`,
  SSO_SIGN_IN: (w) =>
    `${w.who} signed in with ${str(w.d.providerName) ?? 'single sign-on'}${w.d.secondFactor === 'strongroom' ? ', second factor pending' : ''}`,
  SSO_SIGN_IN_REFUSED: (w) => `A single sign-on attempt was refused${str(w.d.reason) ? ` (${str(w.d.reason)})` : ''}`,
  USER_LOGIN_FAILED: (w) => `A sign-in as ${str(w.d.email) ? q(str(w.d.email)!) : w.who} failed`,
  USER_LOGOUT: (w) => `${w.who} signed out`,
  USER_LOGIN_MFA_EMAIL_SUCCESS: (w) => `${w.who} signed in with a code sent by email`,
  PASSWORD_RESET_REQUESTED: (w) => `A password reset was requested for${viaEmail(w.d) || ` ${w.who}`}`,
  PASSWORD_RESET_COMPLETED: (w) => `${w.who} reset their password`,
  EMAIL_VERIFICATION_CODE_SENT: (w) => `Strongroom sent an email verification code to ${w.who}`,
  MFA_EMAIL_CODE_SENT: (w) => `Strongroom sent a sign-in code by email to ${w.who}`,
  LOGIN_PASSWORD_VERIFIED: (w) => `${w.who} entered a correct password and was asked for a second factor`,
  MFA_CHALLENGE_STARTED: (w) => `${w.who} was asked for a verification code`,
  MFA_VERIFICATION_SUCCESS: (w) => `${w.who} gave a correct verification code`,
  MFA_VERIFICATION_FAILED: (w) => `${w.who} gave a wrong verification code`,
  MFA_VERIFICATION_LOCKED: (w) => `${w.who} was locked out after too many wrong verification codes`,
  MFA_RECOVERY_CODE_USED: (w) => `${w.who} used a recovery code`,
  // User management
  USER_PASSWORD_CHANGE: (w) => `${w.who} changed their password`,
  USER_UPDATE_PERMISSIONS: (w) => `${w.who} changed the permissions of ${w.person}`,
  // A deactivation keeps the account and its history; the person is deactivated, never removed.
  USER_REMOVE: (w) => `${w.who} deactivated ${w.person}${because(w.d)}`,
  INVITE_USER: (w) => `${w.who} invited${viaEmail(w.d) || ' someone'}${roleOf(w.d)}`,
  ACCEPT_INVITATION: (w) => `${w.who} accepted an invitation${roleOf(w.d)}`,
  MFA_EMAIL_ENABLED: (w) => `${w.who} turned on sign-in codes by email`,
  MFA_TOTP_ENABLED: (w) => `${w.who} turned on an authenticator app`,
  MFA_DISABLED: (w) => `${w.who} turned off two-factor sign-in`,
  USER_ROLE_CHANGE: (w) =>
    `${w.who} changed the role of ${w.person}${str(w.d.from) && str(w.d.to) ? ` from ${str(w.d.from)} to ${str(w.d.to)}` : ''}`,
  USER_REACTIVATE: (w) => `${w.who} reactivated ${w.person}`,
  MFA_RESET: (w) => `${w.who} reset the two-factor sign-in of ${w.person}${because(w.d)}`,
  MFA_SETUP_INITIATED: (w) => `${w.who} began setting up two-factor sign-in`,
  MFA_RECOVERY_CODES_REGENERATED: (w) => `${w.who} made new recovery codes`,
  PASSKEY_REGISTERED: (w) => `${w.who} added the passkey ${str(w.d.name) ? q(str(w.d.name)!) : ''}`.trimEnd(),
  PASSKEY_RENAMED: (w) => `${w.who} renamed a passkey${str(w.d.name) ? ` to ${q(str(w.d.name)!)}` : ''}`,
  PASSKEY_REMOVED: (w) => `${w.who} removed the passkey ${str(w.d.name) ? q(str(w.d.name)!) : ''}`.trimEnd(),
  PASSKEY_CLONE_SUSPECTED: (w) =>
    `Strongroom refused ${w.who}'s passkey ${str(w.d.name) ? q(str(w.d.name)!) : ''}: its counter went back (possibly copied)`,
  PASSKEY_POLICY_UPDATED: (w) => `${w.who} ${w.d.allowPasskeySignIn === true ? 'allowed' : 'stopped'} signing in with a passkey alone`,
  UNDO_USER_UPDATE: (w) => `${w.who} undid a change to ${w.person}`,
  INVITATION_RESENT: (w) => `${w.who} sent the invitation to${viaEmail(w.d) || ' someone'} again`,
  INVITATION_REVOKED: (w) => `${w.who} withdrew the invitation to${viaEmail(w.d) || ' someone'}`,
  GUEST_ACCESS_GRANTED: (w) => `${w.who} gave ${w.person} access to ${w.matter}`,
  GUEST_ACCESS_REVOKED: (w) => `${w.who} took away the access of ${w.person} to ${w.matter}`,
  UPDATE_PROFILE: (w) => `${w.who} updated their profile`,
  // Matters
  CREATE_MATTER: (w) => `${w.who} created the matter ${w.matter}${str(w.d.matterNumber) ? ` (${str(w.d.matterNumber)})` : ''}`,
  UPDATE_MATTER: (w) => `${w.who} edited the matter ${w.matter}${changedFields(w.d)}`,
  DELETE_MATTER: (w) => `${w.who} deleted the matter ${w.matter}`,
  VAULT_MATTER: (w) =>
    `${w.who} vaulted the matter ${w.matter}${num(w.d.retentionYears) ? ` for ${plural(num(w.d.retentionYears)!, 'year')}` : ''}`,
  APPLY_LEGAL_HOLD: (w) => `${w.who} placed ${w.matter} under legal hold${because(w.d)}`,
  REMOVE_LEGAL_HOLD: (w) => `${w.who} lifted the legal hold on ${w.matter}${because(w.d)}`,
  UNDO_UPDATE_MATTER: (w) => `${w.who} undid an edit of the matter ${w.matter}`,
  // Files and folders
  UPLOAD_FILE: (w) =>
    num(w.d.version) !== null && num(w.d.version)! > 1
      ? `${w.who} uploaded version ${num(w.d.version)} of ${w.node} to ${w.matter}`
      : `${w.who} uploaded ${w.node} to ${w.matter}`,
  DOWNLOAD_FILE: (w) =>
    num(w.d.version) !== null
      ? `${w.who} downloaded version ${num(w.d.version)} of ${w.node} from ${w.matter}`
      : `${w.who} downloaded ${w.node} from ${w.matter}`,
  SEARCH: (w) =>
    `${w.who} searched documents for ${str(w.d.query) ? q(str(w.d.query)!) : 'a text'}${num(w.d.count) === null ? '' : ` (${plural(num(w.d.count)!, 'result')}${w.d.countCapped === true ? ' or more' : ''})`}`,
  PREVIEW_FILE: (w) => `${w.who} previewed ${w.node} in ${w.matter}`,
  DOWNLOAD_ZIP: (w) =>
    `${w.who} downloaded ${str(w.d.folderName) ? `the folder ${q(str(w.d.folderName)!)} of ` : 'the whole of '}${w.matter} as a ZIP${
      num(w.d.fileCount) !== null ? ` (${plural(num(w.d.fileCount)!, 'file')})` : ''
    }`,
  MOVE_NODE: (w) => `${w.who} moved the ${w.kind} ${w.node} in ${w.matter}`,
  CREATE_FOLDER: (w) => `${w.who} created the folder ${w.node} in ${w.matter}`,
  DELETE_NODE: (w) => `${w.who} deleted the ${w.kind} ${w.node} from ${w.matter}`,
  RENAME_NODE: (w) =>
    str(w.d.from) && str(w.d.to)
      ? `${w.who} renamed the ${w.kind} ${q(str(w.d.from)!)} to ${q(str(w.d.to)!)} in ${w.matter}`
      : `${w.who} renamed the ${w.kind} ${w.node} in ${w.matter}`,
  UNDO_MOVE_NODE: (w) => `${w.who} undid the move of the ${w.kind} ${w.node} in ${w.matter}`,
  UNDO_RENAME_NODE: (w) => `${w.who} undid the renaming of the ${w.kind} ${w.node} in ${w.matter}`,
  UNDO_DELETE_NODE: (w) => `${w.who} undid the deletion of the ${w.kind} ${w.node} in ${w.matter}`,
  RESTORE_NODE: (w) => `${w.who} restored the ${w.kind} ${w.node} from the recycle bin of ${w.matter}`,
  PURGE_NODE: (w) => `Strongroom emptied the ${w.kind} ${w.node} from the recycle bin of ${w.matter} for good`,
  UPLOAD_ABORTED: (w) => `${w.who} cancelled the upload of ${w.node} to ${w.matter}`,
  UPLOAD_EXPIRED: (w) => `The unfinished upload of ${w.node} to ${w.matter} expired`,
  UPLOAD_FAILED: (w) => `The upload of ${w.node} to ${w.matter} failed`,
  RESTORE_VERSION: (w) =>
    `${w.who} restored version ${num(w.d.restoredFromVersion) ?? '?'} of ${w.node} in ${w.matter}${
      num(w.d.version) !== null ? ` as version ${num(w.d.version)}` : ''
    }`,
  DOWNLOAD_VAULTED_FILE: (w) => `${w.who} downloaded the vaulted file ${w.node} from ${w.matter}`,
  // The vault
  VAULT_TRANSFER_INITIATED: (w) =>
    `Strongroom began moving ${num(w.d.files) !== null ? plural(num(w.d.files)!, 'file') : 'the files'} of ${w.matter} into the vault`,
  VAULT_TRANSFER_COMPLETED: (w) => `Strongroom finished moving ${w.matter} into the vault`,
  VAULT_TRANSFER_FAILED: (w) => `Strongroom could not move ${str(w.d.path) ? q(str(w.d.path)!) : 'a file'} of ${w.matter} into the vault`,
  VAULT_CERTIFICATE_ISSUED: (w) => `Strongroom signed the vault certificate of ${w.matter}`,
  VAULT_VERIFICATION_FAILED: (w) =>
    `Strongroom found ${str(w.d.path) ? q(str(w.d.path)!) : 'a file'} of ${w.matter} different from its record`,
  VAULT_VERIFICATION_PASSED: (w) =>
    `Strongroom re-read ${str(w.d.path) ? q(str(w.d.path)!) : 'a file'} of ${w.matter} and found it as recorded`,
  VAULT_REPORT_EXPORTED: (w) => `${w.who} exported the vault report${w.matter === 'a matter' ? '' : ` of ${w.matter}`}`,
  VAULT_REGISTER_EXPORTED: (w) =>
    `${w.who} exported the vault register${num(w.d.rowCount) !== null ? ` of ${plural(num(w.d.rowCount)!, 'matter')}` : ''}${str(w.d.format) ? ` as ${str(w.d.format)!.toUpperCase()}` : ''}`,
  // Settings
  UPDATE_SEARCH_SETTINGS: (w) => `${w.who} changed the document search languages${changedFields(w.d)}`,
  SEARCH_REINDEX_STARTED: (w) =>
    `${w.who} started re-indexing ${num(w.d.total) === null ? 'the documents' : plural(num(w.d.total)!, 'document version')}`,
  UPDATE_RETENTION: (w) => `${w.who} changed the default retention period`,
  UPDATE_OBJECT_LOCK_MODE: (w) => `${w.who} changed the vault's lock mode`,
  UPDATE_ORG_INFO: (w) => `${w.who} updated the organization's details${changedFields(w.d)}`,
  UPDATE_FEATURE_FLAGS: (w) => `${w.who} changed the feature flags${changedFields(w.d)}`,
  ORGANIZATION_CREATED: (w) => `${w.who} created the organization${str(w.d.name) ? ` ${q(str(w.d.name)!)}` : ''}`,
  SECURITY_POLICY_CREATED: (w) => `${w.who} created the security policy${str(w.d.name) ? ` ${q(str(w.d.name)!)}` : ''}`,
  SECURITY_POLICY_UPDATED: (w) => `${w.who} updated the security policy${str(w.d.name) ? ` ${q(str(w.d.name)!)}` : ''}`,
  SECURITY_POLICY_DELETED: (w) => `${w.who} deleted the security policy${str(w.d.name) ? ` ${q(str(w.d.name)!)}` : ''}`,
  UPDATE_APPROVAL_POLICY: (w) => `${w.who} changed which actions need a second approver${changedFields(w.d)}`,
  API_TOKEN_CREATED: (w) =>
    `${w.who} created the API token ${str(w.d.name) ? q(str(w.d.name)!) : ''} (${Array.isArray(w.d.scopes) ? w.d.scopes.join(', ') : 'scopes unknown'})`,
  API_TOKEN_REVOKED: (w) =>
    `${w.who} revoked the API token ${str(w.d.name) ? q(str(w.d.name)!) : ''}${str(w.d.ownerName) ? ` of ${str(w.d.ownerName)}` : ''}`,
  SSO_LINKED: (w) => `${w.who} linked ${str(w.d.providerName) ?? 'the single sign-on provider'} to their account`,
  SSO_UNLINKED: (w) => `${w.who} unlinked the single sign-on provider from their account`,
  SSO_USER_CREATED: (w) =>
    `${w.who} joined through ${str(w.d.providerName) ?? 'single sign-on'}${str(w.d.role) ? ` as ${str(w.d.role)}` : ''}`,
  SSO_SETTINGS_UPDATED: (w) =>
    `${w.who} changed single sign-on${str(w.d.providerName) ? ` (${str(w.d.providerName)})` : ''}${w.d.requireSso === true ? ', required for members' : ''}`,
  // Approvals
  APPROVAL_REQUESTED: (w) => `${w.who} asked for approval to ${approvalWhat(w.d)}${because(w.d)}`,
  APPROVAL_GRANTED: (w) => `${w.who} approved ${str(w.d.requesterName) ?? 'a colleague'}'s request to ${approvalWhat(w.d)}`,
  APPROVAL_REJECTED: (w) => `${w.who} rejected ${str(w.d.requesterName) ?? 'a colleague'}'s request to ${approvalWhat(w.d)}${because(w.d)}`,
  APPROVAL_EXPIRED: (w) => `The request to ${approvalWhat(w.d)} expired without a decision`,
  APPROVAL_VOIDED: (w) => `The request to ${approvalWhat(w.d)} became void${str(w.d.voidReason) ? `: ${str(w.d.voidReason)}` : ''}`,
  APPROVAL_EXECUTED: (w) =>
    `Strongroom carried out ${str(w.d.requesterName) ?? 'a colleague'}'s approved request to ${approvalWhat(w.d)}${str(w.d.approverName) ? ` (approved by ${str(w.d.approverName)})` : ''}`,
  // System
  AUDIT_LOG_ARCHIVED: (w) =>
    `${w.who} archived ${num(w.d.entryCount) !== null ? plural(num(w.d.entryCount)!, 'audit log entry', 'audit log entries') : 'audit log entries'}`,
  AUDIT_ARCHIVAL_STARTED: (w) =>
    `${w.who} started an archival of ${num(w.d.entriesTotal) !== null ? plural(num(w.d.entriesTotal)!, 'old audit log entry', 'old audit log entries') : 'old audit log entries'}`,
  AUDIT_ARCHIVAL_COMPLETED: (w) =>
    `Strongroom finished an archival of ${num(w.d.entriesDone) !== null ? plural(num(w.d.entriesDone)!, 'audit log entry', 'audit log entries') : 'audit log entries'}`,
  AUDIT_ARCHIVAL_FAILED: (w) =>
    `Strongroom could not finish an archival of old audit log entries${str(w.d.message) ? `: ${str(w.d.message)}` : ''}`,
  RETENTION_CLEANUP: (w) => `Strongroom deleted the vaulted files of ${w.matter} at the end of their retention`,
  // Disposition review
  DISPOSITION_QUEUED: (w) =>
    `Strongroom put ${w.matter} in the disposition review: its retention ends on ${str(w.d.retentionExpiresAt)?.slice(0, 10) ?? 'a date soon'}`,
  DISPOSITION_APPROVED: (w) =>
    `${w.who} approved the destruction of ${w.matter} at the end of its retention${str(w.d.approvedByNames) ? ` (approved by ${str(w.d.approvedByNames)})` : ''}${because(w.d)}`,
  DISPOSITION_EXTENDED: (w) =>
    `${w.who} extended the retention of ${w.matter}${str(w.d.retainUntil) ? ` to ${str(w.d.retainUntil)!.slice(0, 10)}` : ''}${because(w.d)}`,
  DISPOSITION_HELD: (w) => `${w.who} placed ${w.matter} under legal hold instead of destroying it${because(w.d)}`,
  DISPOSITION_REMINDER: (w) =>
    `Strongroom reminded the administrators of ${num(w.d.overdue) !== null ? plural(num(w.d.overdue)!, 'matter', 'matters') : 'matters'} whose retention has ended without a disposition decision`,
  EXPORT_AUDIT_LOGS: (w) =>
    `${w.who} exported ${num(w.d.rowCount) !== null ? plural(num(w.d.rowCount)!, 'audit log entry', 'audit log entries') : 'the audit log'} as CSV`,
  AUDIT_CHAIN_EXPORTED: (w) => `${w.who} exported the audit chain for checking offline`,
  COMPLIANCE_CHECK_COMPLETED: (w) => `${w.who} ran a compliance check`,
  VULNERABILITY_SCAN_COMPLETED: (w) => `${w.who} ran a vulnerability scan`,
  SECURITY_ASSESSMENT_COMPLETED: (w) => `${w.who} ran a security assessment`,
  // Security events Strongroom records itself
  LOGIN_SUCCESS: (w) => `${w.who} signed in`,
  LOGIN_FAILED: (w) => `A sign-in as ${w.who} failed`,
  LOGOUT: (w) => `${w.who} signed out`,
  PASSWORD_RESET_REQUEST: (w) => `A password reset was requested for ${w.who}`,
  PASSWORD_RESET_SUCCESS: (w) => `${w.who} reset their password`,
  PASSWORD_CHANGE_SUCCESS: (w) => `${w.who} changed their password`,
  MFA_SETUP_COMPLETED: (w) => `${w.who} finished setting up two-factor sign-in`,
  VAULT_ACCESS_ATTEMPT: (w) => `${w.who} tried to open the vault`,
  VAULT_ACCESS_GRANTED: (w) => `${w.who} was let into the vault`,
  VAULT_ACCESS_DENIED: (w) => `${w.who} was refused entry to the vault`,
  SENSITIVE_DATA_DOWNLOAD: (w) => `${w.who} downloaded sensitive data`,
  ADMIN_USER_INVITED: (w) => `${w.who} invited${viaEmail(w.d) || ' someone'}`,
  ADMIN_USER_PERMISSIONS_CHANGED: (w) => `${w.who} changed the permissions of ${w.person}`,
  ADMIN_SETTINGS_CHANGED: (w) => `${w.who} changed the organization's settings`,
  INTEGRITY_CHECK_PASSED: (w) => `${w.who} checked the audit chain and it held`,
  INTEGRITY_CHECK_FAILED: (w) => `${w.who} checked the audit chain and found it broken`,
  SUSPICIOUS_ACTIVITY_DETECTED: (w) => `Strongroom noticed suspicious activity by ${w.who}`,
};

/** Whether an action has a sentence of its own (the others read 'X recorded “the action's words”'). */
export const hasAuditSentence = (action: string) => Object.hasOwn(AUDIT_SENTENCES, action);

/** The action's code as words, for what has no sentence: 'SOME_NEW_ACTION' -> 'some new action'. */
const actionWords = (action: string) => action.toLowerCase().replace(/_/g, ' ');

function wordsOf(e: AuditSentenceEntry): Words {
  const d = e.details ?? {};
  const names = e.names ?? {};
  const who = str(e.actor?.name) ?? str(e.actor?.email) ?? 'Strongroom';
  const kind = d.nodeType === 'folder' || e.action === 'CREATE_FOLDER' ? 'folder' : 'file';
  const matterName = str(d.matterName) ?? str(names.matter) ?? (e.targetTable === 'matters' ? str(names.target) : null);
  const nodeName = str(d.fileName) ?? str(d.name) ?? (e.targetTable === 'nodes' ? str(names.target) : null) ?? str(d.path);
  const personName = (e.targetTable === 'users' ? str(names.target) : null) ?? str(d.fullName) ?? str(d.email);
  return {
    who,
    d,
    matter: matterName ? q(matterName) : 'a matter',
    node: nodeName ? q(nodeName) : `a ${kind}`,
    kind,
    person: personName ?? 'a user',
  };
}

/**
 * The entry as a sentence, without a full stop: 'Ada Lovelace uploaded “Defence.pdf” to “Smith v Jones”'.
 * A browser's report says so ('A browser reported …'); an action without a sentence of its own is still named.
 */
export function describeAuditEntry(entry: AuditSentenceEntry): string {
  const w = wordsOf(entry);
  if (entry.action.startsWith(CLIENT_REPORT_ACTION_PREFIX)) {
    const reported = entry.action.slice(CLIENT_REPORT_ACTION_PREFIX.length);
    return `A browser of ${w.who} reported ${q(actionWords(reported))}`;
  }
  const make = AUDIT_SENTENCES[entry.action];
  return make ? make(w) : `${w.who} recorded ${q(actionWords(entry.action))}`;
}

/** Every action the log's filter lists that has no sentence of its own (empty: a test holds it so). */
export const auditActionsWithoutSentence = () => AUDIT_ACTIONS.filter((a) => !hasAuditSentence(a));
