// What other parts use of approvals: the routes and jobs (app, worker), and the step-up the access guard hands a
// governed route's service.
export { approvalsRoutes } from './approvals.routes.js';
export { defineApprovalJobs } from './approvals.jobs.js';
export { governedStepUp } from './approval-requests.service.js';
export { governedRoutes } from './governed/index.js';
