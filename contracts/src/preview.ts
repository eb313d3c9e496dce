import { z } from 'zod';
import { NODE_MSG, versionParam } from './nodes.js';

/**
 * A file's preview in the page: which viewer shows it, and the texts the panel shows. The kind is decided by the
 * file's extension first and its stored MIME type second, the same way on the server and in the web app.
 */
export const PREVIEW_KINDS = ['pdf', 'image', 'text', 'csv', 'email', 'word', 'none'] as const;
export type PreviewKind = (typeof PREVIEW_KINDS)[number];

export const PREVIEW_MSG = {
  filesOnly: 'Only files can be previewed.',
  noPreview: 'No preview for this type of file.',
  tooLarge: (limit: string) => `This file is too large to preview here (over ${limit}). Download it to read it.`,
  failed: 'The preview could not be loaded.',
  rowsCut: (shown: number) => `Showing the first ${shown} rows.`,
  textCut: 'Showing the first 1 MB of the file.',
  hashCopied: 'SHA-256 copied.',
  copyFailed: 'Could not copy. Select the SHA-256 and copy it by hand.',
} as const;

const BY_EXTENSION: Record<string, PreviewKind> = {
  pdf: 'pdf',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  gif: 'image',
  webp: 'image',
  bmp: 'image',
  avif: 'image',
  txt: 'text',
  text: 'text',
  md: 'text',
  log: 'text',
  json: 'text',
  csv: 'csv',
  tsv: 'csv',
  eml: 'email',
  docx: 'word',
};

const BY_MIME: Record<string, PreviewKind> = {
  'application/pdf': 'pdf',
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/gif': 'image',
  'image/webp': 'image',
  'image/bmp': 'image',
  'image/avif': 'image',
  'text/plain': 'text',
  'text/markdown': 'text',
  'text/csv': 'csv',
  'text/tab-separated-values': 'csv',
  'message/rfc822': 'email',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'word',
};

/** The viewer for a file: by its extension, else by its stored MIME type; 'none' when neither is one we show. */
export function previewKindOf(fileName: string, mimeType: string | null | undefined): PreviewKind {
  const dot = fileName.lastIndexOf('.');
  const ext = dot > 0 ? fileName.slice(dot + 1).toLowerCase() : '';
  const byExt = BY_EXTENSION[ext];
  if (byExt) return byExt;
  const mime = (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
  return BY_MIME[mime] ?? 'none';
}

/** GET /_api/nodes/preview-url?nodeId= */
export const previewUrlQuery = z.object({
  nodeId: z.uuid({ error: (iss) => (iss.input === undefined ? NODE_MSG.nodeIdRequired : NODE_MSG.invalidNodeId) }),
  /** One earlier version of the file; the current one when absent. */
  version: versionParam.optional(),
});
export type PreviewUrlQuery = z.infer<typeof previewUrlQuery>;

export const previewUrlResponse = z.object({
  url: z.string(),
  expiresAt: z.string(),
  /** The Content-Type the URL answers with (text and CSV always as text/plain; charset=utf-8). */
  mimeType: z.string(),
  fileName: z.string(),
  previewKind: z.enum(PREVIEW_KINDS),
});
export type PreviewUrlResponse = z.infer<typeof previewUrlResponse>;
