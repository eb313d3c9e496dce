/** The shapes shared by the extractor (app side), its child process and the callers of the extractor. */
import type { Format } from './formats.js';

export type ExtractionLimits = {
  /** Wall time per file. */
  timeoutMs: number;
  /** Memory of the extracting process: its JavaScript heap, and twice this for the whole process (OCR, rendering). */
  maxMemoryMb: number;
  /** Pages read from a PDF or a multi-page TIFF; the rest are left out and the result is marked truncated. */
  maxPages: number;
  /** Text kept per file, the rest cut (the result is marked truncated). */
  maxTextChars: number;
  /** Larger files are not read: state 'no_text', the reason says too large. */
  maxInputBytes: number;
};

export type ExtractionResult =
  | { state: 'indexed'; pages: string[]; ocr: boolean; truncated: boolean }
  | { state: 'no_text'; reason: string }
  | { state: 'failed'; reason: string };

export type ExtractInput = {
  read: () => Promise<NodeJS.ReadableStream> | NodeJS.ReadableStream;
  size: number;
  fileName: string;
  mimeType: string | null;
  /** Tesseract language codes, e.g. ['eng']; codes not in OCR_LANGUAGES are ignored (English when none is left). */
  ocrLanguages: string[];
};

export const DEFAULT_LIMITS: ExtractionLimits = {
  timeoutMs: 120_000,
  maxMemoryMb: 512,
  maxPages: 500,
  maxTextChars: 5_000_000,
  maxInputBytes: 200 * 1024 * 1024,
};

/** Languages whose OCR data ships with Strongroom (the @tesseract.js-data packages in server/package.json). */
export const OCR_LANGUAGES: readonly { code: string; name: string }[] = Object.freeze([
  { code: 'eng', name: 'English' },
  { code: 'deu', name: 'German' },
  { code: 'fra', name: 'French' },
  { code: 'spa', name: 'Spanish' },
]);

/** The languages to OCR a file in: the asked ones that ship, in order, or English when none does. */
export function ocrLanguagesFor(asked: string[]): string[] {
  const known = new Set(OCR_LANGUAGES.map((l) => l.code));
  const langs = [...new Set(asked.filter((code) => known.has(code)))];
  return langs.length > 0 ? langs : ['eng'];
}

/** A file's content that cannot be read for a reason a user should see (damaged, protected, too big). */
export class UnreadableError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'UnreadableError';
  }
}

/** What the app sends its extraction child for one file. */
export type ExtractJob = { file: string; format: Format; limits: ExtractionLimits; languages: string[] };
/** What the child answers: the result, or a line that it is ready for files. */
export type FromExtractChild = { type: 'ready' } | { type: 'result'; result: ExtractionResult };
