import { deleteNodeRequest, legalHoldRequest, VAULT_MSG, vaultStartRequest } from '@strongroom/contracts';
import { deleteNode } from '../../nodes/index.js';
import { changeLegalHold } from '../../legal-hold/index.js';
import { startVault } from '../../vault/index.js';
import { matterContents, matterForPreview, nodeForPreview, nodeSubtreeFiles, readApprovalPolicy } from '../approvals.repository.js';
import type { GovernedAction } from './governed-action.js';
import { addYears, bytesInWords, count, dateInWords, final, matterInWords } from './words.js';

/** The state of a matter an approval depends on: its version (any change raises it) and its hold. */
const matterTouch = (m: { version: number; legalHold: boolean; isVaulted: boolean }) =>
  `version ${m.version}, ${m.legalHold ? 'held' : 'not held'}, ${m.isVaulted ? 'vaulted' : 'not vaulted'}`;

/** Vaulting moves every file of the matter into write-once storage for its retention period. */
export const vaultMatter: GovernedAction = {
  action: 'VAULT_MATTER',
  route: { method: 'POST', path: '/_api/vault/start' },
  allow: [{ rule: 'member' }, { rule: 'vault', deny: VAULT_MSG.vaultPermissionDenied }],
  async preview({ trx, auth, body }) {
    const input = vaultStartRequest.parse(body);
    const matter = await matterForPreview(trx, auth.user.organizationId, input.matterId);
    if (!matter) return null;
    const contents = await matterContents(trx, auth.user.organizationId, matter.id);
    const retentionEnds = addYears(new Date(), input.retentionYears);
    return {
      preview: {
        action: 'VAULT_MATTER',
        title: `Vault matter ${matterInWords(matter)}`,
        summary: final(
          `${count(contents.files, 'file')} (${count(contents.versions, 'version')}, ${bytesInWords(contents.bytes)}) move into write-once storage and cannot be changed or deleted until ${dateInWords(retentionEnds)}; the matter becomes read-only.`,
        ),
        cannotBeUndone: true,
        facts: [
          { label: 'Matter', value: matterInWords(matter) },
          { label: 'Files', value: contents.files.toLocaleString('en-GB') },
          { label: 'Versions', value: contents.versions.toLocaleString('en-GB') },
          { label: 'Size', value: bytesInWords(contents.bytes) },
          { label: 'Retention', value: count(input.retentionYears, 'year') },
          { label: 'Retention ends', value: `about ${dateInWords(retentionEnds)} (counted from the day it is vaulted)` },
        ],
      },
      touches: {
        matter: matterTouch(matter),
        files: `${contents.files} files, ${contents.versions} versions, ${contents.bytes} bytes, newest ${contents.newest ? new Date(contents.newest).toISOString() : 'none'}`,
      },
    };
  },
  execute: (ctx, auth, body, meta) => startVault(ctx, auth, vaultStartRequest.parse(body), meta),
};

/** Lifting a legal hold lets retention end and deletion reach the matter again. */
export const removeLegalHold: GovernedAction = {
  action: 'REMOVE_LEGAL_HOLD',
  route: { method: 'POST', path: '/_api/matters/legal-hold' },
  allow: [{ rule: 'admin', deny: VAULT_MSG.holdPermissionDenied }],
  async preview({ trx, auth, body }) {
    const input = legalHoldRequest.parse(body);
    const matter = await matterForPreview(trx, auth.user.organizationId, input.matterId);
    // A matter not held (or unknown) is refused by the hold's own rules; nothing to approve.
    if (!matter?.legalHold) return null;
    const contents = await matterContents(trx, auth.user.organizationId, matter.id);
    const ended = matter.isVaulted && matter.retentionExpiresAt !== null && matter.retentionExpiresAt.getTime() <= Date.now();
    return {
      preview: {
        action: 'REMOVE_LEGAL_HOLD',
        title: `Remove the legal hold on ${matterInWords(matter)}`,
        summary: ended
          ? final(
              `The hold is lifted and the matter's retention has already ended: its ${count(contents.files, 'vaulted file')} become due for destruction.`,
            )
          : `The hold is lifted: files of the matter can again be deleted${matter.isVaulted ? `, and its vaulted files are destroyed when retention ends (${dateInWords(matter.retentionExpiresAt)})` : ''}.`,
        cannotBeUndone: ended,
        facts: [
          { label: 'Matter', value: matterInWords(matter) },
          { label: 'Hold reason', value: matter.holdReason ?? '(none given)' },
          { label: 'Files', value: contents.files.toLocaleString('en-GB') },
          { label: 'Vaulted', value: matter.isVaulted ? `yes, retention ends ${dateInWords(matter.retentionExpiresAt)}` : 'no' },
        ],
      },
      touches: { matter: matterTouch(matter) },
    };
  },
  execute: (ctx, auth, body, meta) => changeLegalHold(ctx, auth, legalHoldRequest.parse(body), meta),
};

/** Deleting a folder of more files than the organization's threshold. */
export const deleteLargeFolder: GovernedAction = {
  action: 'DELETE_LARGE_FOLDER',
  route: { method: 'POST', path: '/_api/nodes/delete' },
  // The route asks only for a session; the deletion's own rules decide (the matter, the person's canDelete).
  allow: [],
  async preview({ trx, auth, body }) {
    const { nodeId } = deleteNodeRequest.parse(body);
    const node = await nodeForPreview(trx, auth.user.organizationId, nodeId);
    if (node?.nodeType !== 'folder') return null;
    const policy = await readApprovalPolicy(trx, auth.user.organizationId);
    const subtree = await nodeSubtreeFiles(trx, auth.user.organizationId, node.id);
    if (subtree.files <= policy.folderFileThreshold) return null;
    return {
      preview: {
        action: 'DELETE_LARGE_FOLDER',
        title: `Delete the folder “${node.name}” in ${matterInWords(node)}`,
        summary: `The folder and ${count(subtree.files, 'file')} (${bytesInWords(subtree.bytes)}) below it move to the recycle bin; they can be restored from there until the bin is emptied.`,
        cannotBeUndone: false,
        facts: [
          { label: 'Folder', value: node.name },
          { label: 'Matter', value: matterInWords(node) },
          { label: 'Files', value: subtree.files.toLocaleString('en-GB') },
          { label: 'Size', value: bytesInWords(subtree.bytes) },
          { label: 'Rule', value: `folders of more than ${count(policy.folderFileThreshold, 'file')} need a second approver` },
        ],
      },
      touches: {
        folder: `${subtree.files} files, change total ${subtree.versionSum}, newest ${subtree.newest ? new Date(subtree.newest).toISOString() : 'none'}`,
      },
    };
  },
  execute: (ctx, auth, body, meta) => deleteNode(ctx, auth, deleteNodeRequest.parse(body).nodeId, meta),
};
