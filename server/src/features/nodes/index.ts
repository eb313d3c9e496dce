// What other features use of nodes (this feature writes the nodes table; other features call these).

// A file node's place and name checked and the node inserted, and the node as the API answers it (uploads).
export { insertFileNode, resolveParentFolder } from './nodes-changes.service.js';
export { nodeDto } from './nodes.service.js';
// The matter with its tree, as the vault's read-only views show it (vault).
export { matterTreeJson } from './nodes.service.js';
// Reading one node, and which stored objects nodes still point at (uploads' clean-up).
export { findNode, keyServesLiveFile, keysStillReferenced } from './node-records.service.js';
export { organizationOfKey } from './nodes.repository.js';
// A vaulted file's node moved to its vault copy (the vault transfer).
export { moveVersionToVaultCopy } from './node-records.service.js';
// Deleting stored objects that rows no longer point at, as a durable job (uploads, vault).
export { enqueueObjectDeletion } from './nodes.jobs.js';
// Where an upload goes when its name is taken, and the version it adds to a file (uploads' completion).
export { resolveUploadTarget } from './nodes-upload-target.service.js';
export { addUploadedVersion, uploadedVersionOf } from './node-versions.service.js';
// Emptying the recycle bins of what is past its date (the daily job; tests of figures that count binned files).
export { runBinPurge } from './bin-purge.jobs.js';
// A folder or file moved to the recycle bin, run again for its requester once approved (approvals).
export { deleteNode } from './bin.service.js';
