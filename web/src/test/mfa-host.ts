/**
 * The app's host of the MFA dialogs, for feature tests whose calls may demand a fresh code: a feature does not
 * import the app or another feature, test support may.
 */
export { MfaHost } from '@/app/mfa-host';
