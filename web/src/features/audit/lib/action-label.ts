import { CLIENT_REPORT_ACTION_PREFIX as CLIENT_REPORTED_PREFIX } from '@strongroom/contracts';

/**
 * Entries a browser reported (security events and forensic notes sent by the client) carry a prefix on their
 * action: the table marks them, so a reader never takes what a browser claimed for what the server itself saw.
 */
export function isClientReported(action: string): boolean {
  return action.startsWith(CLIENT_REPORTED_PREFIX) && action.length > CLIENT_REPORTED_PREFIX.length;
}

/**
 * The action as the table shows it: the server's name for its own entries; for a browser's report, the reported
 * name in words ('CLIENT_REPORTED_LOGIN_FAILED' reads 'Login failed').
 */
export function actionLabel(action: string): string {
  if (!isClientReported(action)) return action;
  const words = action
    .slice(CLIENT_REPORTED_PREFIX.length)
    .split('_')
    .filter(Boolean)
    .map((w, i) => (ACRONYMS.has(w) ? w : i === 0 ? w.charAt(0) + w.slice(1).toLowerCase() : w.toLowerCase()));
  return words.join(' ');
}

/** Abbreviations kept in capitals in a readable action name. */
const ACRONYMS = new Set(['MFA', 'TOTP', 'IP', 'ID', 'CSV', 'API', 'URL', 'S3']);
