/**
 * delete-objects: removes stored objects whose rows are gone (deleted nodes, failed uploads). Enqueued in the
 * transaction that removes the rows, so it runs only after they are really gone. Idempotent: deleting a
 * missing object is not an error. An object that a node points at again is kept (never happens by design;
 * the check makes a bug cost storage instead of data).
 *
 * A run cut short (the process killed half way) is retried after a restart: the objects it already deleted
 * are missing by then, which both stores take as done, and the rest go. Repeating a run costs nothing, so a
 * run whose heartbeat stops for 10 s is taken for a dead one and retried promptly.
 */
import { failpoint } from '../../platform/failpoints.js';
import type { Executor } from '../../platform/db/database.js';
import type { AppContext } from '../../shared/context.js';
import { referencedKeys } from './nodes.repository.js';

export const DELETE_OBJECTS_JOB = 'delete-objects';
type DeleteObjectsJob = { organizationId: string; keys: string[]; reason: string };

/** Keys per job: a folder with many thousands of files becomes several small jobs. */
const KEYS_PER_JOB = 200;

export async function enqueueObjectDeletion(
  ctx: AppContext,
  trx: Executor,
  organizationId: string,
  keys: string[],
  reason: string,
): Promise<void> {
  for (let i = 0; i < keys.length; i += KEYS_PER_JOB) {
    await ctx.jobs.enqueue<DeleteObjectsJob>(trx, DELETE_OBJECTS_JOB, { organizationId, keys: keys.slice(i, i + KEYS_PER_JOB), reason });
  }
}

async function deleteObjects(ctx: AppContext, job: DeleteObjectsJob): Promise<void> {
  const stillUsed = await referencedKeys(ctx.db, job.keys);
  for (const key of job.keys) {
    if (stillUsed.has(key)) {
      ctx.log.warn({ key, organizationId: job.organizationId }, 'delete-objects: a node still points at this object; kept');
      continue;
    }
    await ctx.store.delete(key);
    await failpoint(ctx, 'nodes.delete.after-object', { key });
  }
}

export function defineNodeJobs(ctx: AppContext): void {
  ctx.jobs.define<DeleteObjectsJob>({
    name: DELETE_OBJECTS_JOB,
    handler: (data) => deleteObjects(ctx, data),
    pollingIntervalSeconds: 2,
    // At most 200 deletes: minutes are plenty, and a run that outlives them is retried.
    expireInSeconds: 300,
    heartbeatSeconds: 10,
    // Retries start soon and back off (from 2 s, doubling): a store outage of up to about 4 hours is outlived.
    retryDelaySeconds: 2,
    retryLimit: 12,
  });
}
