/**
 * Every text a Strongroom user reads in an answer or on a screen, written once: server answers and client
 * screens both read them from here (the matters, folders, uploads and undo texts sit beside their calls).
 */
export const MSG = {
  // Session
  sessionNotFound: 'Session not found. Please log in again.',
  sessionExpiredToast: 'Your session has expired. Please log in again.',
  notAuthenticated: 'Please log in to continue.',
  invalidProfile: 'Your user profile is invalid. Please contact support for assistance.',
  organizationMissing: 'Your account is not associated with any organization. Please contact support for assistance.',
  apiVersionMismatch: 'Application version mismatch. Please refresh the page.',
  networkError: 'Connection error. Please check your internet connection and try again.',
  authTimeout: 'Authentication request timed out. Please try again.',
  authFailed: 'Authentication failed. Please try again.',
  versionCritical: 'Your application version is out of date. Please refresh the page to get the latest version.',
  versionDeprecated: 'Your application version is outdated. Please refresh soon to get the latest features and security updates.',

  // Sign-in and MFA
  emailRequired: 'Email is required',
  passwordRequired: 'Password is required',
  invalidCredentials: 'Invalid email or password.',
  accountDeactivated: 'Invalid email or password.',
  loginFailed: 'Login failed. Please try again.',
  tooManyAttempts: 'Too many sign-in attempts. Please wait 15 minutes and try again.',
  tooManyRequests: 'Too many requests. Please wait a moment and try again.',
  challengeFailed: 'Failed to start the verification process.',
  challengeFailedShort: 'Failed to initiate MFA challenge',
  totpVerifyFailed: 'Failed to verify MFA code.',
  accountSetupIncomplete: 'Account setup incomplete. Please contact support.',
  emailAuthRequired: 'Authentication required to send verification code.',
  emailSendFailed: 'Failed to send verification code. Please try again.',
  emailCodeSent: 'Verification code sent to your email.',
  emailCodeSentAlt: 'Verification code sent. Please check your email.',
  verificationFailed: 'Verification failed. Please try again.',
  mfaConfigError: 'MFA configuration error. Please contact support.',
  dialogAuthError: 'Authentication error. Please try again.',
  dialogVerificationFailed: 'Verification failed.',
  loginVerified: 'Successfully verified. You are now logged in.',
  pendingLoginMissing: 'Your sign-in attempt has expired. Please sign in again.',
  pendingLoginLocked: 'Too many incorrect codes. Please sign in again.',
  invalidCode: 'The verification code is invalid or has expired.',
  mfaLocked: 'Too many incorrect verification codes. Please wait 15 minutes and try again.',
  codeSixDigits: 'Code must be 6 digits.',
  codeNumeric: 'Code must be numeric.',
  verificationCodeSixDigits: 'Verification code must be 6 digits.',
  mfaTokenNumeric: 'MFA token must be numeric.',
  mfaTokenSixDigits: 'MFA token must be 6 digits.',
  userIdPositive: 'User ID must be a positive integer.',
  mfaRequired: 'MFA verification is required for this action. Enter the code from your authenticator app or the code sent to your email.',
  mfaPromptActive: 'MFA prompt is already active.',
  mfaPromptClosed: 'MFA prompt was closed by the user.',
  invalidSystemMfaOperation: 'Unknown operation.',
  emailCodeWait: (seconds: number) => `Please wait ${seconds} seconds before asking for another code.`,
  /** A signed-in person without a second factor reaches only the MFA setup wall. */
  mfaSetupRequired: 'Set up multi-factor authentication to continue.',

  // MFA setup wall
  qrFailed: 'Could not retrieve QR code. Please try again.',
  setupEmailSent: 'A verification code has been sent to your email.',
  totpEnabled: 'MFA with Authenticator App enabled!',
  emailEnabled: 'MFA with Email enabled!',
  setupEmailSentInline: 'Verification code sent. Check your inbox.',
  noPendingTotpSecret: 'Generate a new authenticator secret first.',
  totpTokenRequired: 'Enter the 6-digit code from your authenticator app.',
  mfaTokenRequired: 'MFA token is required.',
  totpScanPrompt: 'Scan the image with your authenticator app, then enter the 6-digit code below.',
  emailAlreadyMethod: 'Email verification is already your method.',
  useAuthenticatorCode: 'Use the code from your authenticator app.',

  // Logout
  logoutSuccess: 'Logged out successfully',
  logoutIssues: 'Logout completed with some issues. Please clear your browser cache if you experience problems.',

  unexpected: 'An unexpected error occurred.',
  unexpectedRetry: 'An unexpected error occurred. Please try again.',
  internalError: 'Something went wrong on our side. Please try again.',
  notFound: 'The requested item was not found.',
  routeNotFound: 'The page you are looking for does not exist.',
  permissionDenied: 'You do not have permission to perform this action.',
  /** A matter that takes no changes from this person or at all (see read-only.ts). */
  readOnlyMatter: 'Actions are disabled for read-only matters',
  accessDenied: (role: string) => `Access denied. Your role (${role}) lacks required permissions.`,
  jsonOnly: 'Requests must be sent as JSON.',
  invalidJson: 'The request body is not valid JSON.',
  invalidRequest: 'Invalid request.',
  forbiddenOrigin: 'Cross-site request refused.',
  payloadTooLarge: 'The request is too large.',
  /** NUL characters and broken UTF-16 (a lone surrogate) in any text, body or query. */
  textNotAllowed: 'Text contains characters that are not allowed.',
  requestTooDeep: 'The request is nested too deeply.',
  jsonTooLarge: (field: string, kb: number) => `${field} cannot exceed ${kb} KB.`,
  jsonTooDeep: (field: string, levels: number) => `${field} cannot be nested more than ${levels} levels deep.`,
  /** A transaction lost a race (serialization failure or deadlock); the client sends the same request again. */
  concurrentOperation: 'Concurrent operation detected. Please try again.',
  /** A row lock could not be taken in time; the client retries it. */
  resourceLocked: 'Resource is currently locked by another operation. Please try again.',
  /** The client's own texts for the concurrency errors it tells apart (lib/conflicts.ts). */
  resourceModified: 'The resource was modified by another user.',
  raceCondition: (operation: string) => `Race condition detected during ${operation}. Please try again.`,
  concurrentOperationOn: (resource: string) => `Concurrent operation detected on ${resource}. Please try again.`,
  requestTimeout: 'The request timed out. Please try again.',
  copyFailed: 'Could not copy. Select the key and copy it by hand.',
  unknownFields: (keys: string[]) => `Unrecognized field(s): ${keys.join(', ')}.`,

  // Password reset
  validEmail: 'Please enter a valid email address.',
  resetRequested: 'If an account with that email exists, a password reset link has been sent.',
  resetRequestFailed: 'Failed to send password reset email.',
  resetTokenRequired: 'Reset token is required.',
  resetTokenInvalid: 'This password reset link is invalid or has expired.',
  passwordMin8Long: 'Password must be at least 8 characters long.',
  passwordMax100Long: 'Password must be no more than 100 characters long.',
  resetSuccess: 'Your password has been reset successfully.',
  resetFailed: 'Failed to reset password.',

  // Invitations
  invitationTokenRequired: 'Invitation token is required.',
  invitationInvalid: 'This invitation link is either invalid or has expired.',
  invitationVerifyFailed: 'Failed to verify invitation.',
  invitationAcceptFailed: 'Failed to accept invitation.',
  fullNameMin: 'Full name must be at least 2 characters.',
  passwordMin8: 'Password must be at least 8 characters.',
  invitationWelcome: 'Welcome! Your account has been created successfully.',
  invitationAccountExists: 'An account with this email already exists.',
  inviteSent: (email: string) => `Invitation sent to ${email}.`,
  inviteRoleInvalid: 'Role must be one of admin, user or guest.',
  inviteAdminOnly: 'Only administrators can invite administrators.',
  inviteAlreadyMember: 'This person is already a member of an organization.',
  invitationMailFailed: 'The invitation was saved but the email could not be sent. Please try again.',

  // Password change
  passwordChanged: 'Password changed successfully.',
  currentPasswordWrong: 'Current password is incorrect.',

  // Security tooling
  securityActionInvalid: 'Invalid security event action.',
  actionEmpty: 'Action cannot be empty',
  integrityNeedsAuth: 'User must be authenticated to run an integrity check',

  // First run
  setupTokenInvalid: 'The setup token is not valid.',
  setupDone: 'Strongroom is already set up. Sign in instead.',
  setupComplete: 'Strongroom is ready. Sign in with the administrator account you just created.',
  firmNameRequired: 'Firm name is required.',
  organizationIdFormat: 'Organization ID must be 3 to 64 letters, digits, underscores or hyphens.',
} as const;
