import type { Readable } from 'node:stream';
import type { Executor } from '../../platform/db/database.js';
import { failpoint } from '../../platform/failpoints.js';
import { BlobNotFoundError } from '../../platform/storage/blob-store.js';
import { TextExtractor, type ExtractionResult } from '../../platform/text-extraction/index.js';
import type { AppContext } from '../../shared/context.js';
import {
  claimPendingText,
  currentStoragePath,
  finishReindexRuns,
  hasClaimableText,
  writeText,
  type ClaimedText,
  type TextOutcome,
} from './document-text.repository.js';

/**
 * Reading the text of stored files for document search, as a durable background job, never in the upload's
 * request. A job reads the version it was queued for, then goes on with whatever else is pending (oldest first)
 * up to TEXTS_PER_RUN, and queues a successor while texts remain; a cron run every minute takes up what nobody
 * queued (files stored before search existed, a re-index, claims whose job died).
 *
 * Each text is claimed by the job reading it (see claimPendingText) and written only under that claim, once. A
 * text that took its job's process down MAX_ATTEMPTS times is recorded as failed instead of being tried forever.
 * The reading itself runs in the extractor's own process, bounded in time, memory and pages.
 */
export const FILE_TEXT_JOB = 'file-text';
type FileTextJob = { versionId?: string };

const TEXTS_PER_RUN = 500;
/** A run takes no further text after this long, and queues its successor instead (the job's time is bounded). */
const RUN_BUDGET_SECONDS = 5 * 60;
const MAX_ATTEMPTS = 3;
/** Longer than one extraction may take, so a live job's claim never lapses under it. */
const claimSeconds = (ctx: AppContext) => ctx.config.textExtraction.timeoutSeconds + 5 * 60;
/** Text kept and indexed per version: PostgreSQL's index entry of one document is limited to 1 MB of words. */
const TEXT_MAX_CHARS = 1_000_000;
/** Separates pages in the stored text. */
const PAGE_BREAK = '\f';

const extractors = new WeakMap<AppContext, TextExtractor>();
function extractorOf(ctx: AppContext): TextExtractor {
  let e = extractors.get(ctx);
  if (!e) {
    const limits = ctx.config.textExtraction;
    e = new TextExtractor({
      limits: {
        maxTextChars: TEXT_MAX_CHARS,
        timeoutMs: limits.timeoutSeconds * 1000,
        maxMemoryMb: limits.memoryMb,
        maxPages: limits.maxPages,
      },
    });
    extractors.set(ctx, e);
  }
  return e;
}

/** Stops the extractor's process, if one was started (the app's close). */
export async function closeTextExtractor(ctx: AppContext): Promise<void> {
  await extractors.get(ctx)?.close();
  extractors.delete(ctx);
}

/** Queues the reading of a new version's text, inside the transaction that stored the version. */
export async function queueTextReading(ctx: AppContext, trx: Executor, versionId?: string): Promise<void> {
  await ctx.jobs.enqueue<FileTextJob>(trx, FILE_TEXT_JOB, versionId === undefined ? {} : { versionId });
}

function outcomeOf(result: ExtractionResult): TextOutcome {
  if (result.state !== 'indexed') return { state: result.state, reason: result.reason, body: null, ocr: false, truncated: false };
  let body = result.pages.map((p) => p.replaceAll('\u0000', '').replaceAll(PAGE_BREAK, ' ')).join(PAGE_BREAK);
  let truncated = result.truncated;
  if (body.length > TEXT_MAX_CHARS) {
    body = body.slice(0, TEXT_MAX_CHARS);
    truncated = true;
  }
  if (body.trim() === '')
    return { state: 'no_text', reason: 'No words were found in the file.', body: null, ocr: result.ocr, truncated: false };
  return { state: 'indexed', reason: null, body, ocr: result.ocr, truncated };
}

/** PostgreSQL refuses a document's words past 1 MB ('string is too long for tsvector'). */
function isTooLongForIndex(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: string }).code === '54000';
}

/** Writes the outcome, keeping less of a text whose words do not fit one index entry. */
async function store(ctx: AppContext, jobId: string, versionId: string, outcome: TextOutcome): Promise<void> {
  let o = outcome;
  for (let tries = 0; ; tries += 1) {
    try {
      await writeText(ctx.db, jobId, versionId, o);
      return;
    } catch (err) {
      if (!isTooLongForIndex(err) || o.body === null || tries >= 6) throw err;
      o = { ...o, body: o.body.slice(0, Math.floor(o.body.length / 2)), truncated: true };
    }
  }
}

/**
 * Reads the text of the object at `key`. An object that is not there is reported as missing (the caller looks
 * where the version's object is now); any other failure to read the store is thrown, so the job is retried later
 * rather than the file's text recorded as failed for good.
 */
async function extractFrom(ctx: AppContext, claimed: ClaimedText, key: string): Promise<{ result: ExtractionResult; missing: boolean }> {
  let missing = false;
  try {
    const result = await extractorOf(ctx).extract({
      read: async () => {
        try {
          return (await ctx.store.getStream(key)) as Readable;
        } catch (err) {
          if (err instanceof BlobNotFoundError) missing = true;
          throw err;
        }
      },
      size: Number(claimed.fileSize),
      fileName: claimed.name,
      mimeType: claimed.mimeType,
      ocrLanguages: claimed.ocrLanguages,
    });
    return { result, missing };
  } catch (err) {
    if (missing) return { result: { state: 'failed', reason: 'The stored file could not be read.' }, missing };
    throw err;
  }
}

/** Reads one claimed text and writes it. */
async function readOne(ctx: AppContext, jobId: string, claimed: ClaimedText): Promise<void> {
  if (claimed.attempts > MAX_ATTEMPTS) {
    const reason = `Reading the text was stopped after ${MAX_ATTEMPTS} attempts.`;
    await store(ctx, jobId, claimed.versionId, { state: 'failed', reason, body: null, ocr: false, truncated: false });
    return;
  }
  await failpoint(ctx, 'search.text.before-read', { versionId: claimed.versionId });
  let key = claimed.storagePath;
  let { result, missing } = await extractFrom(ctx, claimed, key);
  // The object moved (into the vault) while it was read: read it where it is now; a version deleted meanwhile
  // has no row to write, and writeText finds none.
  if (missing) {
    const now = await currentStoragePath(ctx.db, claimed.organizationId, claimed.versionId);
    if (now === null) return;
    if (now !== key) {
      key = now;
      ({ result, missing } = await extractFrom(ctx, claimed, key));
    }
    if (missing) result = { state: 'failed', reason: 'The stored file could not be read.' };
  }
  await failpoint(ctx, 'search.text.after-read', { versionId: claimed.versionId });
  await store(ctx, jobId, claimed.versionId, outcomeOf(result));
}

/** One run: the queued version first, then others pending, up to TEXTS_PER_RUN or RUN_BUDGET_SECONDS. */
async function runTextJob(ctx: AppContext, data: FileTextJob, jobId: string): Promise<void> {
  const started = Date.now();
  for (let i = 0; i < TEXTS_PER_RUN && Date.now() - started < RUN_BUDGET_SECONDS * 1000; i += 1) {
    const claimed =
      (i === 0 && data.versionId !== undefined ? await claimPendingText(ctx.db, jobId, claimSeconds(ctx), data.versionId) : null) ??
      (await claimPendingText(ctx.db, jobId, claimSeconds(ctx)));
    if (!claimed) return;
    await readOne(ctx, jobId, claimed);
    await finishReindexRuns(ctx.db, claimed.organizationId);
  }
  if (await hasClaimableText(ctx.db)) await queueTextReading(ctx, ctx.db);
}

/**
 * Reads every claimable pending text in this process, one after another (the admin command's --now, for an
 * installation whose server is stopped); `progress` hears of each. Answers how many were read.
 */
export async function readPendingTexts(ctx: AppContext, jobId: string, progress: (read: number) => void): Promise<number> {
  let read = 0;
  for (;;) {
    const claimed = await claimPendingText(ctx.db, jobId, claimSeconds(ctx));
    if (!claimed) return read;
    await readOne(ctx, jobId, claimed);
    await finishReindexRuns(ctx.db, claimed.organizationId);
    read += 1;
    progress(read);
  }
}

export function defineDocumentTextJobs(ctx: AppContext): void {
  ctx.jobs.define<FileTextJob>({
    name: FILE_TEXT_JOB,
    handler: (data, meta) => runTextJob(ctx, data, meta.id),
    cron: '* * * * *',
    pollingIntervalSeconds: 2,
    // The budget, then one more text at its longest, and room to write it.
    expireInSeconds: RUN_BUDGET_SECONDS + ctx.config.textExtraction.timeoutSeconds + 5 * 60,
    retryLimit: 5,
    retryDelaySeconds: 10,
  });
}
