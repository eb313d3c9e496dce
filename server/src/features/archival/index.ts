// What other features use of archival: an archival run started as the route starts it, and what it would move
// (approvals).
export { requestArchivalRun } from './archival-runs.service.js';
export { archivalPreview } from './archival.service.js';
