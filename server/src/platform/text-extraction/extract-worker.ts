/**
 * The extraction child process: the app's TextExtractor forks it (see text-extractor.ts) and sends it one file at a
 * time; it answers with the file's text. A file whose content is damaged, protected or too big gives 'failed' with
 * a reason for the user; any other error is also answered as 'failed', and the app then replaces this child.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { type ExtractJob, type ExtractionResult, type FromExtractChild, UnreadableError } from './types.js';

/** OCR scratch files go beside the input, in the temp directory the app removes after every file. */
function ocrOptions(job: ExtractJob) {
  return { languages: job.languages, scratchDir: path.dirname(job.file) };
}

type Pages = { pages: string[]; ocr: boolean; truncated: boolean };

async function readImage(job: ExtractJob): Promise<Pages> {
  const { checkImageSize, ocrImage, tiffPages } = await import('./ocr.js');
  const bytes = await fs.readFile(job.file);
  if (bytes.toString('latin1', 0, 4) === 'II*\0' || bytes.toString('latin1', 0, 4) === 'MM\0*') {
    const { pngs, truncated } = await tiffPages(bytes, job.limits.maxPages);
    const pages: string[] = [];
    for (const png of pngs) pages.push(await ocrImage(png, ocrOptions(job)));
    return { pages, ocr: true, truncated };
  }
  checkImageSize(bytes);
  try {
    return { pages: [await ocrImage(bytes, ocrOptions(job))], ocr: true, truncated: false };
  } catch {
    throw new UnreadableError('The image is damaged and cannot be read.');
  }
}

/** Each reader is loaded on first use: a child that only reads text files never loads pdf.js or OCR. */
async function readPages(job: ExtractJob): Promise<Pages> {
  const { decodeText, htmlText, readDocx, readEml, readHead } = await import('./read-documents.js');
  const one = (text: string, truncated = false): Pages => ({ pages: [text], ocr: false, truncated });
  switch (job.format) {
    case 'pdf':
      return (await import('./read-pdf.js')).readPdf(job.file, job.limits, ocrOptions(job));
    case 'image':
      return readImage(job);
    case 'docx':
      return one(await readDocx(job.file));
    case 'eml':
      return one(await readEml(job.file));
    case 'html': {
      const { bytes, more } = await readHead(job.file, job.limits.maxTextChars * 8);
      return one(htmlText(decodeText(bytes)), more);
    }
    case 'text': {
      // A character is at most 4 bytes of UTF-8: reading more than that could never be kept.
      const { bytes, more } = await readHead(job.file, job.limits.maxTextChars * 4 + 4);
      return one(decodeText(bytes), more);
    }
  }
}

/** NULs dropped, page texts trimmed, and the whole cut to maxTextChars (the pages past the cut left out). */
function finish(read: Pages, maxTextChars: number): ExtractionResult {
  let room = maxTextChars;
  let truncated = read.truncated;
  const pages: string[] = [];
  for (const raw of read.pages) {
    const text = raw.replaceAll('\0', '').trim();
    if (text.length > room) {
      pages.push(text.slice(0, room));
      truncated = true;
      break;
    }
    pages.push(text);
    room -= text.length;
  }
  if (!pages.some((p) => /[\p{L}\p{N}]/u.test(p))) return { state: 'no_text', reason: 'No text was found in the file.' };
  return { state: 'indexed', pages, ocr: read.ocr, truncated };
}

async function run(job: ExtractJob): Promise<ExtractionResult> {
  try {
    return finish(await readPages(job), job.limits.maxTextChars);
  } catch (err) {
    if (err instanceof UnreadableError) return { state: 'failed', reason: err.message };
    process.stderr.write(`text extraction error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return { state: 'failed', reason: 'The file could not be read.' };
  }
}

function send(message: FromExtractChild): void {
  process.send?.(message);
}

process.on('message', (job: ExtractJob) => {
  void run(job).then((result) => send({ type: 'result', result }));
});
// The app's end of the channel closing means the app is gone: nothing is left to answer.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
