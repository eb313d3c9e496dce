// What other features use of the vault: after a legal hold changed on a vaulted matter, the vault objects' holds
// follow it through a durable job (legal-hold).
export { followMatterHold } from './vault.service.js';
// Vaulting a matter, run again for its requester once approved (approvals).
export { startVault } from './vault.service.js';
// The disposition review: the files a destruction would remove, and a longer retention carried into the store.
export { extendVaultRetention, filesInVault } from './vault-disposition.service.js';
