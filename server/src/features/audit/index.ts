// What other features use of the audit log: verifying an organization's chain and signing its head (the
// integrity check; archival after each batch), and the hook through which archival supplies archived details.
export { registerArchivedDetailsSource, signAllChainHeads, signChainHead, verifyOrganizationChain } from './audit-chain.service.js';
