import { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import {
  OCR_LANGUAGES,
  TextExtractor,
  extractorSupports,
  type ExtractInput,
  type ExtractionLimits,
  type ExtractionResult,
} from './index.js';
import { EML, docx, longScan, scannedPdf, textPdf, textPng, textTiff, zipBombDocx } from './test-fixtures.js';

const extractor = new TextExtractor();
afterAll(() => extractor.close());

function input(bytes: Buffer | string, fileName: string, mimeType: string | null = null): ExtractInput {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes);
  return { read: () => Readable.from([buf]), size: buf.length, fileName, mimeType, ocrLanguages: ['eng'] };
}

/** Runs fn with an extractor of its own limits, closed afterwards. */
async function withLimits(limits: Partial<ExtractionLimits>, fn: (e: TextExtractor) => Promise<void>): Promise<void> {
  const own = new TextExtractor({ limits });
  try {
    await fn(own);
  } finally {
    await own.close();
  }
}

function text(result: ExtractionResult): string {
  if (result.state !== 'indexed') throw new Error(`expected indexed, got ${JSON.stringify(result)}`);
  return result.pages.join('\n');
}

describe('text extraction', () => {
  it('reads the text layer of a PDF, one string per page', async () => {
    const result = await extractor.extract(
      input(await textPdf(['The LESSOR shall repair.', 'Second page: ARBITRATION.']), 'lease.pdf', 'application/pdf'),
    );
    expect(result).toMatchObject({ state: 'indexed', ocr: false, truncated: false });
    if (result.state !== 'indexed') return;
    expect(result.pages).toHaveLength(2);
    expect(result.pages[0]).toContain('LESSOR');
    expect(result.pages[1]).toContain('ARBITRATION');
  });

  it('OCRs a scanned PDF page (no text layer), found by its magic bytes when the mime type is generic', async () => {
    const result = await extractor.extract(input(await scannedPdf(['INDEMNITY CLAUSE']), 'scan', 'application/octet-stream'));
    expect(result).toMatchObject({ state: 'indexed', ocr: true });
    expect(text(result).toUpperCase()).toContain('INDEMNITY');
  }, 60_000);

  it('OCRs a PNG and each frame of a TIFF', async () => {
    const png = await extractor.extract(input(await textPng('WARRANTY TERMS'), 'photo.png', 'image/png'));
    expect(text(png).toUpperCase()).toContain('WARRANTY');
    const tiff = await extractor.extract(input(textTiff(['FIRST COVENANT', 'SECOND EASEMENT']), 'fax.tif', 'image/tiff'));
    expect(tiff).toMatchObject({ state: 'indexed', ocr: true });
    if (tiff.state !== 'indexed') return;
    expect(tiff.pages).toHaveLength(2);
    expect(tiff.pages[0]!.toUpperCase()).toContain('COVENANT');
    expect(tiff.pages[1]!.toUpperCase()).toContain('EASEMENT');
  }, 60_000);

  it('reads a Word document', async () => {
    const result = await extractor.extract(input(await docx(['Heads of terms', 'The GUARANTOR agrees.']), 'terms.docx', null));
    expect(text(result)).toContain('GUARANTOR');
  });

  it('reads an e-mail: headers, body and attachment names', async () => {
    const all = text(await extractor.extract(input(EML, 'mail.eml', 'message/rfc822')));
    for (const part of ['Alice Counsel', 'Bob Client', 'Carol Partner', 'Settlement terms', 'ESTOPPEL', 'brief.pdf'])
      expect(all).toContain(part);
  });

  it('reads HTML without its scripts and styles, CSV, and UTF-16 text', async () => {
    const html =
      '<html><head><style>.x{color:red}</style><script>var HIDDENSCRIPT=1</script></head><body><p>The <b>NOVATION</b> deed</p></body></html>';
    const h = text(await extractor.extract(input(html, 'page.html', 'text/html')));
    expect(h).toContain('NOVATION');
    expect(h).not.toContain('HIDDENSCRIPT');
    expect(h).not.toContain('color');
    expect(text(await extractor.extract(input('matter,party\n42,SUBROGATION Ltd\0\n', 'list.csv', 'application/vnd.ms-excel')))).toBe(
      'matter,party\n42,SUBROGATION Ltd',
    );
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Clause LIEN', 'utf16le')]);
    expect(text(await extractor.extract(input(utf16, 'notes.txt', 'text/plain')))).toBe('Clause LIEN');
  });

  it('cuts text past maxTextChars and says truncated', async () => {
    await withLimits({ maxTextChars: 10 }, async (small) => {
      const result = await small.extract(input('0123456789ABCDEF', 'a.txt'));
      expect(result).toEqual({ state: 'indexed', pages: ['0123456789'], ocr: false, truncated: true });
    });
  });

  it('gives no_text for formats without text, empty files and files over maxInputBytes', async () => {
    expect(await extractor.extract(input('PK\x03\x04', 'archive.zip', 'application/zip'))).toMatchObject({ state: 'no_text' });
    expect(await extractor.extract(input('ID3', 'song.mp3', null))).toMatchObject({ state: 'no_text' });
    expect(await extractor.extract(input('  \n\0 ', 'blank.txt', 'text/plain'))).toMatchObject({ state: 'no_text' });
    const tooLarge = { state: 'no_text', reason: expect.stringContaining('too large') };
    await withLimits({ maxInputBytes: 4 }, async (tiny) => {
      expect(await tiny.extract(input('hello world', 'a.txt'))).toMatchObject(tooLarge);
      // A stream longer than its declared size is stopped at the limit as well.
      expect(await tiny.extract({ ...input('hello world', 'a.txt'), size: 2 })).toMatchObject(tooLarge);
    });
  });

  it('knows which formats it reads and which OCR languages ship', () => {
    expect(extractorSupports('a.PDF', null)).toBe(true);
    expect(extractorSupports('x', 'image/tiff')).toBe(true);
    expect(extractorSupports('a.zip', 'application/zip')).toBe(false);
    expect(OCR_LANGUAGES.map((l) => l.code)).toEqual(['eng', 'deu', 'fra', 'spa']);
  });
});

describe('text extraction of hostile files', () => {
  it('refuses a zip bomb .docx before unpacking it', async () => {
    const result = await extractor.extract(input(await zipBombDocx(), 'bomb.docx', null));
    expect(result).toEqual({ state: 'failed', reason: expect.stringContaining('unpacks to far more data') });
  }, 30_000);

  it('reads only maxPages pages of a long PDF and says truncated', async () => {
    const pages = ['ALPHA', 'BETA', 'GAMMA', 'DELTA'].map((w) => `Page about ${w}, long enough not to be OCRed.`);
    await withLimits({ maxPages: 2 }, async (few) => {
      const result = await few.extract(input(await textPdf(pages), 'long.pdf'));
      expect(result).toMatchObject({ state: 'indexed', truncated: true });
      if (result.state === 'indexed') expect(result.pages).toHaveLength(2);
    });
  });

  it('gives failed for a password-protected PDF', async () => {
    const result = await extractor.extract(input(await textPdf(['Confidential settlement'], { userPassword: 'secret' }), 'locked.pdf'));
    expect(result).toEqual({ state: 'failed', reason: 'The PDF is password protected.' });
  });

  it('gives failed for a damaged PDF, without throwing', async () => {
    const result = await extractor.extract(input('%PDF-1.7\n1 0 obj << /Type /Catalog >>\ngarbage', 'broken.pdf', 'application/pdf'));
    expect(result).toMatchObject({ state: 'failed' });
    // The next file is read by a fresh child.
    expect(text(await extractor.extract(input('still READABLE', 'b.txt')))).toBe('still READABLE');
  });

  it('kills a file past the time limit, and the app stays responsive meanwhile', async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 20);
    try {
      await withLimits({ timeoutMs: 1000 }, async (quick) => {
        const result = await quick.extract(input(await longScan(4), 'slow.pdf', 'application/pdf'));
        // The reason names the limit: the reading was cut off, not left to finish. The test's own timer kept
        // ticking while the child worked, so this process was never blocked.
        expect(result).toEqual({ state: 'failed', reason: 'Text extraction took longer than 1 second.' });
        expect(ticks).toBeGreaterThan(10);
      });
    } finally {
      clearInterval(ticker);
    }
  }, 30_000);

  it('kills a child past the memory limit', async () => {
    // OCR needs a few hundred MB (WebAssembly, outside the JavaScript heap): far past 2 x 64 MB.
    await withLimits({ maxMemoryMb: 64 }, async (lean) => {
      const result = await lean.extract(input(await textPng('HEAVY'), 'heavy.png', 'image/png'));
      expect(result).toEqual({ state: 'failed', reason: 'Text extraction needed more than 64 MB of memory.' });
    });
  }, 30_000);
});
