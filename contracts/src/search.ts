import { z } from 'zod';
import { text } from './common.js';
import { MATTER_STATUSES } from './matters.js';

/**
 * Search across the matters, folders and files the caller may see: GET /_api/search. One call feeds the top bar's
 * search box as the user types; its texts, limits and answer shape are here.
 */
export const SEARCH_LIMITS = {
  /** One character matches too much to be useful: the box asks from two on, the server refuses fewer. */
  queryMin: 2,
  queryMax: 200,
  limitDefault: 20,
  limitMax: 50,
  /** Deep pages of a ranked list are never read from a search box; the cap keeps offsets cheap. */
  pageMax: 50,
} as const;

export const SEARCH_MSG = {
  queryRequired: 'Search query (q) is required.',
  queryTooShort: `Search query must be at least ${SEARCH_LIMITS.queryMin} characters.`,
  queryTooLong: `Search query cannot exceed ${SEARCH_LIMITS.queryMax} characters.`,
  limitRange: `limit must be a whole number from 1 to ${SEARCH_LIMITS.limitMax}.`,
  pageRange: `page must be a whole number from 1 to ${SEARCH_LIMITS.pageMax}.`,
  invalidMatterId: 'matterId must be a matter ID (a UUID).',
  // The search box
  label: 'Search matters, files and folders',
  placeholder: 'Search matters, files and folders…',
  noResults: 'No matters, files or folders match.',
  failed: 'Search failed.',
  typeMore: `Type at least ${SEARCH_LIMITS.queryMin} characters to search.`,
  allMatters: (q: string) => `Show all matters matching “${q}”`,
  // The matter workspace's box: files and folders of that one matter, at any depth
  inMatterLabel: 'Search in this matter',
  inMatterPlaceholder: 'Search in this matter...',
  inMatterNoResults: 'No files or folders match',
  inMatterResults: (q: string) => `Files and folders matching “${q}”`,
  inMatterMore: `Showing the first ${SEARCH_LIMITS.limitMax} matches. Type more to narrow the search.`,
} as const;

const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const wholeNumber = (max: number, error: string, fallback: number) =>
  z.preprocess(blankToUndefined, z.coerce.number({ error }).int({ error }).min(1, { error }).max(max, { error }).default(fallback));

export const searchQuery = z.object({
  q: z.preprocess(
    blankToUndefined,
    text({ error: SEARCH_MSG.queryRequired })
      .trim()
      // String length in UTF-16 units, as the search box counts before it asks.
      .refine((q) => q.length >= SEARCH_LIMITS.queryMin, { error: SEARCH_MSG.queryTooShort, abort: true })
      .max(SEARCH_LIMITS.queryMax, { error: SEARCH_MSG.queryTooLong })
      .normalize('NFC'),
  ),
  limit: wholeNumber(SEARCH_LIMITS.limitMax, SEARCH_MSG.limitRange, SEARCH_LIMITS.limitDefault),
  page: wholeNumber(SEARCH_LIMITS.pageMax, SEARCH_MSG.pageRange, 1),
  /** Only this matter's files and folders (no matter hits); blank is the same as absent. */
  matterId: z.preprocess(blankToUndefined, z.uuid({ error: SEARCH_MSG.invalidMatterId }).optional()),
});
export type SearchQuery = z.infer<typeof searchQuery>;

/** A matter as a search result shows it: enough to recognise it and its restrictions. */
const searchMatterSchema = z.object({
  id: z.string(),
  matterName: z.string(),
  matterNumber: z.string().nullable(),
  clientName: z.string().nullable(),
  responsibleLawyer: z.string().nullable(),
  status: z.enum(MATTER_STATUSES),
  legalHold: z.boolean(),
  /** Whether the matter itself matched (by name, number, client, lawyer or description), not only its nodes. */
  matched: z.boolean(),
});
export type SearchMatter = z.infer<typeof searchMatterSchema>;

/** A folder of a node's path, from the matter's root down to the node's own folder. */
const searchPathStepSchema = z.object({ id: z.string(), name: z.string() });

const searchNodeSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(['file', 'folder']),
  /** Bytes, for files; null for folders. */
  size: z.number().nullable(),
  /** The folder holding the node; null at the matter's root. */
  parentId: z.string().nullable(),
  /** The folders from the root to the node's parent, by name (empty at the root). */
  path: z.array(searchPathStepSchema),
});
export type SearchNode = z.infer<typeof searchNodeSchema>;

const searchGroupSchema = z.object({ matter: searchMatterSchema, nodes: z.array(searchNodeSchema) });
export type SearchGroup = z.infer<typeof searchGroupSchema>;

/**
 * One page of ranked hits (a matter or a node each: exact match, then prefix, then by trigram similarity), grouped
 * by matter in the order of each matter's best hit. hasMore: the next page holds more hits.
 */
export const searchResponse = z.object({
  query: z.string(),
  page: z.number().int(),
  limit: z.number().int(),
  hasMore: z.boolean(),
  groups: z.array(searchGroupSchema),
});
export type SearchResponse = z.infer<typeof searchResponse>;
