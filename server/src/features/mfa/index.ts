// What other features use of MFA: the gate of sensitive actions, the second step of signing in, emailed codes
// for signed-in users, and the authenticator's current code.
export {
  confirmCodeFailure,
  consumeEmailCode,
  consumeTotp,
  createEmailCode,
  freshCodeRequired,
  releaseCodeAttempt,
  reserveCodeAttempt,
  tellLockout,
  withFreshMfa,
} from './mfa.service.js';
export { sendActionEmailCode } from './mfa-manage.service.js';
export { currentTotp } from './totp.js';
export { clearRecoveryCodes, remainingRecoveryCodes, spendUserRecoveryCode, tellRecoveryCodeUsed } from './recovery-codes.service.js';
