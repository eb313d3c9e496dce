/**
 * Text extraction for full-text search, off the app's event loop and unable to take the app down.
 *
 * Every file is read in a child process (child_process.fork), not a worker thread: OCR runs tesseract's
 * WebAssembly and PDF rendering uses a native canvas, and neither's memory is bounded by a worker thread's V8
 * resourceLimits, nor can a thread stuck in WebAssembly or native code be stopped for sure. A child process has
 * its heap capped (--max-old-space-size), its whole resident memory watched, and is killed with SIGKILL at the
 * time limit; a child that dies only fails its one file, and the next file gets a fresh child.
 *
 * The input is streamed to a temp file (mode 0600, in a fresh 0700 directory, always removed afterwards) which
 * the child reads. A child is kept warm between files (starting OCR takes about a second) and replaced after
 * RECYCLE_AFTER files or after any file that failed.
 *
 *   const extractor = new TextExtractor({ limits: { timeoutMs: 60_000 }, concurrency: 1 });
 *   const result = await extractor.extract({ read: () => storage.read(key), size, fileName, mimeType, ocrLanguages: ['eng'] });
 *   await extractor.close();
 *
 * extract() answers 'failed' or 'no_text' for anything wrong with the content. It throws for a programming error
 * (bad arguments, used after close) and when input.read() or its stream fails: that is the storage failing, not
 * the file, and the caller's job should retry it.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ExtractChild } from './child.js';
import { detectFormat, formatByName, mayRead } from './formats.js';
import { DEFAULT_LIMITS, type ExtractInput, type ExtractionLimits, type ExtractionResult, ocrLanguagesFor } from './types.js';

/** A warm child is replaced after this many files, so that memory a reader leaks does not build up. */
const RECYCLE_AFTER = 50;
const SNIFF_BYTES = 4096;

class TooLarge extends Error {}

function mib(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

/** Whether Strongroom reads text from a file of this name and mime type (the content may still prove unreadable). */
export function extractorSupports(fileName: string, mimeType: string | null): boolean {
  return formatByName(fileName, mimeType) !== null;
}

export class TextExtractor {
  private readonly limits: ExtractionLimits;
  private readonly concurrency: number;
  private readonly tmpDir: string;
  private readonly idle: ExtractChild[] = [];
  private readonly live = new Set<ExtractChild>();
  private readonly waiting: (() => void)[] = [];
  private running = 0;
  private closed = false;

  constructor(opts: { limits?: Partial<ExtractionLimits>; concurrency?: number; tmpDir?: string } = {}) {
    this.limits = { ...DEFAULT_LIMITS, ...opts.limits };
    this.concurrency = opts.concurrency ?? 1;
    this.tmpDir = opts.tmpDir ?? os.tmpdir();
    for (const [key, value] of Object.entries(this.limits)) {
      if (!Number.isFinite(value) || value <= 0) throw new RangeError(`TextExtractor: limit ${key} must be a positive number`);
    }
    if (!Number.isInteger(this.concurrency) || this.concurrency < 1)
      throw new RangeError('TextExtractor: concurrency must be a positive integer');
  }

  async extract(input: ExtractInput): Promise<ExtractionResult> {
    if (this.closed) throw new Error('TextExtractor: extract() after close()');
    if (typeof input.read !== 'function' || typeof input.fileName !== 'string' || !Array.isArray(input.ocrLanguages)) {
      throw new TypeError('TextExtractor: extract() needs read, fileName and ocrLanguages');
    }
    if (input.size > this.limits.maxInputBytes) return this.tooLarge();
    if (!mayRead(input.fileName, input.mimeType)) {
      return { state: 'no_text', reason: 'Text is not read from this type of file.' };
    }
    await this.acquire();
    try {
      return await this.extractOne(input);
    } finally {
      this.release();
    }
  }

  /** Stops every child; files being read end as 'failed'. */
  async close(): Promise<void> {
    this.closed = true;
    const children = [...this.live];
    for (const child of children) child.kill();
    await Promise.all(children.map((c) => c.exitedPromise()));
    this.idle.length = 0;
  }

  private tooLarge(): ExtractionResult {
    return { state: 'no_text', reason: `The file is too large to read for search (over ${mib(this.limits.maxInputBytes)}).` };
  }

  private async acquire(): Promise<void> {
    if (this.running < this.concurrency) {
      this.running++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  private async extractOne(input: ExtractInput): Promise<ExtractionResult> {
    const dir = await fsp.mkdtemp(path.join(this.tmpDir, 'strongroom-extract-'));
    try {
      const file = path.join(dir, 'input');
      try {
        await this.receive(input, file);
      } catch (err) {
        if (err instanceof TooLarge) return this.tooLarge();
        throw err;
      }
      const format = detectFormat(input.fileName, input.mimeType, await this.head(file));
      if (!format) return { state: 'no_text', reason: 'Text is not read from this type of file.' };
      if (this.closed) return { state: 'failed', reason: 'Text extraction was stopped.' };
      const child = this.idle.pop() ?? this.spawn();
      const result = await child.run({ file, format, limits: this.limits, languages: ocrLanguagesFor(input.ocrLanguages) });
      if (this.closed && !child.alive) return { state: 'failed', reason: 'Text extraction was stopped.' };
      if (result.state === 'failed' || child.files >= RECYCLE_AFTER || !child.alive || this.closed) this.retire(child);
      else this.idle.push(child);
      return result;
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }

  private spawn(): ExtractChild {
    const child = new ExtractChild(this.limits);
    this.live.add(child);
    void child.exitedPromise().then(() => this.live.delete(child));
    return child;
  }

  private retire(child: ExtractChild): void {
    child.kill();
    this.live.delete(child);
  }

  /** Streams the input to a new file only this process's user can read, stopping past maxInputBytes. */
  private async receive(input: ExtractInput, file: string): Promise<void> {
    const max = this.limits.maxInputBytes;
    let seen = 0;
    const limit = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        seen += chunk.length;
        cb(seen > max ? new TooLarge() : null, chunk);
      },
    });
    const source = await input.read();
    await pipeline(source, limit, fs.createWriteStream(file, { flags: 'wx', mode: 0o600 }));
  }

  private async head(file: string): Promise<Buffer> {
    const handle = await fsp.open(file, 'r');
    try {
      const buf = Buffer.alloc(SNIFF_BYTES);
      const { bytesRead } = await handle.read(buf, 0, SNIFF_BYTES, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }
}
