import { z } from 'zod';
import { FILE_TEXT_STATES } from './file-text.js';
import { text } from './common.js';

/**
 * Folders and files of a matter. Texts the user sees are here once; the
 * server answers with them and the web app shows them.
 */
export const NODE_MSG = {
  invalidNodeId: 'Invalid Node ID format.',
  invalidMatterId: 'Invalid Matter ID format.',
  invalidParentId: 'Invalid Parent ID format.',
  nodeIdRequired: 'Node ID is required.',
  folderNameEmpty: 'Folder name cannot be empty.',
  folderNameTooLong: 'Folder name is too long.',
  nameEmpty: 'Name cannot be empty.',
  nameTooLong: 'Name is too long.',
  itemNotFound: 'Item not found.',
  nameExists: (name: string) => `An item named "${name}" already exists in this folder.`,
  moveIntoItself: 'A folder cannot be moved into itself or its descendants.',
  moveSameParent: 'The item is already in this folder.',
  targetNotFolder: 'Items can only be placed in folders.',
  downloadFilesOnly: 'Only files can be downloaded.',
  zipTargetRequired: 'Send either nodeId (a folder) or matterId (the whole matter).',
  zipFoldersOnly: 'Only a folder or a whole matter can be downloaded as a ZIP.',
  zipStarted: 'The ZIP download has started.',
  zipFolderHint: 'Download this folder and everything in it as one ZIP, with a manifest of sha256 checksums.',
  zipMatterHint: 'Download the whole matter as one ZIP, with a manifest of sha256 checksums.',
  guestViewOnly: 'This matter is shared with you to view only: its files cannot be downloaded. Ask the administrator who shared it.',
  // Restriction tooltips and client guards, enforced by the server too.
  legalHold: 'Actions are disabled due to legal hold',
  vaulted: 'Actions are disabled for vaulted matters',
  folderCreateLegalHold: 'Cannot create folders while matter is under legal hold',
  folderCreateVaulted: 'Cannot create folders in vaulted matter',
  // Toasts
  folderCreated: (name: string) => `Folder "${name}" created successfully.`,
  renamed: (name: string) => `${name} was renamed.`,
  moved: (name: string) => `${name} was moved.`,
  deleted: (name: string) => `${name} was deleted.`,
  // The recycle bin
  movedToBin: 'Moved to the recycle bin',
  restored: (name: string) => `${name} was restored.`,
  restoreFailed: 'Failed to restore.',
  binEntryNotFound: 'This item is no longer in the recycle bin.',
  invalidBinEntryId: 'Invalid recycle bin entry ID format.',
  binEntryIdRequired: 'Recycle bin entry ID is required.',
  matterIdRequired: 'Matter ID is required.',
  binTitle: 'Recycle bin',
  binEmpty: 'The recycle bin is empty.',
  binLoadFailed: 'Could not load the recycle bin.',
  binDescription: (days: number) => `Deleted items stay here for ${days} ${days === 1 ? 'day' : 'days'}, then are deleted forever.`,
  deleteGoesToBin: (days: number) =>
    `It goes to the recycle bin for ${days} ${days === 1 ? 'day' : 'days'} and can be restored until then.`,
  deletedForeverOn: (date: string) => `Deleted forever on ${date}`,
  createFolderFailed: 'Creation Failed',
  renameFailed: 'Failed to rename.',
  moveFailed: 'Failed to move.',
  deleteFailed: 'Failed to delete.',
  downloadFailed: 'Failed to download.',
  // Versions
  versionNotFound: 'Version not found.',
  versionsFilesOnly: 'Only files have versions.',
  alreadyCurrentVersion: 'This is already the current version.',
  invalidVersionNumber: 'Version number must be a whole number from 1.',
  versionRestored: (name: string, from: number, to: number) => `Version ${from} of ${name} restored as version ${to}.`,
  restoreVersionFailed: 'Failed to restore the version.',
} as const;

/** Longest folder or file name, in characters. */
export const NAME_MAX_LENGTH = 255;

type NameMessages = {
  empty: string;
  tooLong: string;
  invalidCharacters: string;
  dotDot: string;
  startsWithDot: string;
  separators: string;
  traversal: string;
};

/** The messages of the file-name rules of uploads; folder names use the same rules. */
export const nameRuleMessages = (subject: 'File name' | 'Folder name' | 'Name', empty: string, tooLong: string): NameMessages => ({
  empty,
  tooLong,
  invalidCharacters: `${subject} contains invalid characters.`,
  dotDot: `${subject} cannot contain '..' sequences.`,
  startsWithDot: `${subject} cannot start with '.'.`,
  separators: `${subject} cannot contain directory separators.`,
  traversal: `${subject} contains path traversal characters.`,
});

// Characters a name may not hold: < > : " / \ | ? * and control characters.
const INVALID_CHARACTERS = /[<>:"/\\|?*\u0000-\u001f\u007f]/;
/**
 * Characters that are invisible or change how the rest of a name is shown: C1 controls, bidirectional controls
 * (a name can be made to read 'exe.pdf' backwards) and zero-width characters (two names that look the same).
 */
const DECEPTIVE_CHARACTERS = /[\u0080-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060\u2066-\u2069\ufeff]/;
/** Separators written out or percent-encoded: what a path traversal attempt looks like once decoded. */
const ENCODED_TRAVERSAL = /%2e|%2f|%5c|%00/i;

/**
 * A folder or file name: trimmed and in Unicode NFC (so a composed and a decomposed 'Café' are the same name for
 * the uniqueness check and are stored alike), 1 to 255 characters, no separators, no '..', no leading dot, none
 * of the characters Windows and S3 tools choke on, no invisible or direction-changing characters, and the text
 * rule of every field. The checks run in an order that names the most precise fault.
 */
export function nodeNameSchema(m: NameMessages) {
  return text({ error: m.empty })
    .trim()
    .normalize('NFC')
    .min(1, { error: m.empty })
    .max(NAME_MAX_LENGTH, { error: m.tooLong })
    .superRefine((name, ctx) => {
      const fail = (message: string) => ctx.addIssue({ code: 'custom', message, input: name });
      if (name.includes('..')) return fail(m.dotDot);
      if (ENCODED_TRAVERSAL.test(name)) return fail(m.traversal);
      if (name.includes('/') || name.includes('\\')) return fail(m.separators);
      if (name.startsWith('.')) return fail(m.startsWithDot);
      if (INVALID_CHARACTERS.test(name) || DECEPTIVE_CHARACTERS.test(name)) return fail(m.invalidCharacters);
    });
}

const FOLDER_NAME = nameRuleMessages('Folder name', NODE_MSG.folderNameEmpty, NODE_MSG.folderNameTooLong);
const RENAME = nameRuleMessages('Name', NODE_MSG.nameEmpty, NODE_MSG.nameTooLong);

const nodeId = z.uuid({ error: NODE_MSG.invalidNodeId });
const matterId = z.uuid({ error: NODE_MSG.invalidMatterId });
const parentId = z.uuid({ error: NODE_MSG.invalidParentId }).nullable();

export const NODE_TYPES = ['file', 'folder'] as const;
export type NodeType = (typeof NODE_TYPES)[number];
export const UPLOAD_STATUSES = ['completed'] as const;

/** A folder or file as the API answers it. Dates are ISO strings; fileSize is bytes. */
export const nodeSchema = z.object({
  id: z.string(),
  matterId: z.string(),
  organizationId: z.string(),
  /** null: the matter's root. */
  parentId: z.string().nullable(),
  name: z.string(),
  nodeType: z.enum(NODE_TYPES),
  /** '/Folder/Sub/name', built from the names of the ancestors. */
  path: z.string(),
  fileSize: z.number().int().nullable(),
  mimeType: z.string().nullable(),
  /** sha256 (hex) of the whole stored file, computed by the server at completion. */
  sha256Hash: z.string().nullable(),
  /** The object key in the store (chosen by the server). */
  storagePath: z.string().nullable(),
  uploadId: z.string().nullable(),
  uploadStatus: z.string().nullable(),
  uploadProgress: z.number().int().nullable(),
  /** The creator's profile id (uuid). */
  createdBy: z.string().nullable(),
  /** The full name of whoever created or uploaded it (null when that account is gone). */
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The file's current version number (1 for a file never re-uploaded); null for folders. */
  currentVersion: z.number().int().nullable(),
  /**
   * Where the current version's text stands for document search (files; null for folders and files whose text has
   * not been queued). Answered by the matter's tree; other answers may leave it out.
   */
  textState: z.enum(FILE_TEXT_STATES).nullable().optional(),
  /** Why the text could not be read ('failed', 'no_text'); null otherwise. */
  textReason: z.string().nullable().optional(),
});
export type NodeDto = z.infer<typeof nodeSchema>;

/** A node with its children (folders first, then files, each by name). Files have no children. */
export type NodeTreeDto = NodeDto & { children: NodeTreeDto[] };
export const nodeTreeSchema: z.ZodType<NodeTreeDto> = nodeSchema
  .extend({
    get children(): z.ZodArray<z.ZodType<NodeTreeDto>> {
      return z.array(nodeTreeSchema);
    },
  })
  // Named, so that OpenAPI shows the recursive shape as one component.
  .meta({ id: 'NodeTree' });

export const createFolderRequest = z.strictObject({
  matterId,
  parentId: parentId.optional(),
  folderName: nodeNameSchema(FOLDER_NAME),
});
export type CreateFolderRequest = z.infer<typeof createFolderRequest>;

export const renameNodeRequest = z.strictObject({ nodeId, newName: nodeNameSchema(RENAME) });
export type RenameNodeRequest = z.infer<typeof renameNodeRequest>;

export const moveNodeRequest = z.strictObject({ nodeId, newParentId: parentId });
export type MoveNodeRequest = z.infer<typeof moveNodeRequest>;

export const deleteNodeRequest = z.strictObject({ nodeId });
export type DeleteNodeRequest = z.infer<typeof deleteNodeRequest>;

export const nodeResponse = z.object({ node: nodeSchema });
export type NodeResponse = z.infer<typeof nodeResponse>;

export const deleteNodeResponse = z.object({
  success: z.literal(true),
  /** The node itself and every node below it. */
  deletedCount: z.number().int(),
  /** The recycle bin entry the item went to. */
  binEntryId: z.string(),
  /** When the bin is emptied of it for good (ISO date-time). */
  purgeAfter: z.string(),
  /** The id to send to POST /_api/undo to take the deletion back. */
  undoId: z.string(),
  undoExpiresAt: z.string(),
});
export type DeleteNodeResponse = z.infer<typeof deleteNodeResponse>;

/** GET /_api/nodes/bin?matterId=: the matter's recycle bin. */
export const binListQuery = z.strictObject({
  matterId: z.uuid({ error: (iss) => (iss.input === undefined ? NODE_MSG.matterIdRequired : NODE_MSG.invalidMatterId) }),
});
export type BinListQuery = z.infer<typeof binListQuery>;

export const binItemSchema = z.object({
  binEntryId: z.string(),
  /** The item deleted (the top of what went to the bin). */
  nodeId: z.string(),
  name: z.string(),
  nodeType: z.enum(NODE_TYPES),
  /** The folder it was in when deleted ('/' for the matter's root). */
  originalPath: z.string(),
  fileCount: z.number().int(),
  totalBytes: z.number().int(),
  deletedAt: z.string(),
  /** The profile id (uuid) of who deleted it; null when that account is gone. */
  deletedBy: z.string().nullable(),
  deletedByName: z.string().nullable(),
  /** When the daily job deletes it for good (ISO date-time). */
  purgeAfter: z.string(),
});
export type BinItemDto = z.infer<typeof binItemSchema>;
export const binListResponse = z.object({ items: z.array(binItemSchema) });
export type BinListResponse = z.infer<typeof binListResponse>;

/** POST /_api/nodes/bin/restore: the item goes back to its folder (or the matter's root when that folder is gone). */
export const restoreBinRequest = z.strictObject({
  binEntryId: z.uuid({ error: (iss) => (iss.input === undefined ? NODE_MSG.binEntryIdRequired : NODE_MSG.invalidBinEntryId) }),
});
export type RestoreBinRequest = z.infer<typeof restoreBinRequest>;

const requiredNodeId = z.uuid({ error: (iss) => (iss.input === undefined ? NODE_MSG.nodeIdRequired : NODE_MSG.invalidNodeId) });
/** A version number: a whole number from 1 (in a query string, its digits). */
const versionNumberOf = (number: z.ZodNumber | z.ZodCoercedNumber) =>
  number
    .int({ error: NODE_MSG.invalidVersionNumber })
    .min(1, { error: NODE_MSG.invalidVersionNumber })
    .max(2_147_483_647, { error: NODE_MSG.invalidVersionNumber });
const versionNumber = versionNumberOf(z.number({ error: NODE_MSG.invalidVersionNumber }));
/** A version number in a query string (download and preview of one version of a file). */
export const versionParam = versionNumberOf(z.coerce.number({ error: NODE_MSG.invalidVersionNumber }));

/** GET /_api/nodes/download-url: the current version, or the version given. */
export const downloadUrlQuery = z.object({
  nodeId: requiredNodeId,
  version: versionParam.optional(),
});
export type DownloadUrlQuery = z.infer<typeof downloadUrlQuery>;

/**
 * GET /_api/nodes/download-zip: a folder (nodeId) or a whole matter (matterId) as one ZIP, streamed, with
 * manifest.csv (path, size, sha256 of every file) at its root.
 */
export const downloadZipQuery = z
  .strictObject({
    nodeId: z.uuid({ error: NODE_MSG.invalidNodeId }).optional(),
    matterId: z.uuid({ error: NODE_MSG.invalidMatterId }).optional(),
  })
  .refine((q) => (q.nodeId === undefined) !== (q.matterId === undefined), { error: NODE_MSG.zipTargetRequired });
export type DownloadZipQuery = z.infer<typeof downloadZipQuery>;
/** The manifest's name inside every ZIP. */
export const ZIP_MANIFEST_NAME = 'manifest.csv';
export const downloadUrlResponse = z.object({ url: z.string(), expiresAt: z.string() });
export type DownloadUrlResponse = z.infer<typeof downloadUrlResponse>;

/** GET /_api/nodes/versions?nodeId=: a file's versions, newest first. */
export const nodeVersionsQuery = z.object({ nodeId: requiredNodeId });
export type NodeVersionsQuery = z.infer<typeof nodeVersionsQuery>;
export const nodeVersionSchema = z.object({
  versionNumber: z.number().int(),
  fileSize: z.number().int(),
  sha256Hash: z.string().nullable(),
  mimeType: z.string().nullable(),
  /** The uploader's profile id (uuid); null when that account is gone. */
  createdBy: z.string().nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  /** The version this one restored (it shares that version's stored object); null for an upload. */
  restoredFromVersion: z.number().int().nullable(),
  isCurrent: z.boolean(),
});
export type NodeVersionDto = z.infer<typeof nodeVersionSchema>;
export const nodeVersionsResponse = z.object({ versions: z.array(nodeVersionSchema) });
export type NodeVersionsResponse = z.infer<typeof nodeVersionsResponse>;

/** POST /_api/nodes/restore-version: makes an earlier version the current one, as a new version. */
export const restoreVersionRequest = z.strictObject({ nodeId: requiredNodeId, versionNumber });
export type RestoreVersionRequest = z.infer<typeof restoreVersionRequest>;
