/**
 * bin-purge: once a day, every recycle bin entry past its purge date is deleted for good: its node rows go, its
 * stored objects are queued for the delete-objects job, and PURGE_NODE is audited (no actor: the system did it).
 *
 * A matter under legal hold or in the vault is skipped: a hold freezes everything, the bin too; the entry waits
 * for a later run. Each entry is its own transaction under the matter's row lock (so a restore and a purge of
 * one entry never both happen), which makes a run that is killed half way safe: the entries done are gone, the
 * rest are taken by the next run. Running again changes nothing more.
 */
import { auditFor } from '../../shared/audit.js';
import type { AppContext } from '../../shared/context.js';
import { lockMatterForChange } from '../matters/index.js';
import { binEntryVersionKeys, dueBinEntries, lockBinEntry, purgeBinEntry } from './bin.repository.js';
import { enqueueObjectDeletion } from './nodes.jobs.js';
import { pathNames } from './nodes.repository.js';

const BIN_PURGE_JOB = 'bin-purge';
const ENTRIES_PER_RUN = 5000;

export type BinPurgeRun = { entriesPurged: number; nodesDeleted: number; objectsQueued: number; entriesWaiting: number };

/** Purges one entry; answers null when it waits (hold, vault) or is gone (restored meanwhile). */
async function purgeEntry(ctx: AppContext, organizationId: string, matterId: string, entryId: string, now: Date) {
  return ctx.db.transaction().execute(async (trx) => {
    const matter = await lockMatterForChange(trx, organizationId, matterId);
    if (!matter) return null;
    if (matter.legalHold || matter.isVaulted || matter.status === 'Vaulted') return 'waiting' as const;
    const entry = await lockBinEntry(trx, organizationId, entryId);
    if (!entry || entry.purgeAfter > now) return null;
    const names = await pathNames(trx, entry.nodeId);
    const path = '/' + names.join('/');
    // Every version's object goes with its file; read before the rows (and their versions) are deleted.
    const versionKeys = await binEntryVersionKeys(trx, entry);
    const rows = await purgeBinEntry(trx, entry);
    const keys = [...new Set([...versionKeys, ...rows.flatMap((r) => (r.storagePath ? [r.storagePath] : []))])];
    if (keys.length > 0) await enqueueObjectDeletion(ctx, trx, organizationId, keys, 'bin-purged');
    const top = rows.find((r) => r.id === entry.nodeId);
    await auditFor({ organizationId, actor: null })(
      trx,
      'PURGE_NODE',
      { table: 'nodes', id: entry.nodeId },
      {
        matterId,
        binEntryId: entry.id,
        name: names[names.length - 1] ?? null,
        nodeType: top?.nodeType ?? null,
        path,
        deletedAt: entry.deletedAt.toISOString(),
        purgeAfter: entry.purgeAfter.toISOString(),
        deletedNodes: rows.length,
        deletedFiles: rows.filter((r) => r.nodeType === 'file').length,
        deletedBytes: rows.reduce((sum, r) => sum + Number(r.fileSize ?? 0), 0),
      },
    );
    return { nodes: rows.length, objects: keys.length };
  });
}

/** One run over every organization's bins (the daily job), or one organization's (`run-job bin-purge`). */
export async function runBinPurge(ctx: AppContext, now = new Date(), organizationId?: string): Promise<BinPurgeRun> {
  const run: BinPurgeRun = { entriesPurged: 0, nodesDeleted: 0, objectsQueued: 0, entriesWaiting: 0 };
  for (const due of await dueBinEntries(ctx.db, now, ENTRIES_PER_RUN, organizationId)) {
    try {
      const done = await purgeEntry(ctx, due.organizationId, due.matterId, due.id, now);
      if (done === 'waiting') run.entriesWaiting += 1;
      else if (done) {
        run.entriesPurged += 1;
        run.nodesDeleted += done.nodes;
        run.objectsQueued += done.objects;
      }
    } catch (err) {
      // One entry's failure does not hold up the others; the next run takes it again.
      run.entriesWaiting += 1;
      ctx.log.error({ err, binEntryId: due.id }, 'bin purge failed for an entry');
    }
  }
  ctx.log.info(run, 'bin purge run finished');
  return run;
}

export function defineBinPurgeJobs(ctx: AppContext): void {
  ctx.jobs.define<Record<string, never>>({
    name: BIN_PURGE_JOB,
    handler: async () => {
      await runBinPurge(ctx);
    },
    // Daily at 02:23 UTC.
    cron: '23 2 * * *',
    pollingIntervalSeconds: 60,
    expireInSeconds: 3 * 3600,
    retryLimit: 3,
    retryDelaySeconds: 600,
  });
}
