// What other features use of MFA; its repository stays private to this feature.

// The gate of sensitive actions: a fresh code required and checked (the access guard).
export { freshCodeRequired, withFreshMfa } from './mfa.service.js';
// Two accounts enrolled in one authenticator: one person (approvals refuse such a second approver).
export { shareAuthenticator } from './mfa.service.js';
// The second step of signing in: codes reserved, checked, consumed, and the lockout told (auth).
export {
  confirmCodeFailure,
  consumeEmailCode,
  consumeTotp,
  createEmailCode,
  releaseCodeAttempt,
  reserveCodeAttempt,
  tellLockout,
} from './mfa.service.js';
// An emailed code for a signed-in user's sensitive action (auth's routes).
export { sendActionEmailCode } from './mfa-manage.service.js';
// The authenticator's current code (tests and the probe sign in with it).
export { currentTotp } from './totp.js';
// Recovery codes: spent at sign-in (auth), counted (settings), cleared with the authenticator (team).
export { clearRecoveryCodes, remainingRecoveryCodes, spendUserRecoveryCode, tellRecoveryCodeUsed } from './recovery-codes.service.js';
// An organization's secret sealed at rest under the installation's key material (the single sign-on client secret).
export { openOrganizationSecret, sealOrganizationSecret } from './secret-box.js';
