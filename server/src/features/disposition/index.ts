// What other features use of the disposition review: the decision run again for its requester once a second
// administrator approved it, and the checks and preview of a destroy decision (approvals, governed actions).
export { decideDisposition } from './disposition.service.js';
export { destroyEffect } from './disposition-preview.js';
export { DISPOSITION_DECIDE_ACCESS } from './disposition.routes.js';
