// What other features use of the audit log: verifying an organization's chain and signing its head (the
// integrity check; archival after each batch; the admin CLI), and the hook through which archival supplies
// archived details.
export {
  chainHeadOf,
  organizationsToSignNow,
  organizationsWithAuditChains,
  registerArchivedDetailsSource,
  signAllChainHeads,
  signChainHead,
  verifyOrganizationChain,
} from './audit-chain.service.js';
export { startAuditHeadSigning } from './audit.jobs.js';
