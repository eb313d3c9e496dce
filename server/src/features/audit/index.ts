// What other features use of the audit log. The audit feature and the shared writer that appends entries
// (shared/audit.ts) are the only writers of the audit tables.

// An organization's chain verified and its head signed (the integrity check, compliance, archival after each
// batch, the admin CLI and the daily signing job).
export {
  chainHeadOf,
  organizationsToSignNow,
  organizationsWithAuditChains,
  signAllChainHeads,
  signChainHead,
  verifyOrganizationChain,
} from './audit-chain.service.js';
export { startAuditHeadSigning, startAuditSearchBackfill } from './audit.jobs.js';
// How far behind the signing of chain heads is (the metrics).
export { signingHeadAges } from './audit.service.js';
// The hook through which archival supplies archived details to the audit views (archival).
export { registerArchivedDetailsSource } from './audit-chain.service.js';
// Archival's change to the entries: a range locked, then marked archived with its details moved to the batch.
export { lockEntriesForArchival, markEntriesArchived } from './audit-archive.service.js';
// The current names of what entries are about, for their sentences (notifications).
export { namesOfEntries } from './audit-names.repository.js';
// A CSV cell neutralised against spreadsheet formulas and quoted as RFC 4180 asks (the vault register's export).
export { csvCell } from './audit-csv.js';
