/** Files built in code for the text extraction tests: no binary fixtures are kept in the repository. */
import { createCanvas } from '@napi-rs/canvas';
import PDFDocument from 'pdfkit';
import UTIF from 'utif2';
import yazl from 'yazl';

function collect(doc: PDFKit.PDFDocument): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    doc.end();
  });
}

/** A PDF with a text layer: one page per string. */
export function textPdf(pages: string[], options: PDFKit.PDFDocumentOptions = {}): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false, ...options });
  for (const text of pages) doc.addPage().fontSize(14).text(text);
  return collect(doc);
}

const WIDTH = 1400;
const HEIGHT = 300;

/** A canvas of large black words on white, for OCR. */
function drawWords(words: string) {
  const canvas = createCanvas(WIDTH, HEIGHT);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, WIDTH, HEIGHT);
  ctx.fillStyle = '#000000';
  ctx.font = 'bold 72px sans-serif';
  ctx.fillText(words, 40, HEIGHT / 2 + 24);
  return canvas;
}

/** Grey pixels (one byte a pixel) of large black words on white. */
function textGray(words: string): { gray: Uint8Array; width: number; height: number } {
  const rgba = drawWords(words).getContext('2d').getImageData(0, 0, WIDTH, HEIGHT).data;
  const gray = new Uint8Array(WIDTH * HEIGHT);
  for (let i = 0; i < gray.length; i++) gray[i] = rgba[i * 4]!;
  return { gray, width: WIDTH, height: HEIGHT };
}

/** A PNG image of large black words on white. */
export function textPng(words: string): Promise<Buffer> {
  return drawWords(words).encode('png');
}

/** A scanned A4 page at 200 dpi, full of lines of text: OCR takes seconds, not milliseconds. */
async function fullPagePng(): Promise<Buffer> {
  const canvas = createCanvas(1654, 2339);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, 1654, 2339);
  ctx.fillStyle = '#000000';
  ctx.font = '30px serif';
  for (let i = 0; i < 50; i++) ctx.fillText('The tenant shall keep the premises in good repair and condition.', 150, 200 + i * 40);
  return canvas.encode('png');
}

/** A scanned PDF of full pages, which takes many seconds to OCR. */
export async function longScan(pages: number): Promise<Buffer> {
  const png = await fullPagePng();
  const doc = new PDFDocument({ autoFirstPage: false });
  for (let i = 0; i < pages; i++) doc.addPage({ size: 'A4' }).image(png, 0, 0, { width: 595 });
  return collect(doc);
}

/** A scanned-looking PDF: each page holds only an image of text. */
export async function scannedPdf(words: string[]): Promise<Buffer> {
  const doc = new PDFDocument({ autoFirstPage: false });
  for (const w of words) doc.addPage().image(await textPng(w), 36, 72, { width: 540 });
  return collect(doc);
}

/** A greyscale TIFF with one page (frame) per string. */
export function textTiff(pages: string[]): Buffer {
  const images = pages.map((p) => textGray(p));
  const ifds: UTIF.IFD[] = [];
  let offset = 1000;
  for (const { width, height } of images) {
    ifds.push({
      t256: [width],
      t257: [height],
      t258: [8],
      t259: [1],
      t262: [1],
      t273: [offset],
      t277: [1],
      t278: [height],
      t279: [width * height],
      t282: [[72, 1]],
      t283: [[72, 1]],
      t284: [1],
      t296: [1],
    } as unknown as UTIF.IFD);
    offset += width * height;
  }
  const header = Buffer.from(UTIF.encode(ifds));
  if (header.length > 1000) throw new Error('TIFF header too long');
  return Buffer.concat([header, Buffer.alloc(1000 - header.length), ...images.map((i) => Buffer.from(i.gray))]);
}

function zip(entries: [string, Buffer | string][]): Promise<Buffer> {
  const z = new yazl.ZipFile();
  for (const [name, content] of entries) z.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name);
  z.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    z.outputStream.on('data', (c: Buffer) => chunks.push(c));
    z.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    z.outputStream.on('error', reject);
  });
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;
const RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;

/** A minimal Word document with one paragraph per string. */
export function docx(paragraphs: string[], extra: [string, Buffer][] = []): Promise<Buffer> {
  const body = paragraphs.map((p) => `<w:p><w:r><w:t>${p}</w:t></w:r></w:p>`).join('');
  const document = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${body}</w:body></w:document>`;
  return zip([['[Content_Types].xml', CONTENT_TYPES], ['_rels/.rels', RELS], ['word/document.xml', document], ...extra]);
}

/** A .docx that unpacks to far more than it stores: 150 MiB of zeros beside a real document. */
export function zipBombDocx(): Promise<Buffer> {
  return docx(['Harmless'], [['word/media/padding.bin', Buffer.alloc(150 * 1024 * 1024)]]);
}

export const EML = [
  'From: Alice Counsel <alice@example.com>',
  'To: Bob Client <bob@example.com>',
  'Cc: Carol Partner <carol@example.com>',
  'Subject: Settlement terms',
  'Date: Tue, 03 Mar 2026 10:00:00 +0000',
  'MIME-Version: 1.0',
  'Content-Type: multipart/mixed; boundary="b1"',
  '',
  '--b1',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'The ESTOPPEL argument is attached.',
  '--b1',
  'Content-Type: application/pdf; name="brief.pdf"',
  'Content-Disposition: attachment; filename="brief.pdf"',
  'Content-Transfer-Encoding: base64',
  '',
  Buffer.from('%PDF-1.4 not really').toString('base64'),
  '--b1--',
  '',
].join('\r\n');
