// Placeholder until the extractor lands: plain text only, in process.
export type ExtractionLimits = { timeoutMs: number; maxMemoryMb: number; maxPages: number; maxTextChars: number; maxInputBytes: number };
export type ExtractionResult =
  | { state: 'indexed'; pages: string[]; ocr: boolean; truncated: boolean }
  | { state: 'no_text'; reason: string }
  | { state: 'failed'; reason: string };
export type ExtractInput = {
  read: () => Promise<NodeJS.ReadableStream> | NodeJS.ReadableStream;
  size: number;
  fileName: string;
  mimeType: string | null;
  ocrLanguages: string[];
};
export const OCR_LANGUAGES: readonly { code: string; name: string }[] = [{ code: 'eng', name: 'English' }];
export function extractorSupports(fileName: string): boolean {
  return /\.(txt|csv|md)$/i.test(fileName);
}
export class TextExtractor {
  constructor(readonly opts: { limits?: Partial<ExtractionLimits>; concurrency?: number } = {}) {}
  async extract(input: ExtractInput): Promise<ExtractionResult> {
    if (!extractorSupports(input.fileName)) return { state: 'no_text', reason: 'Text is not read from this type of file.' };
    const chunks: Buffer[] = [];
    for await (const c of await input.read()) chunks.push(Buffer.from(c as Buffer));
    const text = Buffer.concat(chunks).toString('utf8').replaceAll('\u0000', '');
    return text.trim()
      ? { state: 'indexed', pages: [text], ocr: false, truncated: false }
      : { state: 'no_text', reason: 'No words were found.' };
  }
  async close(): Promise<void> {}
}
