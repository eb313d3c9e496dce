// What other parts use of single sign-on: the routes (app), the callback's verdict and the organization's policy
// (auth's sign-in), the state cookie the callback reads.
export { ssoRoutes, SSO_STATE_COOKIE, SSO_STATE_PATH } from './sso.routes.js';
export { completeSsoCallback, type SsoOutcome } from './sso-callback.service.js';
export { ssoPolicy } from './sso.service.js';
export { defineSsoJobs } from './sso.jobs.js';
