import { z } from 'zod';
import { text } from './common.js';
import { MATTER_STATUSES } from './matters.js';

/**
 * Finding documents by what they say: every file version's text is extracted after upload by a background job and
 * indexed; GET /_api/search/documents searches it (and file names) across the matters the caller may see. The
 * organization's search language and OCR languages are read and changed at /_api/settings/search.
 */

/** Kinds of file a search can be limited to, each a set of types (by MIME type and extension). */
export const DOCUMENT_FILE_TYPES = ['pdf', 'word', 'email', 'image', 'text', 'html', 'spreadsheet'] as const;
export type DocumentFileType = (typeof DOCUMENT_FILE_TYPES)[number];

export const DOCUMENT_FILE_TYPE_LABELS: Record<DocumentFileType, string> = {
  pdf: 'PDF',
  word: 'Word document',
  email: 'E-mail',
  image: 'Image',
  text: 'Plain text',
  html: 'Web page',
  spreadsheet: 'CSV',
};

/**
 * The languages a search can stem words in (a PostgreSQL text search configuration each): 'simple' matches words as
 * written, with no stemming.
 */
export const SEARCH_LANGUAGES = [
  { config: 'english', name: 'English' },
  { config: 'german', name: 'German' },
  { config: 'french', name: 'French' },
  { config: 'spanish', name: 'Spanish' },
  { config: 'italian', name: 'Italian' },
  { config: 'dutch', name: 'Dutch' },
  { config: 'portuguese', name: 'Portuguese' },
  { config: 'simple', name: 'No stemming (exact words)' },
] as const;
export type SearchLanguage = (typeof SEARCH_LANGUAGES)[number]['config'];
const SEARCH_LANGUAGE_CONFIGS = SEARCH_LANGUAGES.map((l) => l.config) as unknown as [SearchLanguage, ...SearchLanguage[]];

export const DOCUMENT_SEARCH_LIMITS = {
  queryMin: 2,
  queryMax: 200,
  limitDefault: 20,
  limitMax: 50,
  pageMax: 50,
  /** Matches are counted exactly up to this many; beyond, the total reads 'more than' it. */
  countMax: 1000,
  /** Words in one query: each is a lookup in the index. */
  termsMax: 16,
} as const;

export const DOCUMENT_SEARCH_MSG = {
  queryRequired: 'Search query (q) is required.',
  queryTooShort: `Search query must be at least ${DOCUMENT_SEARCH_LIMITS.queryMin} characters.`,
  queryTooLong: `Search query cannot exceed ${DOCUMENT_SEARCH_LIMITS.queryMax} characters.`,
  tooManyTerms: `A search can hold at most ${DOCUMENT_SEARCH_LIMITS.termsMax} words.`,
  noTerms: 'Type at least one word to search for.',
  limitRange: `limit must be a whole number from 1 to ${DOCUMENT_SEARCH_LIMITS.limitMax}.`,
  pageRange: `page must be a whole number from 1 to ${DOCUMENT_SEARCH_LIMITS.pageMax}.`,
  invalidMatterId: 'matterId must be a matter ID (a UUID).',
  invalidUploadedBy: 'uploadedBy must be a user ID (a UUID).',
  invalidFileType: `fileType must be one of ${DOCUMENT_FILE_TYPES.join(', ')}.`,
  invalidDate: 'Dates must be in YYYY-MM-DD format.',
  dateOrder: 'dateFrom must be on or before dateTo.',
  invalidVersions: "versions must be 'current' or 'all'.",
  clientTooLong: 'clientName cannot exceed 200 characters.',
  // The search page
  pageTitle: 'Search documents',
  label: 'Search the text and names of documents',
  placeholder: 'Words, "an exact phrase", -exclude, prefix*',
  help: 'Use quotes for a phrase, a minus sign to exclude a word and a star for words that start with the text.',
  noResults: 'No documents match.',
  failed: 'Search failed.',
  allVersions: 'Search every version',
  searchContents: (q: string) => `Search document contents for “${q}”`,
  // Settings
  settingsTitle: 'Document search',
  languageInvalid: 'Choose one of the listed search languages.',
  ocrLanguagesInvalid: 'Choose one to three of the listed OCR languages.',
  settingsSaved: 'Search settings saved.',
  reindexStarted: 'Re-indexing started.',
  reindexRunning: 'A re-index is already running.',
  reindexOffer: 'The new language applies to documents indexed from now on. Re-index existing documents?',
} as const;

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
const wholeNumber = (max: number, error: string, fallback: number) =>
  z.preprocess(blankToUndefined, z.coerce.number({ error }).int({ error }).min(1, { error }).max(max, { error }).default(fallback));
const isoDate = z.preprocess(
  blankToUndefined,
  z
    .string({ error: DOCUMENT_SEARCH_MSG.invalidDate })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: DOCUMENT_SEARCH_MSG.invalidDate })
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), {
      error: DOCUMENT_SEARCH_MSG.invalidDate,
    })
    .optional(),
);

/**
 * GET /_api/search/documents. q: words (all must occur, in any form of the word the language stems to), "a phrase",
 * -word (must not occur), word* (words starting with it). Filters: matterId, clientName (the matter's client,
 * ignoring case), fileType, uploadedBy (the uploader's user id), dateFrom/dateTo (the upload's day, UTC, inclusive).
 * versions: 'current' (default) searches each file's current version, 'all' every version.
 */
export const documentSearchQuery = z
  .object({
    q: z.preprocess(
      blankToUndefined,
      text({ error: DOCUMENT_SEARCH_MSG.queryRequired })
        .trim()
        .refine((q) => q.length >= DOCUMENT_SEARCH_LIMITS.queryMin, { error: DOCUMENT_SEARCH_MSG.queryTooShort, abort: true })
        .max(DOCUMENT_SEARCH_LIMITS.queryMax, { error: DOCUMENT_SEARCH_MSG.queryTooLong })
        .normalize('NFC'),
    ),
    matterId: z.preprocess(blankToUndefined, z.uuid({ error: DOCUMENT_SEARCH_MSG.invalidMatterId }).optional()),
    clientName: z.preprocess(blankToUndefined, text().trim().max(200, { error: DOCUMENT_SEARCH_MSG.clientTooLong }).optional()),
    fileType: z.preprocess(blankToUndefined, z.enum(DOCUMENT_FILE_TYPES, { error: DOCUMENT_SEARCH_MSG.invalidFileType }).optional()),
    uploadedBy: z.preprocess(blankToUndefined, z.uuid({ error: DOCUMENT_SEARCH_MSG.invalidUploadedBy }).optional()),
    dateFrom: isoDate,
    dateTo: isoDate,
    versions: z.preprocess(blankToUndefined, z.enum(['current', 'all'], { error: DOCUMENT_SEARCH_MSG.invalidVersions }).default('current')),
    limit: wholeNumber(DOCUMENT_SEARCH_LIMITS.limitMax, DOCUMENT_SEARCH_MSG.limitRange, DOCUMENT_SEARCH_LIMITS.limitDefault),
    page: wholeNumber(DOCUMENT_SEARCH_LIMITS.pageMax, DOCUMENT_SEARCH_MSG.pageRange, 1),
  })
  .refine((q) => q.dateFrom === undefined || q.dateTo === undefined || q.dateFrom <= q.dateTo, {
    error: DOCUMENT_SEARCH_MSG.dateOrder,
    path: ['dateFrom'],
  });
export type DocumentSearchQuery = z.infer<typeof documentSearchQuery>;

/** A piece of a snippet: the words that matched have match true (shown highlighted); the rest is plain text. */
const snippetPartSchema = z.object({ text: z.string(), match: z.boolean() });
export type SnippetPart = z.infer<typeof snippetPartSchema>;

const documentHitSchema = z.object({
  nodeId: z.string(),
  /** The file's name now. */
  name: z.string(),
  versionNumber: z.number().int(),
  /** Whether this version is the file's current one. */
  current: z.boolean(),
  mimeType: z.string().nullable(),
  fileSize: z.number().int(),
  matter: z.object({
    id: z.string(),
    matterName: z.string(),
    matterNumber: z.string().nullable(),
    clientName: z.string().nullable(),
    status: z.enum(MATTER_STATUSES),
  }),
  /** The folders from the matter's root to the file's folder (empty at the root). */
  path: z.array(z.object({ id: z.string(), name: z.string() })),
  uploadedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  uploadedAt: z.string(),
  /** The first page (PDF page or image frame, from 1) on which the words occur; null when the format has no pages. */
  page: z.number().int().nullable(),
  /** Where the words occur in the text, with the matching words marked; empty when only the name matched. */
  snippet: z.array(snippetPartSchema),
  /** Whether the file's name holds the words. */
  nameMatched: z.boolean(),
});
export type DocumentHit = z.infer<typeof documentHitSchema>;

/**
 * One page of hits, best first. total counts the matches exactly up to DOCUMENT_SEARCH_LIMITS.countMax; totalCapped
 * says there are more than that.
 */
export const documentSearchResponse = z.object({
  query: z.string(),
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  totalCapped: z.boolean(),
  hits: z.array(documentHitSchema),
});
export type DocumentSearchResponse = z.infer<typeof documentSearchResponse>;

/** A re-index run of the organization's documents and how far it has come. */
const reindexSchema = z.object({
  state: z.enum(['running', 'completed']),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  total: z.number().int(),
  done: z.number().int(),
});

/** GET /_api/settings/search: the organization's languages, the choices, and the text states of its files. */
export const searchSettingsResponse = z.object({
  language: z.enum(SEARCH_LANGUAGE_CONFIGS),
  ocrLanguages: z.array(z.string()),
  languages: z.array(z.object({ config: z.string(), name: z.string() })),
  availableOcrLanguages: z.array(z.object({ code: z.string(), name: z.string() })),
  /** Files' current versions by text state. */
  counts: z.object({ pending: z.number().int(), indexed: z.number().int(), no_text: z.number().int(), failed: z.number().int() }),
  reindex: reindexSchema.nullable(),
});
export type SearchSettingsResponse = z.infer<typeof searchSettingsResponse>;

/** POST /_api/settings/search (administrators). */
export const updateSearchSettingsRequest = z.strictObject({
  language: z.enum(SEARCH_LANGUAGE_CONFIGS, { error: DOCUMENT_SEARCH_MSG.languageInvalid }),
  ocrLanguages: z
    .array(text({ error: DOCUMENT_SEARCH_MSG.ocrLanguagesInvalid }), { error: DOCUMENT_SEARCH_MSG.ocrLanguagesInvalid })
    .min(1, { error: DOCUMENT_SEARCH_MSG.ocrLanguagesInvalid })
    .max(3, { error: DOCUMENT_SEARCH_MSG.ocrLanguagesInvalid }),
});
export type UpdateSearchSettingsRequest = z.infer<typeof updateSearchSettingsRequest>;

/** POST /_api/settings/search/reindex (administrators): rebuilds the text and index of every file, in the background. */
export const reindexRequest = z.strictObject({
  /** Only versions uploaded on or after this day (YYYY-MM-DD); all when absent. */
  since: isoDate,
});
export type ReindexRequest = z.infer<typeof reindexRequest>;
export const reindexResponse = z.object({ message: z.string(), reindex: reindexSchema });
export type ReindexResponse = z.infer<typeof reindexResponse>;
