/**
 * The audit list's search over audit_logs.search_text, and the backfill that fills it for the entries written
 * before the column existed (migration 0029 added it with a trigger for every entry written since).
 *
 * Until the backfill is complete the search keeps its old expression (the same text computed from the fields of
 * every entry it reads), so a search finds the same entries before, during and after the backfill.
 */
import type { AppContext } from '../../shared/context.js';
import {
  buildSearchTextIndex,
  fillSearchText,
  lockBackfillProgress,
  markSearchTextReady,
  saveBackfillProgress,
  searchTextReady,
} from './audit-search.repository.js';

/** Entry ids per batch: each batch is one short transaction, so audited actions never wait long behind it. */
const BACKFILL_BATCH = 5000;
/** A log line every this many batches (and at the end). */
const LOG_EVERY = 20;
/** How long a "not yet" is believed before the database is asked again (the backfill may finish meanwhile). */
const RECHECK_MS = 30_000;

const readiness = new WeakMap<object, { ready: boolean; at: number }>();

/** Whether the list's search may read search_text: answered from memory, asked again while it is not yet. */
export async function storedSearchTextReady(ctx: Pick<AppContext, 'db'>): Promise<boolean> {
  const known = readiness.get(ctx.db);
  if (known && (known.ready || Date.now() - known.at < RECHECK_MS)) return known.ready;
  const ready = await searchTextReady(ctx.db);
  readiness.set(ctx.db, { ready, at: Date.now() });
  return ready;
}

export type BackfillResult = { complete: boolean; batches: number; filled: number };

/**
 * Fills search_text for the entries that have none, batch by batch in id order from where the recorded
 * progress stands; then builds the trigram index and marks the search ready. Stops after `maxBatches` batches
 * (answering complete: false) when given. Run again at any point (after a crash, twice at once), it goes on
 * from the last batch that committed: a batch's entries and its progress commit together.
 */
export async function backfillSearchText(
  ctx: Pick<AppContext, 'db' | 'dbKind' | 'log'>,
  opts: { batchSize?: number; maxBatches?: number } = {},
): Promise<BackfillResult> {
  const batchSize = BigInt(opts.batchSize ?? BACKFILL_BATCH);
  let batches = 0;
  let filled = 0;
  if (await searchTextReady(ctx.db)) return { complete: true, batches, filled };
  for (;;) {
    if (opts.maxBatches !== undefined && batches >= opts.maxBatches) return { complete: false, batches, filled };
    const step = await ctx.db.transaction().execute(async (trx) => {
      const p = await lockBackfillProgress(trx);
      if (BigInt(p.afterId) >= BigInt(p.upToId)) return { done: true, p };
      const to = BigInt(p.afterId) + batchSize;
      const toId = String(to < BigInt(p.upToId) ? to : BigInt(p.upToId));
      const n = await fillSearchText(trx, p.afterId, toId);
      const next = { ...p, afterId: toId, filled: p.filled + n };
      await saveBackfillProgress(trx, next);
      return { done: false, p: next, n };
    });
    if (step.done) break;
    batches += 1;
    filled += step.n ?? 0;
    if (batches % LOG_EVERY === 0)
      ctx.log.info({ afterId: step.p.afterId, upToId: step.p.upToId, filled: step.p.filled }, 'audit search text backfill progress');
  }
  await buildSearchTextIndex(ctx.db, ctx.dbKind);
  await markSearchTextReady(ctx.db);
  readiness.set(ctx.db, { ready: true, at: Date.now() });
  ctx.log.info({ batches, filled }, 'audit search text backfill complete: the list search reads search_text');
  return { complete: true, batches, filled };
}
