// What other parts use of passkeys: the routes (app), the ceremonies of signing in and of a step-up (auth, mfa),
// whether a person has one (the second-factor method lists) and the organization's passkey sign-in setting (auth).
export { passkeysRoutes } from './passkeys.routes.js';
export { assertionOptions, tellCloneSuspected, verifyAssertion, type AssertionOutcome } from './webauthn.service.js';
export { countUserPasskeys, listUserPasskeys, passkeySignInAllowed } from './passkeys.repository.js';
// An administrator's reset of a person's second factor (a lost device) takes their passkeys too (team).
export { removeUserPasskeys } from './passkeys.repository.js';
export { definePasskeyJobs } from './passkeys.jobs.js';
