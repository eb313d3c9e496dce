/**
 * Which reader a stored file goes to. The uploader's mime type decides when it names a format Strongroom reads;
 * otherwise the file name's extension does (browsers on Windows send 'application/vnd.ms-excel' for a .csv);
 * and when the mime type says nothing (missing or a generic binary type) the first bytes of the file decide.
 */
export type Format = 'pdf' | 'docx' | 'eml' | 'html' | 'text' | 'image';

const BY_MIME: Record<string, Format> = {
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'message/rfc822': 'eml',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/plain': 'text',
  'text/csv': 'text',
  'text/tab-separated-values': 'text',
  'text/markdown': 'text',
  'text/x-markdown': 'text',
  'application/json': 'text',
  'application/xml': 'text',
  'text/xml': 'text',
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/tiff': 'image',
};

const BY_EXTENSION: Record<string, Format> = {
  pdf: 'pdf',
  docx: 'docx',
  eml: 'eml',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  txt: 'text',
  text: 'text',
  log: 'text',
  csv: 'text',
  tsv: 'text',
  md: 'text',
  markdown: 'text',
  json: 'text',
  xml: 'text',
  png: 'image',
  jpg: 'image',
  jpeg: 'image',
  tif: 'image',
  tiff: 'image',
};

/** Mime types that say nothing about the content: the bytes are looked at instead. */
const GENERIC_MIME = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/x-download', 'application/unknown']);

function baseMime(mimeType: string | null): string {
  return (mimeType ?? '').split(';')[0]!.trim().toLowerCase();
}

function extension(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/** The format named by the mime type or the file name, or null when neither names one Strongroom reads. */
export function formatByName(fileName: string, mimeType: string | null): Format | null {
  return BY_MIME[baseMime(mimeType)] ?? BY_EXTENSION[extension(fileName)] ?? null;
}

/** The format told by the first bytes of a file, for files whose mime type is missing or generic. */
function formatByMagic(head: Buffer): Format | null {
  const ascii = head.subarray(0, 1024).toString('latin1');
  if (ascii.startsWith('%PDF-')) return 'pdf';
  if (head[0] === 0x89 && ascii.startsWith('PNG', 1)) return 'image';
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image';
  if (ascii.startsWith('II*\0') || ascii.startsWith('MM\0*')) return 'image';
  const start = ascii
    .replace(/^\uFEFF|^\xEF\xBB\xBF/, '')
    .trimStart()
    .toLowerCase();
  if (start.startsWith('<!doctype html') || start.startsWith('<html')) return 'html';
  return null;
}

/** The reader for a file, from its mime type, its name and (when the mime type is generic) its first bytes. */
export function detectFormat(fileName: string, mimeType: string | null, head: Buffer): Format | null {
  const named = formatByName(fileName, mimeType);
  if (named) return named;
  return GENERIC_MIME.has(baseMime(mimeType)) ? formatByMagic(head) : null;
}

/** Whether a file may be one Strongroom reads: its name or mime type says so, or its mime type says nothing. */
export function mayRead(fileName: string, mimeType: string | null): boolean {
  return formatByName(fileName, mimeType) !== null || GENERIC_MIME.has(baseMime(mimeType));
}
