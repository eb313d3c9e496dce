/**
 * OCR with tesseract.js, without the network: the engine is tesseract.js-core from node_modules and the language
 * data comes from the @tesseract.js-data packages, so nothing is fetched from a CDN and nothing is cached. The
 * engine reads every language from one directory, so a directory of links to the packages' files is made for its
 * start, inside the file's own temp directory (which the app removes after every file, even when it had to kill
 * this child), and removed once the data is loaded. One tesseract worker is kept per extraction child (starting one takes
 * about a second) and restarted when a file asks for other languages.
 */
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import Tesseract from 'tesseract.js';
import UTIF from 'utif2';
import { UnreadableError } from './types.js';

const require = createRequire(import.meta.url);
/** An image larger than this (in pixels) is not decoded: a small file can declare a huge image. */
const MAX_IMAGE_PIXELS = 60_000_000;

let current: { key: string; worker: Tesseract.Worker } | null = null;

function dataDir(code: string): string {
  return path.join(path.dirname(require.resolve(`@tesseract.js-data/${code}`)), '4.0.0_best_int');
}

/** The languages to read, and the directory (removed by the app after the file) where OCR may write. */
export type OcrOptions = { languages: string[]; scratchDir: string };

async function workerFor({ languages, scratchDir }: OcrOptions): Promise<Tesseract.Worker> {
  const key = languages.join('+');
  if (current?.key === key) return current.worker;
  if (current) await current.worker.terminate();
  current = null;
  const dir = await fs.mkdtemp(path.join(scratchDir, 'ocr-'));
  try {
    for (const code of languages) {
      const name = `${code}.traineddata.gz`;
      await fs.symlink(path.join(dataDir(code), name), path.join(dir, name));
    }
    current = {
      key,
      worker: await Tesseract.createWorker(languages, Tesseract.OEM.LSTM_ONLY, { langPath: dir, cacheMethod: 'none', gzip: true }),
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
  return current.worker;
}

/** The text tesseract reads in an encoded PNG or JPEG image. */
export async function ocrImage(image: Buffer, options: OcrOptions): Promise<string> {
  const worker = await workerFor(options);
  const { data } = await worker.recognize(image);
  return data.text;
}

function checkPixels(width: number, height: number): void {
  if (width * height > MAX_IMAGE_PIXELS) throw new UnreadableError('The image is too large to read.');
}

/** Width and height from a PNG's header or a JPEG's frame header, to refuse huge images before decoding them. */
export function checkImageSize(image: Buffer): void {
  if (image.length >= 24 && image.toString('latin1', 1, 4) === 'PNG') {
    checkPixels(image.readUInt32BE(16), image.readUInt32BE(20));
    return;
  }
  let at = 2;
  while (image[0] === 0xff && image[1] === 0xd8 && at + 9 < image.length) {
    if (image[at] !== 0xff) return;
    const marker = image[at + 1]!;
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return checkPixels(image.readUInt16BE(at + 7), image.readUInt16BE(at + 5));
    at += 2 + image.readUInt16BE(at + 2);
  }
}

/** Each page (frame) of a TIFF as a PNG, at most maxPages of them; tesseract.js does not read TIFF itself. */
export async function tiffPages(tiff: Buffer, maxPages: number): Promise<{ pngs: Buffer[]; truncated: boolean }> {
  let ifds: UTIF.IFD[];
  try {
    ifds = UTIF.decode(tiff).filter((ifd) => ifd['t256'] !== undefined);
  } catch {
    throw new UnreadableError('The TIFF image is damaged and cannot be read.');
  }
  const pngs: Buffer[] = [];
  for (const ifd of ifds.slice(0, maxPages)) {
    const width = Number((ifd['t256'] as number[])[0]);
    const height = Number((ifd['t257'] as number[] | undefined)?.[0] ?? 0);
    checkPixels(width, height);
    let rgba: Uint8Array;
    try {
      UTIF.decodeImage(tiff, ifd);
      rgba = UTIF.toRGBA8(ifd);
    } catch {
      throw new UnreadableError('The TIFF image is damaged and cannot be read.');
    }
    const w = Number(ifd['width']);
    const h = Number(ifd['height']);
    const canvas = createCanvas(w, h);
    const ctx = canvas.getContext('2d');
    const imageData = ctx.createImageData(w, h);
    imageData.data.set(rgba.subarray(0, w * h * 4));
    ctx.putImageData(imageData, 0, 0);
    pngs.push(await canvas.encode('png'));
  }
  return { pngs, truncated: ifds.length > maxPages };
}
