import { z } from 'zod';
import { nameRuleMessages, nodeNameSchema, nodeSchema } from './nodes.js';

/** Uploads: texts, limits, allowed types and the shapes of the /_api/upload calls. */
export const UPLOAD_MSG = {
  atLeastOneFile: 'At least one file is required.',
  fileEmpty: 'File cannot be empty.',
  fileTooLarge: (limit: string) => `File size must be less than ${limit}.`,
  invalidFileType: 'Invalid file type.',
  fileNameRequired: 'File name is required.',
  fileNameTooLong: 'File name must be less than 255 characters.',
  fileTypeRequired: 'File type is required.',
  fileSizeRequired: 'File size is required.',
  invalidMatterId: 'Invalid Matter ID.',
  invalidParentId: 'Invalid Parent ID.',
  partNumberInvalid: 'Part number must be an integer from 1 to 10000.',
  multipartFieldsRequired: 'uploadId and s3Key are required for multipart uploads.',
  partNumberRequired: 'A part number is required when uploadId or s3Key is given.',
  partsRequired: 'Parts are required to complete a multipart upload.',
  s3KeyRequired: 'S3 key is required.',
  uploadIdRequired: 'Upload ID is required.',
  uploadNotFound: 'Upload not found.',
  uploadMismatch: 'The upload details do not match the upload that was started.',
  onConflictInvalid: "onConflict must be 'newVersion' or 'keepBoth'.",
  sizeMismatch: 'File size does not match the uploaded data.',
  partsMismatch: 'The uploaded parts do not match the parts listed. Upload the missing parts and try again.',
  fileMissing: 'The file was not uploaded. Please upload it again.',
  completionInProgress: 'This upload is already being completed. Try again in a moment.',
  completedWithOtherParts: 'This upload was already completed with other data.',
  abortWhileCompleting: 'This upload is being completed and can no longer be cancelled.',
  alreadyCompleted: 'This upload has already been completed.',
  multipartRequired: (threshold: string) => `Files of ${threshold} or more must be uploaded in parts (multipart).`,
  partBeyondEnd: 'The part number is beyond the end of the file.',
  quotaExceeded: 'Storage quota exceeded.',
  legalHold: 'Cannot upload files while matter is under legal hold',
  vaulted: 'Cannot upload files to vaulted matter',
  // Fallbacks and row errors the client shows
  presignFailed: 'Failed to get presigned URL.',
  initFailed: 'Failed to initialize multipart upload.',
  completeFailed: 'Failed to complete upload.',
  abortFailed: 'Failed to abort upload.',
  chunkFailed: (n: number) => `Failed to upload chunk ${n}.`,
  etagMissing: 'ETag not found in response header.',
  uploadFailedStatus: (status: number, text: string) => `Upload failed with status ${status}: ${text}`,
  networkError: 'Network error during upload.',
  aborted: 'Upload aborted.',
  standardFailed: 'Standard upload failed.',
  abortServerFailed: 'Failed to abort server upload. Please check server logs.',
  allUploaded: (n: number) => `All ${n} files uploaded successfully!`,
  someFailed: 'Some uploads failed. You can retry individual files or remove them.',
  closeWithActive: 'There are active uploads. Closing will cancel them. Are you sure?',
} as const;

const MiB = 1024 * 1024;
export const UPLOAD_LIMITS = {
  /** Files of this size or more go multipart. */
  multipartThreshold: 100 * MiB,
  chunkSize: 10 * MiB,
  parallelChunks: 5,
  /** Default largest file; the server's UPLOAD_MAX_BYTES may set another. */
  defaultMaxFileBytes: 5 * 1024 * MiB,
  maxParts: 10_000,
  /** Incomplete multipart uploads are removed after this many days. */
  incompleteUploadDays: 7,
} as const;

/**
 * Allowed file types by extension, with the MIME types browsers report for them. Any of them may also come
 * as application/octet-stream (the browser did not know the type). Executables and scripts are never allowed:
 * only what is listed here passes.
 */
export const ALLOWED_FILE_TYPES: Record<string, readonly string[]> = {
  jpg: ['image/jpeg', 'image/pjpeg'],
  jpeg: ['image/jpeg', 'image/pjpeg'],
  png: ['image/png'],
  gif: ['image/gif'],
  pdf: ['application/pdf'],
  doc: ['application/msword'],
  docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  xls: ['application/vnd.ms-excel'],
  xlsx: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  txt: ['text/plain'],
  eml: ['message/rfc822'],
  msg: ['application/vnd.ms-outlook', 'application/x-msg'],
  rtf: ['application/rtf', 'text/rtf'],
  csv: ['text/csv', 'application/csv', 'application/vnd.ms-excel'],
  tif: ['image/tiff'],
  tiff: ['image/tiff'],
  zip: ['application/zip', 'application/x-zip-compressed'],
  mp3: ['audio/mpeg', 'audio/mp3'],
  mp4: ['video/mp4'],
  mov: ['video/quicktime'],
};
/** Extensions refused whatever type is claimed (documentation; the allow-list above already excludes them). */
export const BLOCKED_EXTENSIONS = [
  'exe',
  'bat',
  'cmd',
  'com',
  'msi',
  'msp',
  'js',
  'mjs',
  'jse',
  'vbs',
  'vbe',
  'ps1',
  'psm1',
  'sh',
  'bash',
  'jar',
  'app',
  'dll',
  'scr',
  'pif',
  'cpl',
  'hta',
  'wsf',
  'wsh',
  'lnk',
  'reg',
  'apk',
  'dmg',
  'pkg',
  'deb',
  'rpm',
  'bin',
  'html',
  'htm',
  'svg',
  'xhtml',
  'php',
  'py',
  'pl',
  'rb',
] as const;

export function fileExtension(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/** The MIME type to store for an allowed file, or null when the name or type is not allowed. */
export function allowedMimeType(fileName: string, fileType: string): string | null {
  const ext = fileExtension(fileName);
  if (!ext || (BLOCKED_EXTENSIONS as readonly string[]).includes(ext)) return null;
  const types = ALLOWED_FILE_TYPES[ext];
  if (!types) return null;
  const essence = fileType.split(';')[0]!.trim().toLowerCase();
  if (types.includes(essence)) return essence;
  if (essence === 'application/octet-stream' || essence === '') return types[0]!;
  return null;
}

/** '5GB', '100MB': how a byte limit reads in a message. */
export function formatByteLimit(bytes: number): string {
  const units = ['Bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1 && value % 1024 === 0) {
    value /= 1024;
    unit += 1;
  }
  return `${value}${units[unit]}`;
}

export const fileNameSchema = nodeNameSchema(nameRuleMessages('File name', UPLOAD_MSG.fileNameRequired, UPLOAD_MSG.fileNameTooLong));
const fileType = z
  .string({ error: UPLOAD_MSG.fileTypeRequired })
  .trim()
  .min(1, { error: UPLOAD_MSG.fileTypeRequired })
  .max(255, { error: UPLOAD_MSG.invalidFileType });
const matterId = z.uuid({ error: UPLOAD_MSG.invalidMatterId });
const parentId = z.uuid({ error: UPLOAD_MSG.invalidParentId }).nullable().optional();
const fileSize = z
  .number({ error: UPLOAD_MSG.fileSizeRequired })
  .int({ error: UPLOAD_MSG.fileSizeRequired })
  .min(1, { error: UPLOAD_MSG.fileEmpty })
  .max(Number.MAX_SAFE_INTEGER, { error: UPLOAD_MSG.fileSizeRequired });
const s3Key = z
  .string({ error: UPLOAD_MSG.s3KeyRequired })
  .min(1, { error: UPLOAD_MSG.s3KeyRequired })
  .max(512, { error: UPLOAD_MSG.uploadNotFound });
const uploadId = z
  .string({ error: UPLOAD_MSG.uploadIdRequired })
  .min(1, { error: UPLOAD_MSG.uploadIdRequired })
  .max(1024, { error: UPLOAD_MSG.uploadNotFound });
const partNumber = z
  .number({ error: UPLOAD_MSG.partNumberInvalid })
  .int({ error: UPLOAD_MSG.partNumberInvalid })
  .min(1, { error: UPLOAD_MSG.partNumberInvalid })
  .max(UPLOAD_LIMITS.maxParts, { error: UPLOAD_MSG.partNumberInvalid });

/**
 * POST /_api/upload/presigned.
 * - Without partNumber: a single PUT of the whole file (under 100 MB). With fileSize the URL is bound to that
 *   exact length; without it, to at most the largest single upload, and the size is checked at completion.
 *   The answer carries a new s3Key (the server chooses it) and the headers the PUT must send.
 * - With partNumber + uploadId + s3Key (from multipart-init): the URL for that one part.
 */
/**
 * What an upload does when its name is taken in the folder: 'newVersion' adds a version to that file,
 * 'keepBoth' stores the new file as 'name (2).ext' (the first free such name). Absent: the upload is refused (409).
 */
export const UPLOAD_ON_CONFLICT = ['newVersion', 'keepBoth'] as const;
export type UploadOnConflict = (typeof UPLOAD_ON_CONFLICT)[number];
const onConflict = z.enum(UPLOAD_ON_CONFLICT, { error: UPLOAD_MSG.onConflictInvalid }).optional();

export const presignedUrlRequest = z
  .strictObject({
    fileName: fileNameSchema,
    fileType,
    matterId,
    parentId,
    fileSize: fileSize.optional(),
    partNumber: partNumber.optional(),
    uploadId: uploadId.optional(),
    s3Key: s3Key.optional(),
    onConflict,
  })
  .superRefine((v, ctx) => {
    if (v.partNumber !== undefined && (!v.uploadId || !v.s3Key)) {
      ctx.addIssue({ code: 'custom', message: UPLOAD_MSG.multipartFieldsRequired, path: ['uploadId'], input: v });
    } else if (v.partNumber === undefined && (v.uploadId || v.s3Key)) {
      ctx.addIssue({ code: 'custom', message: UPLOAD_MSG.partNumberRequired, path: ['partNumber'], input: v });
    }
  });
export type PresignedUrlRequest = z.infer<typeof presignedUrlRequest>;
export const presignedUrlResponse = z.object({
  url: z.string(),
  s3Key: z.string(),
  method: z.literal('PUT'),
  /** Send these headers with the PUT exactly as given (e.g. If-None-Match, Content-Type). */
  headers: z.record(z.string(), z.string()),
  expiresAt: z.string(),
  partNumber: z.number().int().optional(),
});
export type PresignedUrlResponse = z.infer<typeof presignedUrlResponse>;

/** POST /_api/upload/multipart-init. */
export const multipartInitRequest = z.strictObject({
  fileName: fileNameSchema,
  fileType,
  matterId,
  parentId,
  fileSize: fileSize.optional(),
  onConflict,
});
export type MultipartInitRequest = z.infer<typeof multipartInitRequest>;
export const multipartInitResponse = z.object({ uploadId: z.string(), s3Key: z.string() });
export type MultipartInitResponse = z.infer<typeof multipartInitResponse>;

export const completedPartSchema = z.strictObject({
  ETag: z
    .string({ error: UPLOAD_MSG.partsMismatch })
    .min(1, { error: UPLOAD_MSG.partsMismatch })
    .max(200, { error: UPLOAD_MSG.partsMismatch }),
  PartNumber: partNumber,
});
export type CompletedPart = z.infer<typeof completedPartSchema>;

/**
 * POST /_api/upload/multipart-complete. Without uploadId it registers a finished single PUT; with uploadId it
 * assembles the parts (ascending PartNumber, each part's ETag as the PUT answered it, quotes optional).
 */
export const multipartCompleteRequest = z
  .strictObject({
    s3Key,
    fileName: fileNameSchema,
    fileType,
    matterId,
    parentId,
    fileSize,
    uploadId: uploadId.optional(),
    parts: z.array(completedPartSchema).max(UPLOAD_LIMITS.maxParts).optional(),
    onConflict,
  })
  .superRefine((v, ctx) => {
    if (v.uploadId && (!v.parts || v.parts.length === 0)) {
      ctx.addIssue({ code: 'custom', message: UPLOAD_MSG.partsRequired, path: ['parts'], input: v });
    }
  });
export type MultipartCompleteRequest = z.infer<typeof multipartCompleteRequest>;
export const multipartCompleteResponse = z.object({ file: nodeSchema });
export type MultipartCompleteResponse = z.infer<typeof multipartCompleteResponse>;

/** POST /_api/upload/multipart-abort. */
export const multipartAbortRequest = z.strictObject({ s3Key, uploadId });
export type MultipartAbortRequest = z.infer<typeof multipartAbortRequest>;
export const multipartAbortResponse = z.object({ success: z.literal(true) });
export type MultipartAbortResponse = z.infer<typeof multipartAbortResponse>;

/** GET /_api/upload/parts?uploadId=&s3Key=: the parts already stored, for resuming after a reload. */
export const uploadPartsQuery = z.object({ uploadId, s3Key });
export type UploadPartsQuery = z.infer<typeof uploadPartsQuery>;
export const uploadPartsResponse = z.object({
  parts: z.array(z.object({ partNumber: z.number().int(), etag: z.string(), size: z.number().int() })),
  /** false when the object store cannot list parts (then upload every part again). */
  listable: z.boolean(),
});
export type UploadPartsResponse = z.infer<typeof uploadPartsResponse>;
