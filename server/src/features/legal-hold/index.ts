// What other features use of legal holds: a hold placed or lifted, as the route does it (approvals, disposition),
// and a hold applied to a matter the caller has locked, audited and followed by the vault objects' holds (the
// disposition review's 'hold' decision).
export { changeLegalHold, setHoldLocked } from './legal-hold.service.js';
