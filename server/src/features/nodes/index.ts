// What other features use of nodes: a file node's place and name checked and the node inserted (uploads), the
// node as the API answers it, the few row reads they run in their own transactions, and the deletion of stored
// objects that rows no longer point at (a durable job).
export { enqueueObjectDeletion } from './nodes.jobs.js';
export { findNode, referencedKeys } from './nodes.repository.js';
export { insertFileNode, nodeDto, requireNameFree, resolveParentFolder } from './nodes.service.js';
