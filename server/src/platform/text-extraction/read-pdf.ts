/**
 * PDF text: the text layer of each page through pdfjs-dist, and OCR of a page that has (almost) no text layer,
 * which is how a scanned document looks. Such a page is rendered at about 200 dpi (fewer pixels on very large
 * pages) and read by tesseract. Only the first maxPages pages are read; the result then says truncated.
 */
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCanvas } from '@napi-rs/canvas';
import { getDocument, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { type OcrOptions, ocrImage } from './ocr.js';
import { type ExtractionLimits, UnreadableError } from './types.js';

const require = createRequire(import.meta.url);
/** A page with fewer letters than this in its text layer is taken for a scan and OCRed. */
const MIN_TEXT_LAYER_CHARS = 20;
const RENDER_DPI = 200;
/** Rendering stops growing a page past this many pixels (an A4 page at 200 dpi is about 3.9 million). */
const MAX_RENDER_PIXELS = 12_000_000;

const standardFontDataUrl = pathToFileURL(path.join(path.dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/').href;

async function pageText(page: PDFPageProxy): Promise<string> {
  const content = await page.getTextContent();
  let text = '';
  for (const item of content.items) {
    if (!('str' in item)) continue;
    text += item.str + (item.hasEOL ? '\n' : '');
  }
  return text;
}

async function renderPage(page: PDFPageProxy): Promise<Buffer> {
  const base = page.getViewport({ scale: 1 });
  let scale = RENDER_DPI / 72;
  if (base.width * base.height * scale * scale > MAX_RENDER_PIXELS) scale = Math.sqrt(MAX_RENDER_PIXELS / (base.width * base.height));
  const viewport = page.getViewport({ scale });
  const canvas = createCanvas(Math.max(1, Math.ceil(viewport.width)), Math.max(1, Math.ceil(viewport.height)));
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  await page.render({ canvas: canvas as never, canvasContext: ctx as never, viewport }).promise;
  return canvas.encode('png');
}

function reasonFor(err: unknown): string {
  const name = err instanceof Error ? err.name : '';
  if (name === 'PasswordException') return 'The PDF is password protected.';
  return 'The PDF is damaged and cannot be read.';
}

export async function readPdf(
  file: string,
  limits: ExtractionLimits,
  ocr: OcrOptions,
): Promise<{ pages: string[]; ocr: boolean; truncated: boolean }> {
  const data = new Uint8Array(await fs.readFile(file));
  const task = getDocument({ data, standardFontDataUrl, isEvalSupported: false, verbosity: 0, stopAtErrors: false });
  let doc;
  try {
    doc = await task.promise;
  } catch (err) {
    throw new UnreadableError(reasonFor(err));
  }
  try {
    const count = Math.min(doc.numPages, limits.maxPages);
    const pages: string[] = [];
    let ocrUsed = false;
    for (let n = 1; n <= count; n++) {
      const page = await doc.getPage(n);
      let text = await pageText(page);
      if (text.replace(/\s/g, '').length < MIN_TEXT_LAYER_CHARS) {
        const scanned = await ocrImage(await renderPage(page), ocr);
        if (scanned.trim().length > text.trim().length) text = scanned;
        ocrUsed = true;
      }
      page.cleanup();
      pages.push(text);
    }
    return { pages, ocr: ocrUsed, truncated: doc.numPages > limits.maxPages };
  } finally {
    await doc.destroy();
  }
}
