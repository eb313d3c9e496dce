// What other features use of legal holds: a hold applied to a matter the caller has locked, audited and followed
// by the vault objects' holds (the disposition review's 'hold' decision).
export { setHoldLocked } from './legal-hold.service.js';
