/** Text extraction for full-text search: see text-extractor.ts for how files are read and the limits kept. */
export { TextExtractor, extractorSupports } from './text-extractor.js';
export { OCR_LANGUAGES } from './types.js';
export type { ExtractInput, ExtractionLimits, ExtractionResult } from './types.js';
