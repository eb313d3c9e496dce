/**
 * Word (.docx), e-mail (.eml), HTML and plain-text files. A .docx is a zip: its central directory is read first
 * and a file that declares too much uncompressed content (a zip bomb) is refused before mammoth unpacks it; the
 * child's memory and time limits are the second line of defence, for archives whose declared sizes lie.
 */
import fs from 'node:fs/promises';
import { convert } from 'html-to-text';
import { type AddressObject, simpleParser } from 'mailparser';
import mammoth from 'mammoth';
import yauzl from 'yauzl';
import { UnreadableError } from './types.js';

/** A .docx declaring more than this uncompressed is refused (the text of a 1,000-page contract is a few MiB). */
const MAX_ZIP_UNCOMPRESSED = 100 * 1024 * 1024;
const MAX_ZIP_ENTRIES = 10_000;
/** An entry that expands more than this many times over (and past 1 MiB) is a bomb, not a document. */
const MAX_ZIP_RATIO = 200;

type ZipTotals = { entries: number; uncompressed: number; worstRatio: number };

function zipTotals(file: string): Promise<ZipTotals> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err) return reject(err);
      const totals: ZipTotals = { entries: 0, uncompressed: 0, worstRatio: 0 };
      zip.on('error', reject);
      zip.on('end', () => resolve(totals));
      zip.on('entry', (entry: yauzl.Entry) => {
        totals.entries++;
        totals.uncompressed += entry.uncompressedSize;
        if (entry.uncompressedSize > 1024 * 1024) {
          totals.worstRatio = Math.max(totals.worstRatio, entry.uncompressedSize / Math.max(1, entry.compressedSize));
        }
        if (totals.entries > MAX_ZIP_ENTRIES || totals.uncompressed > MAX_ZIP_UNCOMPRESSED) {
          zip.close();
          resolve(totals);
          return;
        }
        zip.readEntry();
      });
      zip.readEntry();
    });
  });
}

export async function readDocx(file: string): Promise<string> {
  let totals: ZipTotals;
  try {
    totals = await zipTotals(file);
  } catch {
    throw new UnreadableError('The Word document is damaged and cannot be read.');
  }
  if (totals.entries > MAX_ZIP_ENTRIES || totals.uncompressed > MAX_ZIP_UNCOMPRESSED || totals.worstRatio > MAX_ZIP_RATIO) {
    throw new UnreadableError('The Word document unpacks to far more data than a document holds, so it was not read.');
  }
  try {
    const { value } = await mammoth.extractRawText({ path: file });
    return value;
  } catch {
    throw new UnreadableError('The Word document is damaged and cannot be read.');
  }
}

export function htmlText(html: string): string {
  return convert(html, {
    wordwrap: false,
    selectors: [
      { selector: 'script', format: 'skip' },
      { selector: 'style', format: 'skip' },
      { selector: 'noscript', format: 'skip' },
      { selector: 'img', format: 'skip' },
      { selector: 'a', options: { ignoreHref: true } },
    ],
  });
}

function addresses(value: AddressObject | AddressObject[] | undefined): string {
  if (!value) return '';
  return (Array.isArray(value) ? value : [value]).map((a) => a.text).join(', ');
}

export async function readEml(file: string): Promise<string> {
  const mail = await simpleParser(await fs.readFile(file));
  const headers: [string, string][] = [
    ['From', addresses(mail.from)],
    ['To', addresses(mail.to)],
    ['Cc', addresses(mail.cc)],
    ['Date', mail.date ? mail.date.toISOString() : ''],
    ['Subject', mail.subject ?? ''],
  ];
  const lines = headers.filter(([, v]) => v !== '').map(([k, v]) => `${k}: ${v}`);
  const body = mail.text?.trim() ? mail.text : mail.html ? htmlText(mail.html) : '';
  const attachments = mail.attachments.map((a) => a.filename).filter((n): n is string => !!n);
  const parts = [lines.join('\n'), body.trim()];
  if (attachments.length > 0) parts.push(`Attachments: ${attachments.join(', ')}`);
  return parts.filter((p) => p !== '').join('\n\n');
}

/** Text of a plain-text file: UTF-8, or UTF-16 when it starts with a byte-order mark. */
export function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  return new TextDecoder('utf-8').decode(bytes);
}

/** At most maxBytes from the start of a file, and whether the file is longer. */
export async function readHead(file: string, maxBytes: number): Promise<{ bytes: Buffer; more: boolean }> {
  const handle = await fs.open(file, 'r');
  try {
    const { size } = await handle.stat();
    const length = Math.min(size, maxBytes);
    const bytes = Buffer.alloc(length);
    const { bytesRead } = await handle.read(bytes, 0, length, 0);
    return { bytes: bytes.subarray(0, bytesRead), more: size > maxBytes };
  } finally {
    await handle.close();
  }
}
