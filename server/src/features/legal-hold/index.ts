// What other features use of legal holds: a hold placed or lifted, as the route does it (approvals, disposition).
export { changeLegalHold } from './legal-hold.service.js';
