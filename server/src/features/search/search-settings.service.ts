import {
  DOCUMENT_SEARCH_MSG,
  SEARCH_LANGUAGES,
  type ReindexRequest,
  type ReindexResponse,
  type SearchSettingsResponse,
  type UpdateSearchSettingsRequest,
} from '@strongroom/contracts';
import { OCR_LANGUAGES } from '../../platform/text-extraction/index.js';
import { auditFor } from '../../shared/audit.js';
import type { AppContext, RequestMeta } from '../../shared/context.js';
import { badRequest, conflict } from '../../shared/errors.js';
import type { AuthContext } from '../sessions/index.js';
import { queueTextReading } from './document-text.jobs.js';
import {
  findSearchSettings,
  lockSearchSettings,
  hasRunningReindex,
  insertReindexRun,
  organizationIds,
  latestReindex,
  requeueTexts,
  saveSearchSettings,
  textStateCounts,
  type ReindexRow,
} from './search-settings.repository.js';

function reindexOf(row: ReindexRow | null): SearchSettingsResponse['reindex'] {
  if (!row) return null;
  const running = row.finishedAt === null;
  // Texts of files uploaded during the run wait too: the count never goes below none done or past all.
  const done = running ? Math.max(0, Math.min(row.total, row.total - row.pending)) : row.total;
  return {
    state: running ? 'running' : 'completed',
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    total: row.total,
    done,
  };
}

/** The organization's search and OCR languages, the choices, its files by text state and the latest re-index. */
export async function getSearchSettings(ctx: AppContext, auth: AuthContext): Promise<SearchSettingsResponse> {
  const org = auth.user.organizationId;
  const [settings, counts, reindex] = await Promise.all([
    findSearchSettings(ctx.db, org),
    textStateCounts(ctx.db, org),
    latestReindex(ctx.db, org),
  ]);
  return {
    language: settings.language as SearchSettingsResponse['language'],
    ocrLanguages: settings.ocrLanguages,
    languages: SEARCH_LANGUAGES.map((l) => ({ config: l.config, name: l.name })),
    availableOcrLanguages: OCR_LANGUAGES.map((l) => ({ code: l.code, name: l.name })),
    counts,
    reindex: reindexOf(reindex),
  };
}

/**
 * Changes the languages. Documents already indexed keep the words of their old language until re-indexed (the
 * settings page offers it); new ones are read in the new languages.
 */
export async function updateSearchSettings(
  ctx: AppContext,
  auth: AuthContext,
  input: UpdateSearchSettingsRequest,
  meta: RequestMeta,
): Promise<SearchSettingsResponse> {
  const available = new Set(OCR_LANGUAGES.map((l) => l.code));
  const ocr = [...new Set(input.ocrLanguages)];
  if (ocr.some((c) => !available.has(c))) throw badRequest(DOCUMENT_SEARCH_MSG.ocrLanguagesInvalid);
  const org = auth.user.organizationId;
  await ctx.db.transaction().execute(async (trx) => {
    const before = await lockSearchSettings(trx, org);
    await saveSearchSettings(trx, org, input.language, ocr);
    const changed = [
      ...(before.language !== input.language ? ['language'] : []),
      ...(before.ocrLanguages.join(',') !== ocr.join(',') ? ['ocrLanguages'] : []),
    ];
    await auditFor(auth.user, meta)(
      trx,
      'UPDATE_SEARCH_SETTINGS',
      { table: 'organizations', id: org },
      {
        changed,
        before: { language: before.language, ocrLanguages: before.ocrLanguages },
        after: { language: input.language, ocrLanguages: ocr },
      },
    );
  });
  return getSearchSettings(ctx, auth);
}

/**
 * The admin command's re-index: for the one organization named, or for every organization, sends the texts back
 * to be read (a running server or worker reads them; `--now` reads them in the command's own process). An
 * organization with a re-index running already is left as it is. Audited for each organization, by no person.
 */
export async function reindexFromCli(
  ctx: AppContext,
  opts: { organizationId?: string; since?: Date },
): Promise<Array<{ organizationId: string; total: number; skipped: boolean }>> {
  const orgs = await organizationIds(ctx.db, opts.organizationId);
  if (opts.organizationId !== undefined && orgs.length === 0) throw badRequest('No organization has that id.');
  const out: Array<{ organizationId: string; total: number; skipped: boolean }> = [];
  for (const org of orgs) {
    out.push(
      await ctx.db.transaction().execute(async (trx) => {
        await lockSearchSettings(trx, org);
        if (await hasRunningReindex(trx, org)) return { organizationId: org, total: 0, skipped: true };
        const total = await requeueTexts(trx, org, opts.since ?? null);
        await insertReindexRun(trx, org, null, opts.since ?? null, total);
        const since = opts.since?.toISOString().slice(0, 10) ?? null;
        await auditFor({ organizationId: org, actor: null })(
          trx,
          'SEARCH_REINDEX_STARTED',
          { table: 'organizations', id: org },
          { total, since },
        );
        return { organizationId: org, total, skipped: false };
      }),
    );
  }
  return out;
}

/** Starts reading every text of the organization again (or those uploaded since a day), in the background. */
export async function startReindex(ctx: AppContext, auth: AuthContext, input: ReindexRequest, meta: RequestMeta): Promise<ReindexResponse> {
  const org = auth.user.organizationId;
  const since = input.since === undefined ? null : new Date(`${input.since}T00:00:00Z`);
  const run = await ctx.db.transaction().execute(async (trx) => {
    // The organization's settings row is the lock that lets one re-index start at a time.
    await lockSearchSettings(trx, org);
    if (await hasRunningReindex(trx, org)) throw conflict(DOCUMENT_SEARCH_MSG.reindexRunning);
    const total = await requeueTexts(trx, org, since);
    const row = await insertReindexRun(trx, org, auth.user.id, since, total);
    if (total > 0) await queueTextReading(ctx, trx);
    await auditFor(auth.user, meta)(
      trx,
      'SEARCH_REINDEX_STARTED',
      { table: 'organizations', id: org },
      { total, since: input.since ?? null },
    );
    return row;
  });
  return {
    message: DOCUMENT_SEARCH_MSG.reindexStarted,
    reindex: reindexOf({ startedAt: run.startedAt, finishedAt: run.finishedAt, total: run.total, pending: run.total })!,
  };
}
